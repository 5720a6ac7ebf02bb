// Ansor: zero-shot: of the cost model's best programs of its 8 best sketches, the one the judge model /work/main/build/autoscheduler/ansor_judge_model.gz scores best (the cost model's 7th), nothing measured (model /work/main/build/autoscheduler/ansor_cost_model.gz)
Func sum_sq = pipeline.get_func(1);
Func input_im = pipeline.get_func(0);
RVar r_y("r$y");
RVar r_y_0("r$y_0");
RVar r_y_1("r$y_1");
Var r_y_0_v("r$y_0_v");
Var b("b");
Var b_r_y_0_v_f("b_r$y_0_v_f");
RVar r_x("r$x");
sum_sq.compute_root();
sum_sq.update(0).split(r_y, r_y_0, r_y_1, 64, TailStrategy::Auto);
Func sum_sq_intm = sum_sq.update(0).rfactor({{r_y_0, r_y_0_v}});
sum_sq_intm.compute_root();
sum_sq_intm.parallel(r_y_0_v);
sum_sq_intm.update(0).fuse(r_y_0_v, b, b_r_y_0_v_f);
sum_sq_intm.update(0).parallel(b_r_y_0_v_f);
input_im.compute_inline();
sum_sq_intm.update(0).unroll(r_x);
