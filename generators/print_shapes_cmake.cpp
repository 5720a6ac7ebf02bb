// Prints the operator suite's shapes (shapes.h) as CMake variables, so CMake
// builds the generators at the same shapes the C++ code uses, from one table:
//   ANSOR_OPS                       every operator name
//   ANSOR_SMALL_SHAPE_<op>          its small test shape, as NAME=value params
//   ANSOR_SHAPE_<op>_<i>            Ansor's i-th shape (batch 1)
//   ANSOR_SHAPE_COUNT_<op>          how many of those there are
// Run at configure time by generators/CMakeLists.txt (try_run).
#include "shapes.h"

#include <cstdio>

namespace {
void print_params(const ansor_ops::Shape &shape) {
    for (const auto &arg : ansor_ops::generator_param_args(shape)) std::printf(" %s", arg.c_str());
}
}  // namespace

int main() {
    std::printf("set(ANSOR_OPS");
    for (const auto &op : ansor_ops::operator_suite()) std::printf(" %s", op.name.c_str());
    std::printf(")\n");
    for (const auto &op : ansor_ops::operator_suite()) {
        std::printf("set(ANSOR_SMALL_SHAPE_%s", op.name.c_str());
        print_params(op.small_shape);
        std::printf(")\n");
        for (size_t i = 0; i < op.ansor_shapes.size(); i++) {
            std::printf("set(ANSOR_SHAPE_%s_%zu", op.name.c_str(), i);
            print_params(op.ansor_shapes[i]);
            std::printf(")\n");
        }
        std::printf("set(ANSOR_SHAPE_COUNT_%s %zu)\n", op.name.c_str(), op.ansor_shapes.size());
    }
    return 0;
}
