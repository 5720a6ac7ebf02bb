Var _0_vi("_0_vi");
Var _0_vo("_0_vo");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func output = pipeline.get_func(8);
Func patch_y = pipeline.get_func(4);
Func repeat_edge = pipeline.get_func(2);
Func sums = pipeline.get_func(7);
Func weight = pipeline.get_func(6);

{
    Var x = output.args()[0];
    Var y = output.args()[1];
    Var c = output.args()[2];
    output
        .compute_root()
        .reorder(x, c, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = patch_y.args()[0];
    Var y = patch_y.args()[1];
    Var dx = patch_y.args()[2];
    Var dy = patch_y.args()[3];
    patch_y
        .compute_at(output, y)
        .reorder(x, dx, dy, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var _0 = repeat_edge.args()[0];
    repeat_edge
        .compute_at(output, y)
        .split(_0, _0_vo, _0_vi, 16)
        .vectorize(_0_vi);
}
{
    Var x = sums.args()[0];
    Var y = sums.args()[1];
    RVar window$x(sums.update(0).get_schedule().rvars()[0].var);
    RVar window$y(sums.update(0).get_schedule().rvars()[1].var);
    sums
        .compute_at(output, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
    sums.update(0)
        .reorder(x, window$x, y, window$y, c)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}
{
    Var x = weight.args()[0];
    Var y = weight.args()[1];
    weight
        .compute_at(output, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}

