Func output = pipeline.get_func(15);
Func stage_11 = pipeline.get_func(14);
Func stage_10 = pipeline.get_func(13);
Func stage_9 = pipeline.get_func(12);
Func stage_8 = pipeline.get_func(11);
Func stage_7 = pipeline.get_func(10);
Func stage_6 = pipeline.get_func(9);
Func stage_5 = pipeline.get_func(8);
Func stage_4 = pipeline.get_func(7);
Func stage_3 = pipeline.get_func(6);
Func stage_2 = pipeline.get_func(5);
Func stage_1 = pipeline.get_func(4);
Func stage_0 = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var _0(repeat_edge.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(repeat_edge.get_schedule().dims()[1].var);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var xiiii("xiiii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
output
    .split(x, x, xi, 1280, TailStrategy::ShiftInwards)
    .split(y, y, yi, 96, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 256, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 128, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 32, TailStrategy::ShiftInwards)
    .split(xiii, xiii, xiiii, 16, TailStrategy::ShiftInwards)
    .unroll(xiii)
    .vectorize(xiiii)
    .compute_root()
    .reorder({xiiii, xiii, yii, yi, xii, xi, x, y})
    .fuse(x, y, x)
    .parallel(x);
stage_11
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, xiii)
    .reorder({xi, x, y});
stage_10
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, yi)
    .reorder({xi, x, y});
stage_9
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, yi)
    .reorder({xi, x, y});
stage_8
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, yi)
    .reorder({xi, x, y});
stage_7
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 48, TailStrategy::RoundUp)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .split(xi, xi, xii, 16, TailStrategy::RoundUp)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, yi)
    .store_at(output, xii)
    .reorder({xii, xi, yi, x, y});
stage_6
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_7, yi)
    .store_at(stage_7, x)
    .reorder({xi, x, y});
stage_5
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 48, TailStrategy::RoundUp)
    .split(y, y, yi, 15, TailStrategy::RoundUp)
    .split(xi, xi, xii, 16, TailStrategy::RoundUp)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, yi)
    .store_at(output, xii)
    .reorder({xii, xi, yi, x, y});
stage_4
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_5, yi)
    .store_at(stage_5, x)
    .reorder({xi, x, y});
stage_3
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_5, yi)
    .store_at(stage_5, x)
    .reorder({xi, x, y});
stage_2
    .split(y, y, yi, 29, TailStrategy::ShiftInwards)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .unroll(x)
    .vectorize(xi)
    .compute_at(output, xii)
    .store_at(output, xi)
    .reorder({xi, x, yi, y});
stage_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_2, yi)
    .store_at(stage_2, y)
    .reorder({xi, x, y});
stage_0
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_2, yi)
    .store_at(stage_2, y)
    .reorder({xi, x, y});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 16, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(stage_2, y)
    .store_at(output, xii)
    .reorder({_0i, _0, _1});
