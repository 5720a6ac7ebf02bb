Func output = pipeline.get_func(8);
Func sums = pipeline.get_func(7);
Func weight = pipeline.get_func(6);
Func patch = pipeline.get_func(5);
Func patch_y = pipeline.get_func(4);
Func dist = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var _0(repeat_edge.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(repeat_edge.get_schedule().dims()[1].var);
Var _2(repeat_edge.get_schedule().dims()[2].var);
Var c(output.get_schedule().dims()[2].var);
Var dx(weight.get_schedule().dims()[2].var);
Var dy(weight.get_schedule().dims()[3].var);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
Var yiiii("yiiii");
RVar window_x(sums.update(0).get_schedule().dims()[0].var);
RVar window_y(sums.update(0).get_schedule().dims()[1].var);
output
    .split(x, x, xi, 96, TailStrategy::ShiftInwards)
    .split(y, y, yi, 128, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 32, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 16, TailStrategy::ShiftInwards)
    .split(yiii, yiii, yiiii, 2, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yiiii, c, yiii, yii, yi, x, y})
    .fuse(x, y, x)
    .parallel(x);
sums
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiii)
    .reorder({xi, x, y, c});
sums.update(0)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .reorder({xi, x, y, c, window_x, window_y});
weight
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(sums, c)
    .store_at(sums, window_x)
    .reorder({xi, x, y, dx, dy});
patch
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(sums, window_x)
    .reorder({xi, x, y, dx, dy});
patch_y
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(patch, y)
    .reorder({xi, x, y, dx, dy});
dist
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiii)
    .store_at(output, yii)
    .reorder({xi, x, y, dx, dy});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 16, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, yii)
    .store_at(output, yi)
    .reorder({_0i, _0, _1, _2});
