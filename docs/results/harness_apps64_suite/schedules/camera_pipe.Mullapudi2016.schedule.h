Var i_vi("i_vi");
Var i_vo("i_vo");
Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func b_minus_g = pipeline.get_func(11);
Func blue = pipeline.get_func(13);
Func blur_x = pipeline.get_func(25);
Func curve = pipeline.get_func(23);
Func denoised_b = pipeline.get_func(3);
Func denoised_gb = pipeline.get_func(6);
Func denoised_gr = pipeline.get_func(9);
Func denoised_r = pipeline.get_func(19);
Func g_at_b = pipeline.get_func(10);
Func g_at_r = pipeline.get_func(12);
Func green = pipeline.get_func(14);
Func matrix_q = pipeline.get_func(16);
Func output = pipeline.get_func(26);
Func r_minus_g = pipeline.get_func(20);
Func red = pipeline.get_func(21);
Func repeat_edge = pipeline.get_func(8);
Func repeat_edge_1 = pipeline.get_func(18);
Func repeat_edge_2 = pipeline.get_func(2);
Func repeat_edge_3 = pipeline.get_func(5);

{
    Var x = b_minus_g.args()[0];
    b_minus_g
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = blue.args()[0];
    blue
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = blur_x.args()[0];
    blur_x
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var i = curve.args()[0];
    curve
        .compute_root()
        .split(i, i_vo, i_vi, 64)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var x = denoised_b.args()[0];
    denoised_b
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = denoised_gb.args()[0];
    denoised_gb
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = denoised_gr.args()[0];
    denoised_gr
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = denoised_r.args()[0];
    denoised_r
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = g_at_b.args()[0];
    g_at_b
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = g_at_r.args()[0];
    g_at_r
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = green.args()[0];
    green
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var c = matrix_q.args()[1];
    matrix_q
        .compute_root()
        .parallel(c);
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
        .split(x_i, x_i_vo, x_i_vi, 64)
        .vectorize(x_i_vi)
        .parallel(y_o);
}
{
    Var x = r_minus_g.args()[0];
    r_minus_g
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = red.args()[0];
    red
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = repeat_edge.args()[0];
    repeat_edge
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = repeat_edge_1.args()[0];
    repeat_edge_1
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = repeat_edge_2.args()[0];
    repeat_edge_2
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}
{
    Var x = repeat_edge_3.args()[0];
    repeat_edge_3
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 32)
        .vectorize(x_vi);
}

