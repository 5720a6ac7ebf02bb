#pragma once
// The state of a pipeline being drawn: the PRNG, the pool of values stages
// may read (each a single-valued Func with a known domain, type and bound on
// its magnitude), the records of the stages drawn so far, and helpers every
// stage family shares. Internal to generators/random/.
#include "random_pipeline.h"
#include "rng.h"

#include <Halide.h>

#include <functional>
#include <string>
#include <vector>

namespace random_pipeline {

// Largest number of points of any value (times size_scale() of the spec:
// Draft::max_points), and of the work (points times reduction extent) of any
// reduction: unscheduled runs stay well under a second.
constexpr int64_t kMaxPoints = 4 << 20;
constexpr int64_t kMaxWork = 20 << 20;
// Float values stay within this magnitude (so never reach inf or NaN), i32 ones within 2^30.
constexpr double kMaxFloatMagnitude = 1e6;
constexpr double kMaxIntMagnitude = 1073741824.0;

struct Value {
    Halide::Func func;          // single-valued, defined over [0, extents[i]) in each dim
    Halide::Type type;          // u8, u16, i32 or f32
    std::vector<int> extents;   // rank 2 (x, y) or 3 (x, y, c)
    double magnitude = 1;       // |value| <= magnitude everywhere on the domain
    int rank() const { return (int)extents.size(); }
    int64_t points() const;
};

// A Func named exactly `name`: Func(std::string) appends $1, $2, ... to a
// name used before anywhere in the process, so that the second build of a
// seed would differ from the first.
inline Halide::Func named_func(const std::string &name) { return Halide::Func(Halide::Internal::Function(name)); }

// The magnitude bound of any value of type t (its range for u8, u16).
double type_bound(Halide::Type t);
bool is_float(Halide::Type t);

class Draft {
public:
    explicit Draft(uint64_t seed) : rng(seed) {}

    Rng rng;
    std::vector<Value> pool;
    std::vector<StageRecord> records;
    int stage = 0;  // index of the stage being drawn (names its Funcs)
    int64_t max_points = kMaxPoints;  // largest number of points of any value
    const Halide::Var x{"x"}, y{"y"}, c{"c"};

    std::vector<Halide::Var> vars(int rank) const;
    std::vector<Halide::Expr> coords(int rank) const;
    // "s07_<what>": names that depend on the draw alone, never on what else
    // the process built (Halide's own helpers number theirs process-wide).
    std::string name(const std::string &what) const;
    Halide::Func func(const std::string &what) const { return named_func(name(what)); }

    // A value for a stage to read, among those `ok` accepts: the newest most
    // often (chains), an older one sometimes (skip connections, several
    // branches). nullptr if none is acceptable.
    const Value *pick(const std::function<bool(const Value &)> &ok = nullptr);
    // A second operand with `first`'s rank, preferring another value.
    const Value *pick_partner(const Value &first);

    void add(const Value &v, StageRecord record);
};

// Boundary conditions over the whole domain of `v`, named by the draft
// (the definitions of Halide::BoundaryConditions::repeat_edge and
// constant_exterior, whose Funcs Halide numbers process-wide).
Halide::Func repeat_edge(const Draft &d, const Value &v);
Halide::Func constant_exterior(const Draft &d, const Value &v, const Halide::Expr &outside);
// One of the two at random (a zero exterior or edges repeated).
Halide::Func bounded(Draft &d, const Value &v);

// Smallest extents of a and b (rank of a; b must have the same rank).
std::vector<int> common_extents(const Value &a, const Value &b);
// v's expression read at `args`, as float, scaled into [-1, 1] when `normalise`.
Halide::Expr as_float(const Value &v, const std::vector<Halide::Expr> &args, bool normalise);
Halide::Region region_of(const std::vector<int> &extents);
// v read at `args` as type t, as real pipelines convert: floats to integers
// scaled from [-1, 1] to the type's range and saturated, narrower integers
// by shifts, wider by scaling or plain casts. *magnitude gets the result's bound.
Halide::Expr convert(const Value &v, const std::vector<Halide::Expr> &args, Halide::Type t, double *magnitude);
// A short name of a type: u8, u16, i32, f32.
std::string type_name(Halide::Type t);
// The type stencils and resampling accumulate in: u32 for u8 and u16 (exact),
// f32 for i32 and f32; and back.
Halide::Type accumulator_type(Halide::Type t);
Halide::Expr from_accumulator(const Halide::Expr &e, Halide::Type t);

// The families of stages; each returns false (having added nothing) when
// the pool holds no value it can read.
bool draw_pointwise(Draft &d);
bool draw_cast(Draft &d);
bool draw_tuple_valued(Draft &d);
bool draw_update(Draft &d);
bool draw_expand(Draft &d);
bool draw_stencil(Draft &d);
bool draw_downsample(Draft &d);
bool draw_upsample(Draft &d);
bool draw_transpose(Draft &d);
bool draw_axis_sum(Draft &d, int dim);  // RowSum (dim 0) or ColumnSum (dim 1)
bool draw_channel_reduce(Draft &d);
bool draw_matmul(Draft &d);
bool draw_argmax(Draft &d);
bool draw_histogram(Draft &d);
bool draw_scan(Draft &d);
bool draw_lookup(Draft &d);

}  // namespace random_pipeline
