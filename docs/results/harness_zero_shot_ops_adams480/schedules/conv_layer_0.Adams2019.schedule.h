Func output = pipeline.get_func(7);
Func conv = pipeline.get_func(6);
Func constant_exterior = pipeline.get_func(4);
Func repeat_edge = pipeline.get_func(3);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _2i("_2i");
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var co(output.get_schedule().dims()[0].var);
Var coi("coi");
Var coii("coii");
Var n(output.get_schedule().dims()[3].var);
Var x(output.get_schedule().dims()[1].var);
Var xi("xi");
Var xii("xii");
Var y(output.get_schedule().dims()[2].var);
Var yi("yi");
Var yii("yii");
RVar r_x(conv.update(0).get_schedule().dims()[0].var);
RVar r_y(conv.update(0).get_schedule().dims()[1].var);
RVar r_z(conv.update(0).get_schedule().dims()[2].var);
output
    .split(x, x, xi, 28, TailStrategy::ShiftInwards)
    .split(y, y, yi, 14, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 2, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 4, TailStrategy::ShiftInwards)
    .split(co, co, coi, 32, TailStrategy::ShiftInwards)
    .split(coi, coi, coii, 16, TailStrategy::ShiftInwards)
    .vectorize(coii)
    .compute_root()
    .reorder({coii, coi, xii, yii, co, xi, yi, x, y, n})
    .fuse(x, y, x)
    .parallel(x);
conv
    .store_in(MemoryType::Stack)
    .split(co, co, coi, 16, TailStrategy::RoundUp)
    .vectorize(coi)
    .compute_at(output, co)
    .reorder({coi, co, x, y, n});
conv.update(0)
    .split(co, co, coi, 16, TailStrategy::GuardWithIf)
    .vectorize(coi)
    .reorder({coi, r_y, r_z, co, x, y, r_x, n});
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_2, _2, _2i, 16, TailStrategy::RoundUp)
    .vectorize(_2i)
    .compute_at(conv, r_x)
    .reorder({_2i, _2, _0, _1, _3})
    .reorder_storage(_2, _0, _1, _3);
repeat_edge
    .store_in(MemoryType::Stack)
    .split(_2, _2, _2i, 16, TailStrategy::GuardWithIf)
    .vectorize(_2i)
    .compute_at(output, xi)
    .store_at(output, yi)
    .reorder({_2i, _2, _0, _1, _3})
    .reorder_storage(_2, _0, _1, _3);
