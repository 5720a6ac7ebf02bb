
Func output = pipeline.get_func(2);
Func sum_sq = pipeline.get_func(1);

{
    Var b = output.args()[0];
    output
        .compute_root()
        .parallel(b);
}
{
    Var b = sum_sq.args()[0];
    sum_sq
        .compute_root()
        .parallel(b);
    sum_sq.update(0)
        .parallel(b);
}

