#pragma once
// Program features for the learned cost model (Ansor §5.2).
//
// One fixed-length float vector per *statement*: every stage of every Func
// that is not inlined, seen inside its whole loop nest (the loops of the
// Funcs it is computed at, then its own). Everything is computed from the
// LoopNest model and the PipelineDAG: the stage's Halide Definition is
// walked once per (DAG node, stage, set of inlined Funcs) to count
// arithmetic and collect the buffer accesses as affine forms of the
// definition's variables; that analysis is cached in the extractor, and the
// per-state work only combines it with the loop extents, annotations and
// compute locations of the model. Nothing is lowered or compiled.
//
// The columns (164, Ansor's grouping) are listed by feature_names() and
// defined in docs/features.md.
#include "state/loop_nest.h"

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace ansor {

namespace features {
constexpr int kArith = 16;            // arithmetic counts
constexpr int kPerAnnotation = 11;    // num, prod, len, 8 position one-hots
constexpr int kGpu = 8;               // is_gpu + 7 binding lengths
constexpr int kMaxBuffers = 5;        // buffers described, most bytes first
constexpr int kPerBuffer = 18;
constexpr int kAlloc = 4;
constexpr int kOther = 3;
constexpr int kCurvePoints = 10;      // arithmetic intensity curve samples

// First column of each group.
constexpr int kArithBegin = 0;
constexpr int kVecBegin = kArithBegin + kArith;             // 16
constexpr int kUnrollBegin = kVecBegin + kPerAnnotation;    // 27
constexpr int kParallelBegin = kUnrollBegin + kPerAnnotation;  // 38
constexpr int kGpuBegin = kParallelBegin + kPerAnnotation;  // 49
constexpr int kBufferBegin = kGpuBegin + kGpu;              // 57
constexpr int kAllocBegin = kBufferBegin + kMaxBuffers * kPerBuffer;  // 147
constexpr int kOtherBegin = kAllocBegin + kAlloc;           // 151
constexpr int kCurveBegin = kOtherBegin + kOther;           // 154
constexpr int kCount = kCurveBegin + kCurvePoints;          // 164

// Offsets inside an annotation group (vectorize / unroll / parallel).
enum AnnotationColumn {
    kAnnNum = 0,
    kAnnProd,
    kAnnLen,
    kPosInnerSpatial,
    kPosMiddleSpatial,
    kPosOuterSpatial,
    kPosInnerReduce,
    kPosMiddleReduce,
    kPosOuterReduce,
    kPosMixed,
    kPosNone,
};

// Offsets inside a buffer group.
enum BufferColumn {
    kAccRead = 0,
    kAccWrite,
    kAccReadWrite,
    kBytes,
    kUniqueBytes,
    kLines,
    kUniqueLines,
    kReuseLoop,
    kReuseSerial,
    kReuseNone,
    kReuseDisIter,
    kReuseDisBytes,
    kReuseCt,
    kBytesDReuseCt,
    kUniqueBytesDReuseCt,
    kLinesDReuseCt,
    kUniqueLinesDReuseCt,
    kStride,
};

// The magnitude transform applied to counts, sizes and extents.
inline float slog(double x) { return x > 0 ? (float)std::log2(1.0 + x) : 0.f; }
}  // namespace features

struct StageFeatures {
    int func = -1;  // index into LoopNest::funcs()
    int stage = 0;
    std::array<float, features::kCount> values{};
};

// One name per column, in column order.
const std::vector<std::string> &feature_names();
// The feature set's version: a revision number, raised by hand when a
// column's meaning changes, and a hash of the column names. A saved model
// is only valid for the feature set it was trained on.
std::string feature_set_version();
// Column of a name from feature_names(); -1 if there is none.
int feature_index(const std::string &name);

// Extracts features for the states of one pipeline. Keeps the pure
// per-DAG-node analysis and its scratch memory between calls, so reuse one
// extractor for many states. Not thread-safe: use one per thread.
class FeatureExtractor {
public:
    explicit FeatureExtractor(const PipelineDAG &dag, int cache_line_bytes = 64);
    ~FeatureExtractor();
    FeatureExtractor(const FeatureExtractor &) = delete;
    FeatureExtractor &operator=(const FeatureExtractor &) = delete;

    // Features of every stage of every non-inlined Func of `model` (which
    // must come from the extractor's DAG), in the model's Func order.
    // `out` is overwritten; its memory is reused.
    void extract(const LoopNest &model, std::vector<StageFeatures> &out);
    std::vector<StageFeatures> extract(const LoopNest &model);

    const PipelineDAG &dag() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// One-off convenience: builds a fresh extractor (and its analysis) per call.
std::vector<StageFeatures> extract_features(const LoopNest &model);

}  // namespace ansor
