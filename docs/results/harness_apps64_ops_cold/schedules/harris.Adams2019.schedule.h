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
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
output
    .split(y, y, yi, 48, TailStrategy::ShiftInwards)
    .split(x, x, xi, 256, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 24, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 8, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .unroll(yiii)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, yiii, xi, yii, x, yi, y})
    .parallel(y);
syy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiii)
    .reorder({xi, x, y});
iyy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .reorder({xi, x, y});
sxy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiii)
    .reorder({xi, x, y});
ixy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, x)
    .reorder({xi, x, y});
iy
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, x)
    .reorder({xi, x, y});
sxx
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 4, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(xi)
    .compute_at(output, xi)
    .reorder({xi, x, yi, y});
ixx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(sxx, y)
    .reorder({xi, x, y});
ix
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, x)
    .reorder({xi, x, y});
gray
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(output, x)
    .reorder({xi, x, y});
