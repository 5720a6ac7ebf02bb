Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func output = pipeline.get_func(6);
Func tall = pipeline.get_func(5);

{
    Var x = output.args()[0];
    Var y = output.args()[1];
    output
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, y, x_o)
        .split(x_i, x_i_vo, x_i_vi, 32)
        .vectorize(x_i_vi)
        .parallel(x_o);
}
{
    Var x = tall.args()[0];
    tall
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}

