Var _0_vi("_0_vi");
Var _0_vo("_0_vo");
Var co_vi("co_vi");
Var co_vo("co_vo");

Func constant_exterior = pipeline.get_func(2);
Func output = pipeline.get_func(4);

{
    Var _0 = constant_exterior.args()[0];
    Var _1 = constant_exterior.args()[1];
    Var _2 = constant_exterior.args()[2];
    constant_exterior
        .compute_root()
        .split(_0, _0_vo, _0_vi, 16)
        .vectorize(_0_vi)
        .parallel(_2)
        .parallel(_1);
}
{
    Var co = output.args()[0];
    Var x = output.args()[1];
    Var n = output.args()[2];
    RVar r$x(output.update(0).get_schedule().rvars()[0].var);
    RVar r$y(output.update(0).get_schedule().rvars()[1].var);
    output
        .compute_root()
        .split(co, co_vo, co_vi, 16)
        .vectorize(co_vi)
        .parallel(n)
        .parallel(x);
    output.update(0)
        .reorder(co, r$x, x, r$y, n)
        .reorder(n, co, r$x, x, r$y)
        .split(co, co_vo, co_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(co_vi)
        .reorder(r$y, x)
        .parallel(x);
}

