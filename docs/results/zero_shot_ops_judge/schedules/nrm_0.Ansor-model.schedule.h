// Ansor: zero-shot: the program the cost model ranks best, nothing measured (model models/ansor_cost_model.gz)
Func sum_sq = pipeline.get_func(1);
Func input_im = pipeline.get_func(0);
RVar r_x("r$x");
sum_sq.compute_root();
input_im.compute_inline();
sum_sq.update(0).unroll(r_x);
