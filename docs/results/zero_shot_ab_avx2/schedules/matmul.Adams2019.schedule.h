Func c = pipeline.get_func(3);
Func prod = pipeline.get_func(2);
Var x(c.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(c.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
RVar k_x(prod.update(0).get_schedule().dims()[0].var);
c
    .split(y, y, yi, 32, TailStrategy::ShiftInwards)
    .split(x, x, xi, 24, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 4, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 8, TailStrategy::ShiftInwards)
    .unroll(xi)
    .unroll(yii)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yii, x, yi, y})
    .parallel(y);
prod.update(0)
    .split(x, x, xi, 8, TailStrategy::GuardWithIf)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .reorder({xi, x, y, k_x});
prod
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .unroll(y)
    .vectorize(xi)
    .compute_at(c, x)
    .reorder({xi, x, y});
