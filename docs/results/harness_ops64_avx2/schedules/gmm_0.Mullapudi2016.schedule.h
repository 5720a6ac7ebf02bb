Var j_vi("j_vi");
Var j_vo("j_vo");

Func output = pipeline.get_func(2);

{
    Var j = output.args()[0];
    Var i = output.args()[1];
    Var b = output.args()[2];
    RVar r$x(output.update(0).get_schedule().rvars()[0].var);
    output
        .compute_root()
        .split(j, j_vo, j_vi, 8)
        .vectorize(j_vi)
        .parallel(b)
        .parallel(i);
    output.update(0)
        .reorder(j, r$x, i, b)
        .reorder(b, j, r$x, i)
        .split(j, j_vo, j_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(j_vi)
        .parallel(i);
}

