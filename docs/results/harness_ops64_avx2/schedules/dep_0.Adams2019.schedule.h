Func output = pipeline.get_func(4);
Func constant_exterior = pipeline.get_func(2);
Func repeat_edge = pipeline.get_func(1);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _1i("_1i");
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var c(output.update(0).get_schedule().dims()[2].var);
Var ci("ci");
Var n(output.update(0).get_schedule().dims()[5].var);
Var x(output.update(0).get_schedule().dims()[3].var);
Var xi("xi");
Var y(output.update(0).get_schedule().dims()[4].var);
Var yi("yi");
Var yii("yii");
RVar r_x(output.update(0).get_schedule().dims()[0].var);
RVar r_y(output.update(0).get_schedule().dims()[1].var);
output.update(0)
    .split(y, y, yi, 56, TailStrategy::GuardWithIf)
    .split(c, c, ci, 8, TailStrategy::GuardWithIf)
    .split(x, x, xi, 16, TailStrategy::GuardWithIf)
    .split(yi, yi, yii, 14, TailStrategy::GuardWithIf)
    .vectorize(ci)
    .reorder({ci, r_x, r_y, xi, yii, c, x, yi, y, n})
    .parallel(y);
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_1, _1, _1i, 2, TailStrategy::ShiftInwards)
    .split(_0, _0, _0i, 8, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, c)
    .reorder({_0i, _0, _1i, _1, _2, _3});
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 8, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(constant_exterior, _1)
    .reorder({_0i, _0, _1, _2, _3});
output
    .split(y, y, yi, 56, TailStrategy::ShiftInwards)
    .split(c, c, ci, 8, TailStrategy::ShiftInwards)
    .vectorize(ci)
    .compute_root()
    .reorder({ci, c, x, yi, y, n})
    .parallel(y);
