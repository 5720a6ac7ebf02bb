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
Var y_vi("y_vi");
Var y_vo("y_vo");

Func g_pyr_1 = pipeline.get_func(8);
Func g_pyr_2 = pipeline.get_func(16);
Func g_pyr_2_dx = pipeline.get_func(15);
Func g_pyr_3 = pipeline.get_func(24);
Func g_pyr_3_dx = pipeline.get_func(23);
Func g_pyr_4 = pipeline.get_func(32);
Func g_pyr_4_dx = pipeline.get_func(31);
Func g_pyr_5 = pipeline.get_func(40);
Func g_pyr_5_dx = pipeline.get_func(39);
Func g_pyr_6 = pipeline.get_func(48);
Func g_pyr_6_dx = pipeline.get_func(47);
Func g_pyr_7 = pipeline.get_func(56);
Func g_pyr_7_dx = pipeline.get_func(55);
Func gray = pipeline.get_func(4);
Func in_pyr_1 = pipeline.get_func(14);
Func in_pyr_1_dx = pipeline.get_func(13);
Func in_pyr_2 = pipeline.get_func(22);
Func in_pyr_2_dx = pipeline.get_func(21);
Func in_pyr_3 = pipeline.get_func(30);
Func in_pyr_3_dx = pipeline.get_func(29);
Func in_pyr_4 = pipeline.get_func(38);
Func in_pyr_4_dx = pipeline.get_func(37);
Func in_pyr_5 = pipeline.get_func(46);
Func in_pyr_5_dx = pipeline.get_func(45);
Func in_pyr_6 = pipeline.get_func(54);
Func in_pyr_6_dx = pipeline.get_func(53);
Func in_pyr_7_dx = pipeline.get_func(61);
Func out_g_pyr_0 = pipeline.get_func(85);
Func out_g_pyr_1 = pipeline.get_func(82);
Func out_g_pyr_2 = pipeline.get_func(79);
Func out_g_pyr_3 = pipeline.get_func(76);
Func out_g_pyr_4 = pipeline.get_func(73);
Func out_g_pyr_5 = pipeline.get_func(70);
Func out_g_pyr_6 = pipeline.get_func(67);
Func out_l_pyr_7 = pipeline.get_func(64);
Func output = pipeline.get_func(86);
Func remap = pipeline.get_func(5);
Func up_out_1_ux = pipeline.get_func(80);
Func up_out_2_ux = pipeline.get_func(77);
Func up_out_3_ux = pipeline.get_func(74);
Func up_out_4_ux = pipeline.get_func(71);
Func up_out_5_ux = pipeline.get_func(68);
Func up_out_6_ux = pipeline.get_func(65);

{
    Var x = g_pyr_1.args()[0];
    Var k = g_pyr_1.args()[2];
    g_pyr_1
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_2.args()[0];
    Var y = g_pyr_2.args()[1];
    Var k = g_pyr_2.args()[2];
    g_pyr_2
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, y, x_o, k)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(k);
}
{
    Var x = g_pyr_2_dx.args()[0];
    g_pyr_2_dx
        .compute_at(g_pyr_2, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = g_pyr_3.args()[0];
    Var k = g_pyr_3.args()[2];
    g_pyr_3
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_3_dx.args()[0];
    Var k = g_pyr_3_dx.args()[2];
    g_pyr_3_dx
        .compute_at(g_pyr_3, k)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = g_pyr_4.args()[0];
    Var k = g_pyr_4.args()[2];
    g_pyr_4
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_4_dx.args()[0];
    Var k = g_pyr_4_dx.args()[2];
    g_pyr_4_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_5.args()[0];
    Var k = g_pyr_5.args()[2];
    g_pyr_5
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_5_dx.args()[0];
    Var k = g_pyr_5_dx.args()[2];
    g_pyr_5_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_6.args()[0];
    Var k = g_pyr_6.args()[2];
    g_pyr_6
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var x = g_pyr_6_dx.args()[0];
    Var k = g_pyr_6_dx.args()[2];
    g_pyr_6_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(k);
}
{
    Var k = g_pyr_7.args()[2];
    g_pyr_7
        .compute_root()
        .parallel(k);
}
{
    Var y = g_pyr_7_dx.args()[1];
    Var k = g_pyr_7_dx.args()[2];
    g_pyr_7_dx
        .compute_root()
        .split(y, y_vo, y_vi, 16)
        .vectorize(y_vi)
        .parallel(k);
}
{
    Var x = gray.args()[0];
    Var y = gray.args()[1];
    gray
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_1.args()[0];
    Var y = in_pyr_1.args()[1];
    in_pyr_1
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, y, x_o)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(x_o);
}
{
    Var x = in_pyr_1_dx.args()[0];
    in_pyr_1_dx
        .compute_at(in_pyr_1, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = in_pyr_2.args()[0];
    Var y = in_pyr_2.args()[1];
    in_pyr_2
        .compute_root()
        .split(x, x_o, x_i, 64)
        .reorder(x_i, y, x_o)
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(x_o);
}
{
    Var x = in_pyr_2_dx.args()[0];
    in_pyr_2_dx
        .compute_at(in_pyr_2, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = in_pyr_3.args()[0];
    Var y = in_pyr_3.args()[1];
    in_pyr_3
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_3_dx.args()[0];
    Var y = in_pyr_3_dx.args()[1];
    in_pyr_3_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_4.args()[0];
    Var y = in_pyr_4.args()[1];
    in_pyr_4
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_4_dx.args()[0];
    Var y = in_pyr_4_dx.args()[1];
    in_pyr_4_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_5.args()[0];
    Var y = in_pyr_5.args()[1];
    in_pyr_5
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_5_dx.args()[0];
    Var y = in_pyr_5_dx.args()[1];
    in_pyr_5_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_6.args()[0];
    Var y = in_pyr_6.args()[1];
    in_pyr_6
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = in_pyr_6_dx.args()[0];
    Var y = in_pyr_6_dx.args()[1];
    in_pyr_6_dx
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var y = in_pyr_7_dx.args()[1];
    in_pyr_7_dx
        .compute_root()
        .split(y, y_vo, y_vi, 16)
        .vectorize(y_vi)
        .parallel(y_vo);
}
{
    Var x = out_g_pyr_0.args()[0];
    out_g_pyr_0
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = out_g_pyr_1.args()[0];
    out_g_pyr_1
        .compute_at(output, x_o)
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi);
}
{
    Var x = out_g_pyr_2.args()[0];
    Var y = out_g_pyr_2.args()[1];
    out_g_pyr_2
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_g_pyr_3.args()[0];
    Var y = out_g_pyr_3.args()[1];
    out_g_pyr_3
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_g_pyr_4.args()[0];
    Var y = out_g_pyr_4.args()[1];
    out_g_pyr_4
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_g_pyr_5.args()[0];
    Var y = out_g_pyr_5.args()[1];
    out_g_pyr_5
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = out_g_pyr_6.args()[0];
    Var y = out_g_pyr_6.args()[1];
    out_g_pyr_6
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var y = out_l_pyr_7.args()[1];
    out_l_pyr_7
        .compute_root()
        .parallel(y);
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
        .split(x_i, x_i_vo, x_i_vi, 16)
        .vectorize(x_i_vi)
        .parallel(y_o);
}
{
    Var i = remap.args()[0];
    remap
        .compute_root()
        .split(i, i_vo, i_vi, 16)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var x = up_out_1_ux.args()[0];
    Var y = up_out_1_ux.args()[1];
    up_out_1_ux
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = up_out_2_ux.args()[0];
    Var y = up_out_2_ux.args()[1];
    up_out_2_ux
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = up_out_3_ux.args()[0];
    Var y = up_out_3_ux.args()[1];
    up_out_3_ux
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = up_out_4_ux.args()[0];
    Var y = up_out_4_ux.args()[1];
    up_out_4_ux
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = up_out_5_ux.args()[0];
    Var y = up_out_5_ux.args()[1];
    up_out_5_ux
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = up_out_6_ux.args()[0];
    Var y = up_out_6_ux.args()[1];
    up_out_6_ux
        .compute_root()
        .split(x, x_vo, x_vi, 16)
        .vectorize(x_vi)
        .parallel(y);
}

