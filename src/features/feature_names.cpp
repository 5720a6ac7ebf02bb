// The column names of the feature vector, in column order.
#include "features/program_features.h"

#include <cstdio>

namespace ansor {

using namespace features;

const std::vector<std::string> &feature_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const char *ty : {"float", "int"}) {
            for (const char *op : {"mad", "addsub", "mul", "divmod", "cmp", "math_func", "other_func"}) {
                v.push_back(std::string(ty) + "_" + op);
            }
        }
        v.push_back("bool_op");
        v.push_back("select_op");
        for (const char *a : {"vec", "unroll", "parallel"}) {
            for (const char *c : {"num", "prod", "len", "pos_inner_spatial", "pos_middle_spatial", "pos_outer_spatial",
                                  "pos_inner_reduce", "pos_middle_reduce", "pos_outer_reduce", "pos_mixed", "pos_none"}) {
                v.push_back(std::string(a) + "_" + c);
            }
        }
        for (const char *g : {"is_gpu", "blockIdx_x_len", "blockIdx_y_len", "blockIdx_z_len", "threadIdx_x_len",
                              "threadIdx_y_len", "threadIdx_z_len", "vthread_len"}) {
            v.push_back(g);
        }
        for (int b = 0; b < kMaxBuffers; b++) {
            for (const char *c : {"acc_type_read", "acc_type_write", "acc_type_read_write", "bytes", "unique_bytes",
                                  "lines", "unique_lines", "reuse_type_loop_multiple_read",
                                  "reuse_type_serial_multiple_read", "reuse_type_no_reuse", "reuse_dis_iter",
                                  "reuse_dis_bytes", "reuse_ct", "bytes_d_reuse_ct", "unique_bytes_d_reuse_ct",
                                  "lines_d_reuse_ct", "unique_lines_d_reuse_ct", "stride"}) {
                v.push_back("B" + std::to_string(b) + "_" + c);
            }
        }
        for (const char *c : {"alloc_size", "alloc_prod", "alloc_outer_prod", "alloc_inner_prod"}) v.push_back(c);
        for (const char *c : {"outer_prod", "num_loops", "auto_unroll_max_step"}) v.push_back(c);
        for (int i = 0; i < kCurvePoints; i++) v.push_back("arith_intensity_curve_" + std::to_string(i));
        return v;
    }();
    return names;
}

int feature_index(const std::string &name) {
    const auto &names = feature_names();
    for (size_t i = 0; i < names.size(); i++) {
        if (names[i] == name) return (int)i;
    }
    return -1;
}

namespace {
// Raise when a column keeps its name but is computed differently.
constexpr int kFeatureRevision = 2;
}  // namespace

std::string feature_set_version() {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the names, in order
    for (const std::string &name : feature_names()) {
        for (unsigned char c : name + ";") {
            h ^= c;
            h *= 1099511628211ull;
        }
    }
    char text[64];
    std::snprintf(text, sizeof(text), "%d-%zu-%016llx", kFeatureRevision, feature_names().size(), (unsigned long long)h);
    return text;
}

}  // namespace ansor
