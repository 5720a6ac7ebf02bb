Func output = pipeline.get_func(7);
Func pixel_gain = pipeline.get_func(6);
Func gain = pipeline.get_func(5);
Func lut = pipeline.get_func(4);
Func cdf = pipeline.get_func(3);
Func hist = pipeline.get_func(2);
Func luma = pipeline.get_func(1);
Var c(output.get_schedule().dims()[2].var);
Var i(gain.get_schedule().dims()[0].var);
Var ii("ii");
Var iii("iii");
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
RVar bins_x(cdf.update(0).get_schedule().dims()[0].var);
RVar pixels_x(hist.update(0).get_schedule().dims()[0].var);
RVar pixels_y(hist.update(0).get_schedule().dims()[1].var);
output
    .split(y, y, yi, 96, TailStrategy::ShiftInwards)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yi, c, x, y})
    .parallel(y);
pixel_gain
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, x)
    .reorder({xi, x, y});
gain
    .split(i, i, ii, 128, TailStrategy::RoundUp)
    .split(ii, ii, iii, 32, TailStrategy::RoundUp)
    .unroll(ii)
    .vectorize(iii)
    .compute_root()
    .reorder({iii, ii, i})
    .parallel(i);
lut
    .store_in(MemoryType::Stack)
    .split(i, i, ii, 32, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_at(gain, ii)
    .reorder({ii, i});
cdf
    .split(i, i, ii, 8, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
cdf.update(0)
    .reorder({bins_x});
hist
    .split(i, i, ii, 8, TailStrategy::RoundUp)
    .vectorize(ii)
    .compute_root()
    .reorder({ii, i})
    .parallel(i);
hist.update(0)
    .reorder({pixels_x, pixels_y});
luma
    .split(y, y, yi, 96, TailStrategy::ShiftInwards)
    .split(x, x, xi, 32, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, y})
    .parallel(y);
