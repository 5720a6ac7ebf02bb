Func output = pipeline.get_func(7);
Func blur_y = pipeline.get_func(6);
Func blur_x = pipeline.get_func(5);
Func blur_z = pipeline.get_func(4);
Func histogram = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var _0(repeat_edge.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(repeat_edge.get_schedule().dims()[1].var);
Var c(blur_y.get_schedule().dims()[3].var);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var z(blur_y.get_schedule().dims()[2].var);
RVar cell_x(histogram.update(0).get_schedule().dims()[0].var);
RVar cell_y(histogram.update(0).get_schedule().dims()[1].var);
output
    .split(y, y, yi, 768, TailStrategy::ShiftInwards)
    .split(x, x, xi, 512, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yii, x, yi, y})
    .parallel(y);
blur_y
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, x)
    .reorder({xi, x, y, z, c});
blur_x
    .split(y, y, yi, 25, TailStrategy::ShiftInwards)
    .split(x, x, xi, 48, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, z, c, x, yi, y})
    .parallel(y);
blur_z
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(blur_x, xi)
    .reorder({xi, x, y, z, c});
histogram
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(blur_x, x)
    .reorder({xi, x, y, z, c});
histogram.update(0)
    .split(x, x, xi, 16, TailStrategy::GuardWithIf)
    .unroll(x)
    .unroll(c)
    .vectorize(xi)
    .reorder({xi, x, c, cell_x, cell_y, y});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 16, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(histogram, cell_x)
    .store_at(histogram, cell_y)
    .reorder({_0i, _0, _1});
