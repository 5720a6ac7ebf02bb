Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func blur_x = pipeline.get_func(5);
Func blur_y = pipeline.get_func(6);
Func blur_z = pipeline.get_func(4);
Func histogram = pipeline.get_func(3);
Func output = pipeline.get_func(7);

{
    Var x = blur_x.args()[0];
    Var y = blur_x.args()[1];
    Var z = blur_x.args()[2];
    Var c = blur_x.args()[3];
    blur_x
        .compute_root()
        .reorder(x, z, c, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = blur_y.args()[0];
    blur_y
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = blur_z.args()[0];
    Var y = blur_z.args()[1];
    blur_z
        .compute_at(blur_x, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = histogram.args()[0];
    Var y = histogram.args()[1];
    RVar cell$x(histogram.update(0).get_schedule().rvars()[0].var);
    RVar cell$y(histogram.update(0).get_schedule().rvars()[1].var);
    histogram
        .compute_at(blur_x, y)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
    histogram.update(0)
        .reorder(x, cell$x, y, cell$y, c)
        .split(x, x_vo, x_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(x_vi);
}
{
    Var x = output.args()[0];
    Var y = output.args()[1];
    output
        .compute_root()
        .split(x, x_o, x_i, 256)
        .split(y, y_o, y_i, 256)
        .reorder(x_i, y_i, x_o, y_o)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(y_o);
}

