Var _0_vi("_0_vi");
Var _0_vo("_0_vo");
Var c_vi("c_vi");
Var c_vo("c_vo");
Var y_i("y_i");
Var y_o("y_o");

Func constant_exterior = pipeline.get_func(2);
Func output = pipeline.get_func(4);

{
    Var _0 = constant_exterior.args()[0];
    constant_exterior
        .compute_at(output, y_o)
        .split(_0, _0_vo, _0_vi, 8)
        .vectorize(_0_vi);
}
{
    Var c = output.args()[0];
    Var y = output.args()[2];
    Var n = output.args()[3];
    RVar r$x(output.update(0).get_schedule().rvars()[0].var);
    RVar r$y(output.update(0).get_schedule().rvars()[1].var);
    output
        .compute_root()
        .split(c, c_vo, c_vi, 8)
        .vectorize(c_vi)
        .parallel(n)
        .parallel(y);
    output.update(0)
        .reorder(c, r$x, x, r$y, y, n)
        .split(y, y_o, y_i, 16, TailStrategy::GuardWithIf)
        .reorder(c, r$x, x, r$y, y_i, n, y_o)
        .split(c, c_vo, c_vi, 8, TailStrategy::GuardWithIf)
        .vectorize(c_vi)
        .parallel(y_o);
}

