Var _0_vi("_0_vi");
Var _0_vo("_0_vo");
Var co_vi("co_vi");
Var co_vo("co_vo");
Var y_i("y_i");
Var y_o("y_o");

Func constant_exterior = pipeline.get_func(4);
Func conv = pipeline.get_func(6);
Func output = pipeline.get_func(7);

{
    Var _0 = constant_exterior.args()[0];
    constant_exterior
        .compute_at(output, y_o)
        .split(_0, _0_vo, _0_vi, 16)
        .vectorize(_0_vi);
}
{
    Var co = conv.args()[0];
    RVar r$x(conv.update(0).get_schedule().rvars()[0].var);
    RVar r$y(conv.update(0).get_schedule().rvars()[1].var);
    RVar r$z(conv.update(0).get_schedule().rvars()[2].var);
    conv
        .compute_at(output, y_o)
        .split(co, co_vo, co_vi, 16)
        .vectorize(co_vi);
    conv.update(0)
        .reorder(co, r$x, x, r$y, y, r$z, n)
        .split(co, co_vo, co_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(co_vi);
}
{
    Var co = output.args()[0];
    Var x = output.args()[1];
    Var y = output.args()[2];
    Var n = output.args()[3];
    output
        .compute_root()
        .split(y, y_o, y_i, 8)
        .reorder(co, x, y_i, y_o, n)
        .split(co, co_vo, co_vi, 16)
        .vectorize(co_vi)
        .parallel(n);
}

