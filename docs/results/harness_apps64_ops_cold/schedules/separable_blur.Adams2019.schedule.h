Func output = pipeline.get_func(6);
Func tall = pipeline.get_func(5);
Func blur_x = pipeline.get_func(4);
Func wide = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var _0(repeat_edge.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(repeat_edge.get_schedule().dims()[1].var);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
output
    .split(y, y, yi, 768, TailStrategy::ShiftInwards)
    .split(x, x, xi, 256, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 32, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 32, TailStrategy::ShiftInwards)
    .unroll(yiii)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, yiii, xi, yii, x, yi, y})
    .parallel(y);
tall
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(output, xi)
    .reorder({xi, x, y});
blur_x
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, x)
    .reorder({xi, x, y});
wide
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(blur_x, y)
    .reorder({xi, x, y});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 32, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, x)
    .reorder({_0i, _0, _1});
