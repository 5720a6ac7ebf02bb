Func output = pipeline.get_func(12);
Func syy = pipeline.get_func(11);
Func iyy = pipeline.get_func(10);
Func sxy = pipeline.get_func(9);
Func ixy = pipeline.get_func(8);
Func iy = pipeline.get_func(7);
Func sxx = pipeline.get_func(6);
Func ixx = pipeline.get_func(5);
Func ix = pipeline.get_func(4);
Func gray = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
output
    .split(y, y, yi, 48, TailStrategy::ShiftInwards)
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 64, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 8, TailStrategy::ShiftInwards)
    .unroll(xii)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, xii, xi, yii, yi, x, y})
    .parallel(y);
syy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, xii)
    .reorder({xi, x, y});
iyy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .reorder({xi, x, y});
sxy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, xii)
    .reorder({xi, x, y});
ixy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .reorder({xi, x, y});
iy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .store_at(output, x)
    .reorder({xi, x, y});
sxx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 24, TailStrategy::RoundUp)
    .split(xi, xi, xii, 8, TailStrategy::RoundUp)
    .unroll(xi)
    .vectorize(xii)
    .compute_at(output, xi)
    .reorder({xii, xi, x, y});
ixx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(sxx, x)
    .reorder({xi, x, y});
ix
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yi)
    .store_at(output, x)
    .reorder({xi, x, y});
gray
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(output, yi)
    .reorder({xi, x, y});
