Func output = pipeline.get_func(86);
Func out_g_pyr_0 = pipeline.get_func(85);
Func up_out_0 = pipeline.get_func(84);
Func up_out_0_ux = pipeline.get_func(83);
Func out_g_pyr_1 = pipeline.get_func(82);
Func up_out_1 = pipeline.get_func(81);
Func up_out_1_ux = pipeline.get_func(80);
Func out_g_pyr_2 = pipeline.get_func(79);
Func up_out_2 = pipeline.get_func(78);
Func up_out_2_ux = pipeline.get_func(77);
Func out_g_pyr_3 = pipeline.get_func(76);
Func up_out_3 = pipeline.get_func(75);
Func up_out_3_ux = pipeline.get_func(74);
Func out_g_pyr_4 = pipeline.get_func(73);
Func up_out_4 = pipeline.get_func(72);
Func up_out_4_ux = pipeline.get_func(71);
Func out_g_pyr_5 = pipeline.get_func(70);
Func up_out_5 = pipeline.get_func(69);
Func up_out_5_ux = pipeline.get_func(68);
Func out_g_pyr_6 = pipeline.get_func(67);
Func up_out_6 = pipeline.get_func(66);
Func up_out_6_ux = pipeline.get_func(65);
Func out_l_pyr_7 = pipeline.get_func(64);
Func l_pyr_7 = pipeline.get_func(63);
Func in_pyr_7 = pipeline.get_func(62);
Func in_pyr_7_dx = pipeline.get_func(61);
Func out_l_pyr_6 = pipeline.get_func(60);
Func l_pyr_6 = pipeline.get_func(59);
Func up_g_6 = pipeline.get_func(58);
Func up_g_6_ux = pipeline.get_func(57);
Func g_pyr_7 = pipeline.get_func(56);
Func g_pyr_7_dx = pipeline.get_func(55);
Func in_pyr_6 = pipeline.get_func(54);
Func in_pyr_6_dx = pipeline.get_func(53);
Func out_l_pyr_5 = pipeline.get_func(52);
Func l_pyr_5 = pipeline.get_func(51);
Func up_g_5 = pipeline.get_func(50);
Func up_g_5_ux = pipeline.get_func(49);
Func g_pyr_6 = pipeline.get_func(48);
Func g_pyr_6_dx = pipeline.get_func(47);
Func in_pyr_5 = pipeline.get_func(46);
Func in_pyr_5_dx = pipeline.get_func(45);
Func out_l_pyr_4 = pipeline.get_func(44);
Func l_pyr_4 = pipeline.get_func(43);
Func up_g_4 = pipeline.get_func(42);
Func up_g_4_ux = pipeline.get_func(41);
Func g_pyr_5 = pipeline.get_func(40);
Func g_pyr_5_dx = pipeline.get_func(39);
Func in_pyr_4 = pipeline.get_func(38);
Func in_pyr_4_dx = pipeline.get_func(37);
Func out_l_pyr_3 = pipeline.get_func(36);
Func l_pyr_3 = pipeline.get_func(35);
Func up_g_3 = pipeline.get_func(34);
Func up_g_3_ux = pipeline.get_func(33);
Func g_pyr_4 = pipeline.get_func(32);
Func g_pyr_4_dx = pipeline.get_func(31);
Func in_pyr_3 = pipeline.get_func(30);
Func in_pyr_3_dx = pipeline.get_func(29);
Func out_l_pyr_2 = pipeline.get_func(28);
Func l_pyr_2 = pipeline.get_func(27);
Func up_g_2 = pipeline.get_func(26);
Func up_g_2_ux = pipeline.get_func(25);
Func g_pyr_3 = pipeline.get_func(24);
Func g_pyr_3_dx = pipeline.get_func(23);
Func in_pyr_2 = pipeline.get_func(22);
Func in_pyr_2_dx = pipeline.get_func(21);
Func out_l_pyr_1 = pipeline.get_func(20);
Func l_pyr_1 = pipeline.get_func(19);
Func up_g_1 = pipeline.get_func(18);
Func up_g_1_ux = pipeline.get_func(17);
Func g_pyr_2 = pipeline.get_func(16);
Func g_pyr_2_dx = pipeline.get_func(15);
Func in_pyr_1 = pipeline.get_func(14);
Func in_pyr_1_dx = pipeline.get_func(13);
Func out_l_pyr_0 = pipeline.get_func(12);
Func l_pyr_0 = pipeline.get_func(11);
Func up_g_0 = pipeline.get_func(10);
Func up_g_0_ux = pipeline.get_func(9);
Func g_pyr_1 = pipeline.get_func(8);
Func g_pyr_1_dx = pipeline.get_func(7);
Func processed = pipeline.get_func(6);
Func remap = pipeline.get_func(5);
Func gray = pipeline.get_func(4);
Func color = pipeline.get_func(3);
Func repeat_edge = pipeline.get_func(2);
Func lambda_0 = pipeline.get_func(1);
Var c(output.get_schedule().dims()[2].var);
Var i(remap.get_schedule().dims()[0].var);
Var ii("ii");
Var iii("iii");
Var k(g_pyr_6.get_schedule().dims()[2].var);
Var ki("ki");
Var x(output.get_schedule().dims()[0].var);
Var xi("xi");
Var xii("xii");
Var xiii("xiii");
Var y(output.get_schedule().dims()[1].var);
Var yi("yi");
Var yii("yii");
Var yiii("yiii");
output
    .split(y, y, yi, 384, TailStrategy::ShiftInwards)
    .split(yi, yi, yii, 32, TailStrategy::ShiftInwards)
    .split(yii, yii, yiii, 16, TailStrategy::ShiftInwards)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yiii, c, yii, yi, y})
    .parallel(y);
out_g_pyr_0
    .split(x, x, xi, 256, TailStrategy::RoundUp)
    .split(xi, xi, xii, 128, TailStrategy::RoundUp)
    .split(xii, xii, xiii, 16, TailStrategy::RoundUp)
    .unroll(xii)
    .vectorize(xiii)
    .compute_at(output, yii)
    .reorder({xiii, xii, y, xi, x});
up_out_0
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(out_g_pyr_0, y)
    .reorder({xi, x, y});
up_out_0_ux
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 2, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(x)
    .vectorize(xi)
    .compute_at(out_g_pyr_0, xi)
    .store_at(out_g_pyr_0, x)
    .reorder({xi, x, yi, y});
out_g_pyr_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(up_out_0_ux, yi)
    .reorder({xi, x, y});
up_out_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(up_out_0_ux, y)
    .reorder({xi, x, y});
up_out_1_ux
    .split(y, y, yi, 25, TailStrategy::RoundUp)
    .split(x, x, xi, 176, TailStrategy::RoundUp)
    .split(xi, xi, xii, 64, TailStrategy::RoundUp)
    .split(yi, yi, yii, 4, TailStrategy::RoundUp)
    .split(xii, xii, xiii, 16, TailStrategy::RoundUp)
    .vectorize(xiii)
    .compute_root()
    .reorder({xiii, xii, yii, yi, xi, x, y})
    .parallel(y);
out_g_pyr_2
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(up_out_1_ux, yi)
    .reorder({xi, y, x});
up_out_2
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(out_g_pyr_2, x)
    .reorder({xi, x, y});
up_out_2_ux
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(up_out_1_ux, yi)
    .store_at(up_out_1_ux, xi)
    .reorder({xi, x, y});
out_g_pyr_3
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(up_out_1_ux, yi)
    .store_at(up_out_1_ux, xi)
    .reorder({xi, x, y});
up_out_3_ux
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(up_out_1_ux, yi)
    .store_at(up_out_1_ux, xi)
    .reorder({xi, x, y});
out_g_pyr_4
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 5, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(xi)
    .compute_at(up_out_1_ux, x)
    .reorder({xi, yi, x, y});
up_out_4_ux
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(out_g_pyr_4, x)
    .store_at(out_g_pyr_4, y)
    .reorder({xi, x, y});
out_g_pyr_5
    .split(y, y, yi, 14, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yi, x, y})
    .parallel(y);
up_out_5_ux
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(out_g_pyr_5, yi)
    .store_at(out_g_pyr_5, x)
    .reorder({xi, x, y});
out_g_pyr_6
    .split(x, x, xi, 6, TailStrategy::RoundUp)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_root()
    .reorder({yi, y, xi, x})
    .parallel(x)
    .reorder_storage(y, x);
up_out_6
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_at(out_g_pyr_6, y)
    .store_at(out_g_pyr_6, x)
    .reorder({yi, y, x})
    .reorder_storage(y, x);
out_l_pyr_7
    .split(y, y, yi, 5, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, y})
    .parallel(y);
in_pyr_6
    .split(x, x, xi, 15, TailStrategy::RoundUp)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_root()
    .reorder({yi, y, xi, x})
    .parallel(x)
    .reorder_storage(y, x);
out_l_pyr_5
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(out_g_pyr_5, yi)
    .reorder({xi, x, y});
g_pyr_6
    .split(k, k, ki, 4, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, y, ki, k})
    .parallel(k);
g_pyr_6_dx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(g_pyr_6, x)
    .reorder({xi, x, y, k});
in_pyr_5
    .split(x, x, xi, 31, TailStrategy::RoundUp)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_root()
    .reorder({yi, y, xi, x})
    .parallel(x)
    .reorder_storage(y, x);
in_pyr_5_dx
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(yi)
    .compute_at(in_pyr_5, y)
    .reorder({yi, y, x})
    .reorder_storage(y, x);
out_l_pyr_4
    .split(y, y, yi, 26, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, y})
    .parallel(y);
g_pyr_5
    .split(k, k, ki, 4, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(y, y, yi, 4, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yi, x, y, ki, k})
    .parallel(k);
g_pyr_5_dx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(xi)
    .compute_at(g_pyr_5, x)
    .reorder({xi, x, y, k});
out_l_pyr_3
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .vectorize(yi)
    .compute_at(up_out_1_ux, x)
    .store_at(up_out_1_ux, y)
    .reorder({yi, y, x})
    .reorder_storage(y, x);
g_pyr_4_dx
    .split(k, k, ki, 4, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, y, ki, k})
    .parallel(k);
in_pyr_3
    .split(x, x, xi, 127, TailStrategy::RoundUp)
    .split(y, y, yi, 64, TailStrategy::RoundUp)
    .split(yi, yi, yii, 16, TailStrategy::RoundUp)
    .unroll(yi)
    .vectorize(yii)
    .compute_root()
    .reorder({yii, yi, y, xi, x})
    .parallel(x)
    .reorder_storage(y, x);
in_pyr_3_dx
    .store_in(MemoryType::Stack)
    .split(y, y, yi, 16, TailStrategy::RoundUp)
    .unroll(y)
    .vectorize(yi)
    .compute_at(in_pyr_3, y)
    .reorder({yi, y, x})
    .reorder_storage(y, x);
out_l_pyr_1
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(output, yii)
    .store_at(output, yi)
    .reorder({xi, x, y});
g_pyr_2
    .split(k, k, ki, 4, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(y, y, yi, 64, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yi, x, y, ki, k})
    .parallel(k);
g_pyr_2_dx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(g_pyr_2, x)
    .reorder({xi, x, y, k});
in_pyr_1
    .split(y, y, yi, 383, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .split(yi, yi, yii, 32, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, yii, x, yi, y})
    .parallel(y);
in_pyr_1_dx
    .store_in(MemoryType::Stack)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_at(in_pyr_1, x)
    .reorder({xi, x, y});
processed
    .split(y, y, yi, 767, TailStrategy::RoundUp)
    .split(x, x, xi, 16, TailStrategy::RoundUp)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, k, y})
    .parallel(y);
remap
    .split(i, i, ii, 1040, TailStrategy::RoundUp)
    .split(ii, ii, iii, 16, TailStrategy::RoundUp)
    .vectorize(iii)
    .compute_root()
    .reorder({iii, ii, i})
    .parallel(i);
gray
    .split(y, y, yi, 767, TailStrategy::ShiftInwards)
    .split(x, x, xi, 16, TailStrategy::ShiftInwards)
    .vectorize(xi)
    .compute_root()
    .reorder({xi, x, yi, y})
    .parallel(y);
