Func output = pipeline.get_func(7);
Func ratio = pipeline.get_func(6);
Func blur_x = pipeline.get_func(5);
Func blur_y = pipeline.get_func(4);
Func gray = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var c(output.get_schedule().dims()[2].var);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
output
    .split(y, y, yi, 48, TailStrategy::ShiftInwards)
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yi, c, x, y})
    .parallel(y);
ratio
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 64, TailStrategy::RoundUp)
    .split(xi, xi, xii, 8, TailStrategy::RoundUp)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, x)
    .reorder({xii, xi, x, y});
blur_x
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio, x)
    .reorder({xi, x, y});
blur_y
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(ratio, x)
    .reorder({xi, x, y});
gray
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(output, x)
    .reorder({xi, x, y});
