Func output = pipeline.get_func(2);
Func sum_sq = pipeline.get_func(1);
Var b(output.get_schedule().dims()[0].var);
Var bi("bi");
RVar r_x(sum_sq.update(0).get_schedule().dims()[0].var);
RVar r_y(sum_sq.update(0).get_schedule().dims()[1].var);
output
    .split(b, b, bi, 8, TailStrategy::GuardWithIf)
    .vectorize(bi)
    .compute_root()
    .reorder({bi, b});
sum_sq.update(0)
    .split(b, b, bi, 8, TailStrategy::GuardWithIf)
    .vectorize(bi)
    .reorder({bi, r_x, r_y, b});
sum_sq
    .split(b, b, bi, 8, TailStrategy::RoundUp)
    .vectorize(bi)
    .compute_root()
    .reorder({bi, b});
