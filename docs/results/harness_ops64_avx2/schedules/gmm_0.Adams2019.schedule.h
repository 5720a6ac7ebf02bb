Func output = pipeline.get_func(2);
Var b(output.update(0).get_schedule().dims()[3].var);
Var i(output.update(0).get_schedule().dims()[2].var);
Var ii("ii");
Var j(output.update(0).get_schedule().dims()[1].var);
Var ji("ji");
RVar r_x(output.update(0).get_schedule().dims()[0].var);
output.update(0)
    .split(i, i, ii, 64, TailStrategy::GuardWithIf)
    .split(j, j, ji, 8, TailStrategy::GuardWithIf)
    .vectorize(ji)
    .reorder({ji, r_x, j, ii, i, b})
    .parallel(i);
output
    .split(i, i, ii, 64, TailStrategy::ShiftInwards)
    .split(j, j, ji, 8, TailStrategy::ShiftInwards)
    .vectorize(ji)
    .compute_root()
    .reorder({ji, j, ii, i, b})
    .parallel(i);
