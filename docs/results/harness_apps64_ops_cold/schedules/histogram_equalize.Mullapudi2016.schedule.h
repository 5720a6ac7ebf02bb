Var i_vi("i_vi");
Var i_vo("i_vo");
Var x_vi("x_vi");
Var x_vo("x_vo");

Func cdf = pipeline.get_func(3);
Func gain = pipeline.get_func(5);
Func hist = pipeline.get_func(2);
Func luma = pipeline.get_func(1);
Func output = pipeline.get_func(7);

{
    Var i = cdf.args()[0];
    cdf
        .compute_root()
        .split(i, i_vo, i_vi, 16)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var i = gain.args()[0];
    gain
        .compute_root()
        .split(i, i_vo, i_vi, 32)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var i = hist.args()[0];
    hist
        .compute_root()
        .split(i, i_vo, i_vi, 16)
        .vectorize(i_vi)
        .parallel(i_vo);
}
{
    Var x = luma.args()[0];
    Var y = luma.args()[1];
    luma
        .compute_root()
        .split(x, x_vo, x_vi, 64)
        .vectorize(x_vi)
        .parallel(y);
}
{
    Var x = output.args()[0];
    Var c = output.args()[2];
    output
        .compute_root()
        .split(x, x_vo, x_vi, 64)
        .vectorize(x_vi)
        .parallel(c);
}

