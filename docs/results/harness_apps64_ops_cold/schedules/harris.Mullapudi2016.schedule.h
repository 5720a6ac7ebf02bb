Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func gray = pipeline.get_func(3);
Func ix = pipeline.get_func(4);
Func iy = pipeline.get_func(7);
Func output = pipeline.get_func(12);

{
    Var x = gray.args()[0];
    gray
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = ix.args()[0];
    ix
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = iy.args()[0];
    iy
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
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

