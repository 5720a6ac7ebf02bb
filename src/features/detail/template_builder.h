#pragma once
// Building the DefinitionTemplate of a statement from the Halide
// definitions of the DAG: arithmetic per iteration and the buffer accesses
// as affine forms of the definition's variables.
#include "features/detail/definition_template.h"
#include "state/loop_nest.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {
namespace features {
namespace detail {

// The images read by a pipeline: its input parameters, then any Buffer
// baked into it, added as definitions reading them are analysed.
class ImageTable {
public:
    explicit ImageTable(const PipelineDAG &dag);
    // The index of the image `c` reads, added if new.
    int index_of(const Halide::Internal::Call *c);
    int size() const { return (int)images_.size(); }
    const std::vector<int64_t> &extents(int i) const { return images_[i].extents; }

private:
    struct Image {
        std::string name;
        std::vector<int64_t> extents;
    };
    std::vector<Image> images_;
};

struct BuildContext {
    const PipelineDAG &dag;
    ImageTable &images;
    const std::vector<bool> &inlined;  // per DAG node: inlined in the program
};

// A stage's own definition, writing a buffer of kind `self` (for the
// intermediate of an rfactor: the factored update, with the Func's
// self-calls moved to the intermediate and the `extra` variables as
// further pure dimensions).
std::unique_ptr<DefinitionTemplate> build_definition(const BuildContext &ctx, int node, int stage, BufKind self,
                                                     const std::vector<std::string> &extra);
// The update of a factored Func: it now folds the intermediate into itself.
std::unique_ptr<DefinitionTemplate> build_merge(const PipelineDAG &dag, int node, const std::vector<StageLoop> &base);
// The pure definition of an rfactor intermediate: the reduction's identity.
std::unique_ptr<DefinitionTemplate> build_intm_init(const PipelineDAG &dag, int node, const ModelFunc &f);

}  // namespace detail
}  // namespace features
}  // namespace ansor
