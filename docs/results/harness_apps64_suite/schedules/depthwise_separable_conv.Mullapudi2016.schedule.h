Var _0_vi("_0_vi");
Var _0_vo("_0_vo");
Var ci_vi("ci_vi");
Var ci_vo("ci_vo");
Var co_vi("co_vi");
Var co_vo("co_vo");
Var y_i("y_i");
Var y_o("y_o");

Func constant_exterior = pipeline.get_func(3);
Func depthwise = pipeline.get_func(6);
Func output_1 = pipeline.get_func(11);
Func pointwise = pipeline.get_func(10);

{
    Var _0 = constant_exterior.args()[0];
    constant_exterior
        .compute_at(output_1, y_o)
        .split(_0, _0_vo, _0_vi, 16)
        .vectorize(_0_vi);
}
{
    Var ci = depthwise.args()[0];
    RVar k$x(depthwise.update(0).get_schedule().rvars()[0].var);
    RVar k$y(depthwise.update(0).get_schedule().rvars()[1].var);
    depthwise
        .compute_at(output_1, y_o)
        .split(ci, ci_vo, ci_vi, 16)
        .vectorize(ci_vi);
    depthwise.update(0)
        .reorder(ci, k$x, x, k$y, y, n)
        .split(ci, ci_vo, ci_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(ci_vi);
}
{
    Var co = output_1.args()[0];
    Var x = output_1.args()[1];
    Var y = output_1.args()[2];
    Var n = output_1.args()[3];
    output_1
        .compute_root()
        .split(y, y_o, y_i, 16)
        .reorder(co, x, y_i, y_o, n)
        .split(co, co_vo, co_vi, 16)
        .vectorize(co_vi)
        .parallel(n);
}
{
    Var co = pointwise.args()[0];
    RVar r$x(pointwise.update(0).get_schedule().rvars()[0].var);
    pointwise
        .compute_at(output_1, y_o)
        .split(co, co_vo, co_vi, 16)
        .vectorize(co_vi);
    pointwise.update(0)
        .reorder(co, r$x, x, y, n)
        .split(co, co_vo, co_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(co_vi);
}

