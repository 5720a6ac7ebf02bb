// Symbolic shapes, shape inference and the concrete operators.
#include "ops.h"
#include "pattern_graph.h"
#include "tensor_eval.h"

#include <doctest/doctest.h>

using namespace taso;

namespace {
TensorType matrix(DimExpr r, DimExpr c) {
    TensorType t;
    t.rank = 2;
    t.dims[0] = r;
    t.dims[1] = c;
    return t;
}
}  // namespace

TEST_CASE("shapes: dimension arithmetic and parsing") {
    SymbolTable s;
    DimExpr n = parse_dim("n", s), k = parse_dim("k", s);
    auto sum = add_dims(n, k);
    REQUIRE(sum);
    CHECK(sum->str(s) == "n+k");
    CHECK(*add_dims(k, n) == *sum);  // order of terms does not matter
    CHECK(*subtract_dims(*sum, n) == k);
    CHECK_FALSE(subtract_dims(n, k));
    CHECK(parse_dim("n+n+2", s).evaluate({5, 1}) == 12);
    CHECK_THROWS_WITH_AS(parse_dim("n-1", s), doctest::Contains("n-1"), std::runtime_error);
    DimExpr strided = conv_dim(n, 3, 2, true);
    CHECK(strided.evaluate({7, 0}) == 4);
    CHECK(conv_dim(n, 3, 1, false).evaluate({7, 0}) == 5);
    CHECK(conv_dim(n, 1, 1, false) == n);  // a 1x1 stride-1 convolution keeps the size
    CHECK_FALSE(add_dims(strided, n));
}

TEST_CASE("shapes: inference accepts well-shaped operators and explains the rest") {
    SymbolTable s;
    DimExpr m = DimExpr::symbol(s.intern("m")), k = DimExpr::symbol(s.intern("k")), n = DimExpr::symbol(s.intern("n"));
    TensorType A = matrix(m, k), B = matrix(k, n);
    std::string why;
    auto p = infer_result(OpKind::Matmul, {}, {&A, &B}, 0, &why);
    REQUIRE(p);
    CHECK(p->dims[0] == m);
    CHECK(p->dims[1] == n);
    CHECK_FALSE(infer_result(OpKind::Matmul, {}, {&B, &A}, 0, &why));
    CHECK(why == "matmul inner dimensions differ");
    CHECK_FALSE(infer_result(OpKind::EwAdd, {}, {&A, &B}, 0, &why));

    OpAttrs ax1;
    ax1.axis = 1;
    CHECK_FALSE(infer_result(OpKind::Split, ax1, {&B}, 0, &why));  // no concat to undo
    auto cat = infer_result(OpKind::Concat, ax1, {&A, &A}, 0);
    REQUIRE(cat);
    CHECK(cat->dims[1] == *add_dims(k, k));
    auto left = infer_result(OpKind::Split, ax1, {&*cat}, 0), right = infer_result(OpKind::Split, ax1, {&*cat}, 1);
    REQUIRE(left);
    REQUIRE(right);
    CHECK(left->dims[1] == k);
    CHECK(right->dims[1] == k);
    // The concat history survives a matmul on the column axis.
    TensorType BB = *infer_result(OpKind::Concat, ax1, {&B, &B}, 0);
    auto prod = infer_result(OpKind::Matmul, {}, {&A, &BB}, 0, &why);
    REQUIRE(prod);
    REQUIRE(bool(prod->splits[1]));
    CHECK(prod->splits[1]->left == n);
    CHECK_FALSE(bool(prod->splits[0]));
}

TEST_CASE("eval: identity kernel, enlarge, concat and split") {
    std::mt19937_64 rng(1);
    Tensor<double> x = random_tensor<double>({2, 3, 5, 4}, rng);
    Tensor<double> id = identity_kernel<double>(3);
    OpAttrs same;
    auto y = eval_op<double>(OpKind::Conv2d, same, {&x, &id}, 0);
    CHECK(y.shape == x.shape);
    CHECK(y.data == x.data);

    // conv with a 1x1 kernel equals conv with it enlarged to 3x3 (same
    // padding), at stride 1 and 2.
    Tensor<double> w = random_tensor<double>({3, 3, 1, 1}, rng);
    OpAttrs enl;
    enl.kernel = 3;
    auto w3 = eval_op<double>(OpKind::Enlarge, enl, {&w}, 0);
    CHECK(w3.shape == std::vector<int64_t>{3, 3, 3, 3});
    for (int stride : {1, 2}) {
        OpAttrs c;
        c.stride = stride;
        auto a = eval_op<double>(OpKind::Conv2d, c, {&x, &w}, 0), b = eval_op<double>(OpKind::Conv2d, c, {&x, &w3}, 0);
        CHECK(a.shape == b.shape);
        for (size_t i = 0; i < a.data.size(); i++) CHECK(a.data[i] == doctest::Approx(b.data[i]));
    }

    Tensor<int64_t> p{{2, 2}, {1, 2, 3, 4}}, q{{2, 1}, {5, 6}};
    OpAttrs ax1;
    ax1.axis = 1;
    auto cat = eval_op<int64_t>(OpKind::Concat, ax1, {&p, &q}, 0);
    CHECK(cat.data == std::vector<int64_t>{1, 2, 5, 3, 4, 6});
    CHECK(eval_op<int64_t>(OpKind::Split, ax1, {&cat}, 0, 2).data == p.data);
    CHECK(eval_op<int64_t>(OpKind::Split, ax1, {&cat}, 1, 2).data == q.data);
    CHECK_THROWS_AS(eval_op<int64_t>(OpKind::Matmul, {}, {&q, &q}, 0), std::runtime_error);
}
