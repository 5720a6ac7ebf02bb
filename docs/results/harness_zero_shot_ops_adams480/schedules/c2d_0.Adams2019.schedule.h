Func output = pipeline.get_func(4);
Func constant_exterior = pipeline.get_func(2);
Func repeat_edge = pipeline.get_func(1);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _1i("_1i");
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var co(output.update(0).get_schedule().dims()[3].var);
Var coi("coi");
Var n(output.update(0).get_schedule().dims()[6].var);
Var x(output.update(0).get_schedule().dims()[4].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(output.update(0).get_schedule().dims()[5].var);
Var yi("yi");
Var yii("yii");
RVar r_x(output.update(0).get_schedule().dims()[0].var);
RVar r_y(output.update(0).get_schedule().dims()[1].var);
RVar r_z(output.update(0).get_schedule().dims()[2].var);
output.update(0)
    .split(x, x, xi, 28, TailStrategy::GuardWithIf)
    .split(y, y, yi, 14, TailStrategy::GuardWithIf)
    .split(xi, xi, xii, 4, TailStrategy::GuardWithIf)
    .split(xii, xii, xiii, 2, TailStrategy::GuardWithIf)
    .split(yi, yi, yii, 7, TailStrategy::GuardWithIf)
    .split(co, co, coi, 16, TailStrategy::GuardWithIf)
    .vectorize(coi)
    .reorder({coi, r_y, r_z, co, xiii, yii, xii, yi, r_x, xi, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_1, _1, _1i, 16, TailStrategy::RoundUp)
    .vectorize(_1i)
    .compute_at(output, co)
    .store_at(output, xii)
    .reorder({_1i, _1, _0, _2, _3})
    .reorder_storage(_1, _0, _2, _3);
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_1, _1, _1i, 16, TailStrategy::GuardWithIf)
    .vectorize(_1i)
    .compute_at(output, xii)
    .store_at(output, r_x)
    .reorder({_1i, _1, _0, _2, _3})
    .reorder_storage(_1, _0, _2, _3);
output
    .split(x, x, xi, 28, TailStrategy::ShiftInwards)
    .split(y, y, yi, 14, TailStrategy::ShiftInwards)
    .split(co, co, coi, 16, TailStrategy::ShiftInwards)
    .vectorize(coi)
    .compute_root()
    .reorder({coi, co, xi, yi, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
