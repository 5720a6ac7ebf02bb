Func output_1 = pipeline.get_func(11);
Func pointwise = pipeline.get_func(10);
Func dw_relu = pipeline.get_func(7);
Func depthwise = pipeline.get_func(6);
Func constant_exterior = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var _0(constant_exterior.get_schedule().dims()[0].var);
Var _0i("_0i");
Var _1(constant_exterior.get_schedule().dims()[1].var);
Var _2(constant_exterior.get_schedule().dims()[2].var);
Var _3(constant_exterior.get_schedule().dims()[3].var);
Var ci(dw_relu.get_schedule().dims()[0].var);
Var cii("cii");
Var co(output_1.get_schedule().dims()[0].var);
Var coi("coi");
Var coii("coii");
Var n(output_1.get_schedule().dims()[3].var);
Var x(output_1.get_schedule().dims()[1].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(output_1.get_schedule().dims()[2].var);
Var yi("yi");
Var yii("yii");
RVar k_x(depthwise.update(0).get_schedule().dims()[0].var);
RVar k_y(depthwise.update(0).get_schedule().dims()[1].var);
RVar r_x(pointwise.update(0).get_schedule().dims()[0].var);
output_1
    .split(x, x, xi, 28, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 14, TailStrategy::ShiftInwards)
    .split(y, y, yi, 6, TailStrategy::ShiftInwards)
    .split(xii, xii, xiii, 2, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 3, TailStrategy::ShiftInwards)
    .split(co, co, coi, 32, TailStrategy::ShiftInwards)
    .split(coi, coi, coii, 16, TailStrategy::ShiftInwards)
    .unroll(coi)
    .unroll(xiii)
    .unroll(yii)
    .vectorize(coii)
    .compute_root()
    .reorder({coii, coi, xiii, yii, co, xii, yi, xi, y, x, n})
    .fuse(x, n, x)
    .parallel(x);
pointwise
    .store_in(MemoryType::Stack)
    .split(co, co, coi, 16, TailStrategy::ShiftInwards)
    .unroll(co)
    .unroll(x)
    .unroll(y)
    .vectorize(coi)
    .compute_at(output_1, co)
    .reorder({coi, co, x, y, n});
pointwise.update(0)
    .split(co, co, coi, 16, TailStrategy::GuardWithIf)
    .unroll(co)
    .unroll(y)
    .vectorize(coi)
    .reorder({coi, co, y, r_x, x, n});
dw_relu
    .store_in(MemoryType::Stack)
    .split(ci, ci, cii, 16, TailStrategy::RoundUp)
    .unroll(ci)
    .unroll(y)
    .vectorize(cii)
    .compute_at(pointwise, x)
    .reorder({cii, ci, x, y, n});
depthwise
    .store_in(MemoryType::Stack)
    .split(ci, ci, cii, 16, TailStrategy::ShiftInwards)
    .unroll(ci)
    .unroll(x)
    .unroll(y)
    .vectorize(cii)
    .compute_at(output_1, xii)
    .reorder({cii, ci, x, y, n});
depthwise.update(0)
    .split(ci, ci, cii, 16, TailStrategy::GuardWithIf)
    .unroll(ci)
    .unroll(x)
    .unroll(y)
    .vectorize(cii)
    .reorder({cii, ci, x, y, n, k_x, k_y});
constant_exterior
    .store_in(MemoryType::Stack)
    .split(_0, _0, _0i, 16, TailStrategy::ShiftInwards)
    .vectorize(_0i)
    .compute_at(output_1, xii)
    .store_at(output_1, xi)
    .reorder({_0i, _0, _1, _2, _3});
