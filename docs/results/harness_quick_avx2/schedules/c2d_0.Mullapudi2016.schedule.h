Var _1_vi("_1_vi");
Var _1_vo("_1_vo");
Var co_vi("co_vi");
Var co_vo("co_vo");

Func constant_exterior = pipeline.get_func(2);
Func output = pipeline.get_func(4);

{
    Var _1 = constant_exterior.args()[1];
    Var _2 = constant_exterior.args()[2];
    Var _3 = constant_exterior.args()[3];
    constant_exterior
        .compute_root()
        .split(_1, _1_vo, _1_vi, 8)
        .vectorize(_1_vi)
        .parallel(_3)
        .parallel(_2);
}
{
    Var co = output.args()[0];
    Var y = output.args()[2];
    Var n = output.args()[3];
    RVar r$x(output.update(0).get_schedule().rvars()[0].var);
    RVar r$y(output.update(0).get_schedule().rvars()[1].var);
    RVar r$z(output.update(0).get_schedule().rvars()[2].var);
    output
        .compute_root()
        .split(co, co_vo, co_vi, 8)
        .vectorize(co_vi)
        .parallel(n)
        .parallel(y);
    output.update(0)
        .reorder(co, r$x, x, r$y, r$z, y, n)
        .reorder(n, co, r$x, x, r$y, r$z, y)
        .split(co, co_vo, co_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(co_vi)
        .parallel(y);
}

