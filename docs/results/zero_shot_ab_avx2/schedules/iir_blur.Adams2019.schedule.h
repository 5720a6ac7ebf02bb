Func output = pipeline.get_func(4);
Func rows = pipeline.get_func(3);
Func transposed = pipeline.get_func(2);
Func cols = pipeline.get_func(1);
Var c(output.get_schedule().dims()[2].var);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
RVar bwd_x(rows.update(1).get_schedule().dims()[0].var);
RVar fwd_x(rows.update(0).get_schedule().dims()[0].var);
output
    .split(y, y, yi, 48, TailStrategy::ShiftInwards)
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, c, y})
    .parallel(y);
rows
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 8, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_at(output, yi)
    .reorder({yi, y, x, c})
    .reorder_storage(y, x, c);
rows.update(0)
    .reorder({fwd_x, x, c});
rows.update(1)
    .reorder({bwd_x, x, c});
transposed
    .split(y, y, yi, 1280, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 16, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 8, TailStrategy::ShiftInwards)
    .vectorize(yiii)
    .compute_root()
    .reorder({yiii, yii, x, yi, c, y})
    .parallel(y)
    .reorder_storage(y, x, c);
cols
    .split(x, x, xi, 8, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_at(transposed, yi)
    .reorder({xi, x, y, c});
cols.update(0)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .reorder({xi, x, c, fwd_x});
cols.update(1)
    .split(x, x, xi, 8, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .reorder({xi, x, c, bwd_x});
