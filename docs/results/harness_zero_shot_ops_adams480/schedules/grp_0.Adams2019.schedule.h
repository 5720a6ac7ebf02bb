Func output = pipeline.get_func(4);
Func constant_exterior = pipeline.get_func(2);
Func repeat_edge = pipeline.get_func(1);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _2i("_2i");
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var co(output.update(0).get_schedule().dims()[3].var);
Var coi("coi");
Var coii("coii");
Var n(output.update(0).get_schedule().dims()[6].var);
Var x(output.update(0).get_schedule().dims()[4].var);
Var xi("xi");
Var y(output.update(0).get_schedule().dims()[5].var);
Var yi("yi");
RVar r_x(output.update(0).get_schedule().dims()[0].var);
RVar r_y(output.update(0).get_schedule().dims()[1].var);
RVar r_z(output.update(0).get_schedule().dims()[2].var);
output.update(0)
    .split(x, x, xi, 4, TailStrategy::GuardWithIf)
    .split(y, y, yi, 7, TailStrategy::GuardWithIf)
    .split(co, co, coi, 32, TailStrategy::GuardWithIf)
    .split(coi, coi, coii, 16, TailStrategy::GuardWithIf)
    .vectorize(coii)
    .reorder({coii, coi, xi, yi, r_y, r_z, r_x, co, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_2, _2, _2i, 16, TailStrategy::RoundUp)
    .vectorize(_2i)
    .compute_at(output, r_y)
    .store_at(output, r_x)
    .reorder({_2i, _2, _0, _1, _3})
    .reorder_storage(_2, _0, _1, _3);
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_2, _2, _2i, 16, TailStrategy::GuardWithIf)
    .vectorize(_2i)
    .compute_at(output, r_x)
    .reorder({_2i, _2, _0, _1, _3})
    .reorder_storage(_2, _0, _1, _3);
output
    .split(x, x, xi, 4, TailStrategy::ShiftInwards)
    .split(y, y, yi, 7, TailStrategy::ShiftInwards)
    .split(co, co, coi, 16, TailStrategy::ShiftInwards)
    .vectorize(coi)
    .compute_root()
    .reorder({coi, co, xi, yi, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
