Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func c = pipeline.get_func(3);
Func prod = pipeline.get_func(2);

{
    Var x = c.args()[0];
    Var y = c.args()[1];
    c
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, x_o, y)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(y);
}
{
    Var x = prod.args()[0];
    RVar k$x(prod.update(0).get_schedule().rvars()[0].var);
    prod
        .compute_at(c, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
    prod.update(0)
        .reorder(x, k$x, y)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}

