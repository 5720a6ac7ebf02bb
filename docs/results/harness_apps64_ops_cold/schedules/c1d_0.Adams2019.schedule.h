Func output = pipeline.get_func(4);
Func constant_exterior = pipeline.get_func(2);
Func repeat_edge = pipeline.get_func(1);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var co(output.update(0).get_schedule().dims()[2].var);
Var coi("coi");
Var n(output.update(0).get_schedule().dims()[4].var);
Var x(output.update(0).get_schedule().dims()[3].var);
Var xi("xi");
Var xii("xii");
RVar r_x(output.update(0).get_schedule().dims()[0].var);
RVar r_xi("r$xi");
RVar r_y(output.update(0).get_schedule().dims()[1].var);
output.update(0)
    .split(x, x, xi, 4, TailStrategy::GuardWithIf)
    .split(r_x, r_x, r_xi, 16, TailStrategy::GuardWithIf)
    .split(xi, xi, xii, 2, TailStrategy::GuardWithIf)
    .split(co, co, coi, 16, TailStrategy::GuardWithIf)
    .vectorize(coi)
    .reorder({coi, r_xi, co, r_y, xii, r_x, xi, x, n})
    .parallel(x);
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 16, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, r_y)
    .store_at(output, r_x)
    .reorder({_0i, _0, _1, _2});
output
    .split(x, x, xi, 4, TailStrategy::ShiftInwards)
    .split(co, co, coi, 16, TailStrategy::ShiftInwards)
    .vectorize(coi)
    .compute_root()
    .reorder({coi, co, xi, x, n})
    .parallel(x);
