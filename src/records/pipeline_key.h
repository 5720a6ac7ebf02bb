#pragma once
// The key a tuning record is filed under: a hash of a canonical description
// of the pipeline, its algorithm and its shapes, written without any name
// Halide chooses per process (see canonical_names.h). Two constructions of
// the same algorithm with the same estimates get the same key; a changed
// expression, RDom, type or estimate gives another.
//
// The description lists, for every Func in canonical order: its pure
// arguments, output types, estimates, and every definition (arguments,
// values, RDom bounds, predicate, specializations) or extern call, with
// Funcs written f<i>, inputs in<i>, Vars and RVars by canonical name; then
// every input: kind, type, dimensions, constraints and estimates.
#include "records/canonical_names.h"

#include <string>
#include <vector>

namespace ansor {

struct PipelineKey {
    std::string hash;                  // 16 lower-case hex digits (64-bit FNV-1a of text)
    std::string check;                 // 16 hex digits: an independent 64-bit hash of text (check_hash_hex)
    std::string text;                  // the canonical description (for debugging; not logged)
    CanonicalNames names;              // this process's names <-> canonical names
    std::vector<std::string> outputs;  // output Func names without Halide's $n, for people reading a log
    int parallelism = 1;               // the DAG's parallelism: the thread count records default to
};

PipelineKey make_pipeline_key(const PipelineDAG &dag);

// 64-bit FNV-1a as 16 lower-case hex digits.
std::string fnv1a_hex(const std::string &text);

// A second 64-bit hash of a text, computed unlike FNV-1a (a multiply and
// xor-shift per byte, seeded with the length, then the SplitMix64
// finaliser), as 16 hex digits. A record stores it beside the key, so two
// pipelines whose FNV-1a keys collide are told apart.
std::string check_hash_hex(const std::string &text);

// The way this build computes keys: "<revision>-<printer>", where the
// revision is raised when the description changes and <printer> is the
// FNV-1a of Halide's IRPrinter output for a fixed set of expressions. A
// Halide whose printer prints differently gives another key format, so a
// log can say that its keys came from another printer.
const std::string &pipeline_key_format();

// "matmul$2" -> "matmul": the name a user gave, without Halide's uniquifier.
std::string strip_uniquifier(const std::string &name);

}  // namespace ansor
