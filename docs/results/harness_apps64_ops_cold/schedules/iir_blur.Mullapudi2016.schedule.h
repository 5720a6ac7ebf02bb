Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_vi("y_vi");
Var y_vo("y_vo");

Func cols = pipeline.get_func(1);
Func output = pipeline.get_func(4);
Func rows = pipeline.get_func(3);

{
    Var x = cols.args()[0];
    Var c = cols.args()[2];
    RVar fwd$x(cols.update(0).get_schedule().rvars()[0].var);
    RVar bwd$x(cols.update(1).get_schedule().rvars()[0].var);
    cols
        .compute_at(output, c)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
    cols.update(0)
        .reorder(x, fwd$x, c)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
    cols.update(1)
        .reorder(x, bwd$x, c)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}
{
    Var x = output.args()[0];
    Var c = output.args()[2];
    output
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(c);
}
{
    Var x = rows.args()[0];
    Var y = rows.args()[1];
    Var c = rows.args()[2];
    RVar fwd$x(rows.update(0).get_schedule().rvars()[0].var);
    RVar bwd$x(rows.update(1).get_schedule().rvars()[0].var);
    rows
        .compute_at(output, c)
        .reorder(y, x, c)
        .split(y, y_vo, y_vi, 16)
        .vectorize(y_vi);
    rows.update(0)
        .reorder(x, fwd$x, c)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
    rows.update(1)
        .reorder(x, bwd$x, c)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}

