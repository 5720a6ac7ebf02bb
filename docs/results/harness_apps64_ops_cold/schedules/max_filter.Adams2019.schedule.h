Func output = pipeline.get_func(7);
Func span_4 = pipeline.get_func(6);
Func span_3 = pipeline.get_func(5);
Func span_2 = pipeline.get_func(4);
Func span_1 = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var _0(repeat_edge.get_schedule().dims()[0].var);
Var _1(repeat_edge.get_schedule().dims()[1].var);
Var _1i("_1i");
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var xiiii("xiiii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
Var yiiii("yiiii");
output
    .split(y, y, yi, 768, TailStrategy::ShiftInwards)
    .split(x, x, xi, 128, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 96, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 64, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 24, TailStrategy::ShiftInwards)
    .split(yiii, yiii, yiiii, 3, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 32, TailStrategy::ShiftInwards)
    .split(xiii, xiii, xiiii, 16, TailStrategy::ShiftInwards)
    .unroll(xiii)
    .vectorize(xiiii)
    .compute_root()
    .reorder({xiiii, xiii, yiiii, xii, yiii, yii, xi, x, yi, y})
    .parallel(y);
span_4
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiiii)
    .store_at(output, xii)
    .reorder({xi, x, y});
span_3
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yiii)
    .store_at(output, yii)
    .reorder({xi, x, y});
span_2
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, xi)
    .reorder({xi, yi, x, y});
span_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(span_2, x)
    .reorder({xi, x, y});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_1, _1, _1i, 16, TailStrategy::ShiftInwards)
    .vectorize(_1i)
    .compute_at(output, xi)
    .store_at(output, x)
    .reorder({_1i, _1, _0})
    .reorder_storage(_1, _0);
