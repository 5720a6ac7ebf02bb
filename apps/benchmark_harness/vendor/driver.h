#pragma once
// The shared main() of the vendor-library executables (ansor_onednn_bench,
// ansor_openblas_bench, ansor_eigen_bench). Each library supplies how to
// set its thread count and how to prepare one problem; the driver reads the
// shape and data, runs the library once, checks its output, and then either
// prints its median time (standalone) or serves the harness's timing
// requests (--serve, worker_protocol.h).
//
//   ansor_<lib>_bench (--gemm B,M,N,K | --conv N,H,W,CI,CO,k,s,p [--bias] [--relu])
//       [--inputs a.f32,b.f32[,bias.f32] [--expected out.f32]] [--threads 2]
//       [--samples 10] [--tolerance 1e-3] [--serve]
//
// Data files are raw little-endian float32 in the layouts of problem.h.
// Without --inputs the inputs are random and the reference is computed here
// naively; with --inputs but no --expected, likewise the reference.
#include "problem.h"

#include <functional>
#include <string>
#include <vector>

namespace ansor_vendor {

struct Library {
    std::string name;
    std::function<void(int threads)> set_threads;
    std::function<std::string()> info;  // version, kernel family: printed for the record
    // Untimed set-up (weight reorders, primitive creation); the returned
    // function computes `out` from `inputs` and is what gets timed. Throws
    // for a problem the library cannot do.
    std::function<std::function<void()>(const Problem &, const std::vector<std::vector<float>> &inputs,
                                        std::vector<float> &out)>
        prepare;
};

int vendor_main(int argc, char **argv, const Library &lib);

}  // namespace ansor_vendor
