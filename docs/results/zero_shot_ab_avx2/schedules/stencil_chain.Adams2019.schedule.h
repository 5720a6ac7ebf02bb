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
Var xiiiii("xiiiii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
Var yiiii("yiiii");
Var yiiiii("yiiiii");
Var yiiiiii("yiiiiii");
output
    .split(x, x, xi, 160, TailStrategy::ShiftInwards)
    .split(y, y, yi, 768, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 80, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 128, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 64, TailStrategy::ShiftInwards)
    .split(yiii, yiii, yiiii, 32, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 40, TailStrategy::ShiftInwards)
    .split(yiiii, yiiii, yiiiii, 16, TailStrategy::ShiftInwards)
    .split(xiii, xiii, xiiii, 24, TailStrategy::ShiftInwards)
    .split(yiiiii, yiiiii, yiiiiii, 4, TailStrategy::ShiftInwards)
    .split(xiiii, xiiii, xiiiii, 8, TailStrategy::ShiftInwards)
    .unroll(xiiii)
    .unroll(yiiiiii)
    .vectorize(xiiiii)
    .compute_root()
    .reorder({xiiiii, xiiii, yiiiiii, xiii, yiiiii, xii, yiiii, yiii, yii, xi, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
stage_11
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(output, xiii)
    .reorder({xi, x, y});
stage_10
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(y, y, yi, 4, TailStrategy::RoundUp)
    .split(xi, xi, xii, 8, TailStrategy::RoundUp)
    .unroll(xi)
    .unroll(yi)
    .vectorize(xii)
    .compute_at(output, xii)
    .reorder({xii, xi, yi, x, y});
stage_9
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_10, x)
    .reorder({xi, x, y});
stage_8
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 48, TailStrategy::RoundUp)
    .split(y, y, yi, 19, TailStrategy::RoundUp)
    .split(yi, yi, yii, 2, TailStrategy::RoundUp)
    .split(xi, xi, xii, 24, TailStrategy::RoundUp)
    .split(xii, xii, xiii, 8, TailStrategy::RoundUp)
    .unroll(xii)
    .unroll(yii)
    .vectorize(xiii)
    .compute_at(output, yiii)
    .reorder({xiii, xii, yii, xi, yi, x, y});
stage_7
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_8, xi)
    .reorder({xi, x, y});
stage_6
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_8, yi)
    .store_at(stage_8, x)
    .reorder({xi, x, y});
stage_5
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 38, TailStrategy::RoundUp)
    .split(x, x, xi, 48, TailStrategy::RoundUp)
    .split(yi, yi, yii, 4, TailStrategy::RoundUp)
    .split(xi, xi, xii, 24, TailStrategy::RoundUp)
    .split(xii, xii, xiii, 8, TailStrategy::RoundUp)
    .unroll(xii)
    .vectorize(xiii)
    .compute_at(output, yii)
    .reorder({xiii, xii, yii, xi, yi, x, y});
stage_4
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_5, yii)
    .store_at(stage_5, xi)
    .reorder({xi, x, y});
stage_3
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_5, yi)
    .store_at(stage_5, x)
    .reorder({xi, x, y});
stage_2
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 15, TailStrategy::RoundUp)
    .split(yi, yi, yii, 4, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(xi, xi, xii, 8, TailStrategy::RoundUp)
    .unroll(xi)
    .unroll(yii)
    .vectorize(xii)
    .compute_at(stage_5, y)
    .reorder({xii, xi, yii, x, yi, y});
stage_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(stage_2, x)
    .reorder({xi, x, y});
stage_0
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(stage_2, yi)
    .store_at(stage_2, y)
    .reorder({xi, x, y});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 8, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, yii)
    .store_at(output, xi)
    .reorder({_0i, _0, _1});
