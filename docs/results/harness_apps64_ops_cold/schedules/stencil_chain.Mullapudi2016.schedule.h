Var x_i("x_i");
Var x_i_vi("x_i_vi");
Var x_i_vo("x_i_vo");
Var x_o("x_o");
Var x_vi("x_vi");
Var x_vo("x_vo");
Var y_i("y_i");
Var y_o("y_o");

Func output = pipeline.get_func(15);
Func stage_0 = pipeline.get_func(3);
Func stage_1 = pipeline.get_func(4);
Func stage_10 = pipeline.get_func(13);
Func stage_2 = pipeline.get_func(5);
Func stage_3 = pipeline.get_func(6);
Func stage_4 = pipeline.get_func(7);
Func stage_5 = pipeline.get_func(8);
Func stage_6 = pipeline.get_func(9);
Func stage_7 = pipeline.get_func(10);
Func stage_8 = pipeline.get_func(11);
Func stage_9 = pipeline.get_func(12);

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
{
    Var x = stage_0.args()[0];
    stage_0
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_1.args()[0];
    stage_1
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_10.args()[0];
    stage_10
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_2.args()[0];
    stage_2
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_3.args()[0];
    stage_3
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_4.args()[0];
    stage_4
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_5.args()[0];
    stage_5
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_6.args()[0];
    stage_6
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_7.args()[0];
    stage_7
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_8.args()[0];
    stage_8
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = stage_9.args()[0];
    stage_9
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}

