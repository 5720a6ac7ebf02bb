Func output = pipeline.get_func(7);
Func conv = pipeline.get_func(6);
Func constant_exterior = pipeline.get_func(4);
Func repeat_edge = pipeline.get_func(3);
Func lambda_0 = pipeline.get_func(2);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var co(output.get_schedule().dims()[0].var);
Var coi("coi");
Var coii("coii");
Var n(output.get_schedule().dims()[3].var);
Var x(output.get_schedule().dims()[1].var);
Var xi("xi");
Var y(output.get_schedule().dims()[2].var);
Var yi("yi");
RVar r_x(conv.update(0).get_schedule().dims()[0].var);
RVar r_y(conv.update(0).get_schedule().dims()[1].var);
RVar r_z(conv.update(0).get_schedule().dims()[2].var);
output
    .split(y, y, yi, 2, TailStrategy::ShiftInwards)
    .split(x, x, xi, 3, TailStrategy::ShiftInwards)
    .split(co, co, coi, 16, TailStrategy::ShiftInwards)
    .split(coi, coi, coii, 8, TailStrategy::ShiftInwards)
    .unroll(coi)
    .unroll(xi)
    .unroll(yi)
    .vectorize(coii)
    .compute_root()
    .reorder({coii, coi, xi, yi, co, n, x, y})
    .parallel(y);
conv.update(0)
    .split(co, co, coi, 8, TailStrategy::GuardWithIf)
    .unroll(co)
    .unroll(x)
    .unroll(y)
    .vectorize(coi)
    .reorder({coi, co, x, y, n, r_x, r_y, r_z});
conv
    .store_in(MemoryType::Stack)
    .split(co, co, coi, 8, TailStrategy::ShiftInwards)
    .unroll(co)
    .unroll(x)
    .unroll(y)
    .vectorize(coi)
    .compute_at(output, co)
    .reorder({coi, co, x, y, n});
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 8, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output, x)
    .reorder({_0i, _0, _1, _2, _3});
