Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func blur_y = pipeline.get_func(4);
Func gray = pipeline.get_func(3);
Func output = pipeline.get_func(7);
Func ratio = pipeline.get_func(6);

{
    Var x = blur_y.args()[0];
    blur_y
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = gray.args()[0];
    gray
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}
{
    Var x = output.args()[0];
    Var y = output.args()[1];
    Var c = output.args()[2];
    output
        .compute_root()
        .split(x, x_o, x_i, 256)
        .split(y, y_o, y_i, 256)
        .reorder(x_i, y_i, c, x_o, y_o)
        .split(x_i, x_i_vo, x_i_vi, 8)
        .vectorize(x_i_vi)
        .parallel(y_o);
}
{
    Var x = ratio.args()[0];
    ratio
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 8)
        .vectorize(x_vi);
}

