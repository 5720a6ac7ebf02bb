Func output = pipeline.get_func(6);
Func tall = pipeline.get_func(5);
Func blur_x = pipeline.get_func(4);
Func wide = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
output
    .split(y, y, yi, 768, TailStrategy::ShiftInwards)
    .split(x, x, xi, 48, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 32, TailStrategy::ShiftInwards)
    .split(xi, xi, xii, 16, TailStrategy::ShiftInwards)
    .vectorize(xii)
    .compute_root()
    .reorder({xii, xi, yii, x, yi, y})
    .parallel(y);
tall
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 4, TailStrategy::ShiftInwards)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .unroll(x)
    .unroll(yi)
    .vectorize(xi)
    .compute_at(output, x)
    .reorder({xi, x, yi, y});
blur_x
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .unroll(x)
    .vectorize(xi)
    .compute_at(tall, y)
    .reorder({xi, x, y});
wide
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .unroll(x)
    .vectorize(xi)
    .compute_at(blur_x, y)
    .reorder({xi, x, y});
