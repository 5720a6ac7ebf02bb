Var i_vi("i_vi");
Var i_vo("i_vo");
Var j_vi("j_vi");
Var j_vo("j_vo");

Func exps = pipeline.get_func(4);
Func output = pipeline.get_func(6);
Func row_max = pipeline.get_func(3);
Func row_sum = pipeline.get_func(5);
Func scores = pipeline.get_func(2);

{
    Var j = exps.args()[0];
    Var h = exps.args()[2];
    Var b = exps.args()[3];
    exps
        .compute_root()
        .split(j, j_vo, j_vi, 16)
        .vectorize(j_vi)
        .parallel(b)
        .parallel(h);
}
{
    Var j = output.args()[0];
    Var h = output.args()[2];
    Var b = output.args()[3];
    output
        .compute_root()
        .split(j, j_vo, j_vi, 16)
        .vectorize(j_vi)
        .parallel(b)
        .parallel(h);
}
{
    Var i = row_max.args()[0];
    Var h = row_max.args()[1];
    Var b = row_max.args()[2];
    row_max
        .compute_root()
        .split(i, i_vo, i_vi, 16)
        .vectorize(i_vi)
        .parallel(b)
        .parallel(h);
    row_max.update(0)
        .split(i, i_vo, i_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(i_vi)
        .parallel(b)
        .parallel(h);
}
{
    Var i = row_sum.args()[0];
    Var h = row_sum.args()[1];
    Var b = row_sum.args()[2];
    row_sum
        .compute_root()
        .split(i, i_vo, i_vi, 16)
        .vectorize(i_vi)
        .parallel(b)
        .parallel(h);
    row_sum.update(0)
        .split(i, i_vo, i_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(i_vi)
        .parallel(b)
        .parallel(h);
}
{
    Var j = scores.args()[0];
    Var h = scores.args()[2];
    Var b = scores.args()[3];
    scores
        .compute_root()
        .split(j, j_vo, j_vi, 16)
        .vectorize(j_vi)
        .parallel(b)
        .parallel(h);
    scores.update(0)
        .split(j, j_vo, j_vi, 16, TailStrategy::GuardWithIf)
        .vectorize(j_vi)
        .parallel(b)
        .parallel(h);
}

