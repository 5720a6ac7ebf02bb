Func output = pipeline.get_func(26);
Func blur_x = pipeline.get_func(25);
Func curved = pipeline.get_func(24);
Func curve = pipeline.get_func(23);
Func corrected = pipeline.get_func(22);
Func red = pipeline.get_func(21);
Func r_minus_g = pipeline.get_func(20);
Func denoised_r = pipeline.get_func(19);
Func repeat_edge_1 = pipeline.get_func(18);
Func plane_r = pipeline.get_func(17);
Func matrix_q = pipeline.get_func(16);
Func green = pipeline.get_func(14);
Func blue = pipeline.get_func(13);
Func g_at_r = pipeline.get_func(12);
Func b_minus_g = pipeline.get_func(11);
Func g_at_b = pipeline.get_func(10);
Func denoised_gr = pipeline.get_func(9);
Func repeat_edge = pipeline.get_func(8);
Func plane_gr = pipeline.get_func(7);
Func denoised_gb = pipeline.get_func(6);
Func repeat_edge_3 = pipeline.get_func(5);
Func plane_gb = pipeline.get_func(4);
Func denoised_b = pipeline.get_func(3);
Func repeat_edge_2 = pipeline.get_func(2);
Func plane_b = pipeline.get_func(1);
Var c(output.get_schedule().dims()[2].var);
Var i(curve.get_schedule().dims()[0].var);
Var ii("ii");
Var iii("iii");
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
output
    .split(x, x, xi, 896, TailStrategy::ShiftInwards)
    .split(y, y, yi, 768, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 64, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 448, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 32, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 64, TailStrategy::ShiftInwards)
    .unroll(xii)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, xii, yiii, c, yii, xi, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
blur_x
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(output, xii)
    .reorder({xi, x, y, c});
curved
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiii)
    .store_at(output, c)
    .reorder({xi, x, y, c});
curve
    .split(i, i, ii, 512, TailStrategy::RoundUp)
    .split(ii, ii, iii, 64, TailStrategy::RoundUp)
    .unroll(ii)
    .vectorize(iii)
    .compute_root()
    .reorder({iii, ii, i})
    .parallel(i);
corrected
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, c)
    .store_at(output, yii)
    .reorder({xi, x, y, c});
r_minus_g
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, xi)
    .reorder({xi, x, y});
denoised_r
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::ShiftInwards)
    .split(y, y, yi, 4, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(xi)
    .unroll(yi)
    .vectorize(xii)
    .compute_at(output, xi)
    .store_at(output, yi)
    .reorder({xii, xi, yi, x, y});
repeat_edge_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(denoised_r, x)
    .reorder({xi, x, y});
plane_r
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(repeat_edge_1, x)
    .reorder({xi, x, y});
matrix_q
    .split(i, i, ii, 16, TailStrategy::GuardWithIf)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i, c})
    .parallel(c);
green
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, xi)
    .reorder({xi, x, y});
blue
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, xi)
    .reorder({xi, x, y});
g_at_r
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .store_at(output, x)
    .reorder({xi, x, y});
b_minus_g
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .reorder({xi, x, y});
g_at_b
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .store_at(output, x)
    .reorder({xi, x, y});
denoised_gr
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::ShiftInwards)
    .split(y, y, yi, 18, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, yi)
    .reorder({xii, xi, yi, x, y});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(denoised_gr, yi)
    .store_at(denoised_gr, x)
    .reorder({xi, x, y});
plane_gr
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(denoised_gr, yi)
    .store_at(denoised_gr, x)
    .reorder({xi, x, y});
denoised_gb
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::ShiftInwards)
    .split(y, y, yi, 18, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, yi)
    .reorder({xii, xi, yi, x, y});
repeat_edge_3
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(denoised_gb, yi)
    .store_at(denoised_gb, x)
    .reorder({xi, x, y});
plane_gb
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(denoised_gb, yi)
    .store_at(denoised_gb, x)
    .reorder({xi, x, y});
denoised_b
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::ShiftInwards)
    .split(y, y, yi, 18, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, yi)
    .reorder({xii, xi, yi, x, y});
repeat_edge_2
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(denoised_b, yi)
    .store_at(denoised_b, x)
    .reorder({xi, x, y});
plane_b
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(denoised_b, yi)
    .store_at(denoised_b, x)
    .reorder({xi, x, y});
