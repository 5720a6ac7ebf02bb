Func output = pipeline.get_func(6);
Func row_sum = pipeline.get_func(5);
Func exps = pipeline.get_func(4);
Func row_max = pipeline.get_func(3);
Func scores = pipeline.get_func(2);
Var b(output.get_schedule().dims()[3].var);
Var h(output.get_schedule().dims()[2].var);
Var hi("hi");
Var i(output.get_schedule().dims()[1].var);
Var ii("ii");
Var j(output.get_schedule().dims()[0].var);
Var ji("ji");
RVar rd_x(scores.update(0).get_schedule().dims()[0].var);
RVar rj_x(row_sum.update(0).get_schedule().dims()[0].var);
output
    .split(i, i, ii, 16, TailStrategy::ShiftInwards)
    .split(h, h, hi, 3, TailStrategy::ShiftInwards)
    .split(j, j, ji, 16, TailStrategy::ShiftInwards)
    .vectorize(ji)
    .compute_root()
    .reorder({ji, j, ii, hi, i, h, b})
    .fuse(i, h, i)
    .parallel(i);
row_sum
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_at(output, i)
    .reorder({ii, i, h, b});
row_sum.update(0)
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .reorder({ii, rj_x, i, h, b});
exps
    .split(j, j, ji, 16, TailStrategy::ShiftInwards)
    .vectorize(ji)
    .compute_at(output, i)
    .reorder({ji, j, i, h, b});
row_max
    .store_in(MemoryType::Stack)
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_at(exps, h)
    .reorder({ii, i, h, b});
row_max.update(0)
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .reorder({ii, rj_x, i, h, b});
scores
    .store_in(MemoryType::Stack)
    .split(i, i, ii, 16, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_at(exps, h)
    .reorder({ii, i, j, h, b})
    .reorder_storage(i, j, h, b);
scores.update(0)
    .split(i, i, ii, 16, TailStrategy::GuardWithIf)
    .vectorize(ii)
    .reorder({ii, rd_x, i, j, h, b});
