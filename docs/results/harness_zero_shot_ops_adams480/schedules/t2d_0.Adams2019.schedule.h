Func output = pipeline.get_func(5);
Func upsampled = pipeline.get_func(3);
Func constant_exterior = pipeline.get_func(2);
Func repeat_edge = pipeline.get_func(1);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var ci(upsampled.get_schedule().dims()[0].var);
Var cii("cii");
Var co(output.update(0).get_schedule().dims()[3].var);
Var coi("coi");
Var n(output.update(0).get_schedule().dims()[6].var);
Var x(output.update(0).get_schedule().dims()[4].var);
Var xi("xi");
Var y(output.update(0).get_schedule().dims()[5].var);
RVar r_x(output.update(0).get_schedule().dims()[0].var);
RVar r_xi("r$xi");
RVar r_xii("r$xii");
RVar r_y(output.update(0).get_schedule().dims()[1].var);
RVar r_z(output.update(0).get_schedule().dims()[2].var);
RVar r_zi("r$zi");
output.update(0)
    .split(x, x, xi, 2, TailStrategy::GuardWithIf)
    .split(r_x, r_x, r_xi, 47, TailStrategy::GuardWithIf)
    .split(r_z, r_z, r_zi, 2, TailStrategy::GuardWithIf)
    .split(r_xi, r_xi, r_xii, 3, TailStrategy::GuardWithIf)
    .split(co, co, coi, 16, TailStrategy::GuardWithIf)
    .vectorize(coi)
    .reorder({coi, r_xii, r_zi, xi, r_y, co, r_xi, r_z, r_x, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
upsampled
    .store_in(MemoryType::Stack)
    .split(ci, ci, cii, 16, TailStrategy::RoundUp)
    .vectorize(cii)
    .compute_at(output, r_y)
    .store_at(output, r_xi)
    .reorder({cii, ci, x, y, n});
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 16, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, r_z)
    .store_at(output, r_x)
    .reorder({_0i, _0, _1, _2, _3});
output
    .split(x, x, xi, 2, TailStrategy::ShiftInwards)
    .split(co, co, coi, 16, TailStrategy::ShiftInwards)
    .vectorize(coi)
    .compute_root()
    .reorder({coi, co, xi, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
