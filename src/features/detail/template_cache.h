#pragma once
// The DefinitionTemplates of a pipeline's statements, built on first use and
// kept for the extractor's lifetime.
#include "features/detail/program_index.h"
#include "features/detail/template_builder.h"

#include <memory>
#include <string>
#include <vector>

namespace ansor {
namespace features {
namespace detail {

class TemplateCache {
public:
    explicit TemplateCache(const PipelineDAG &dag);

    // The template of stage s of model Func fi of the program `index`
    // describes.
    const DefinitionTemplate *lookup(const LoopNest &m, int fi, int s, const ProgramIndex &index);
    const ImageTable &images() const { return images_; }

private:
    // Which definition a statement runs.
    enum class Role : uint8_t { Regular, Merge, IntmInit, IntmUpdate };

    // Where a statement's template takes its variable names from; a cached
    // template is reused only if they are the same.
    struct NameSource {
        Role role;
        const std::vector<StageLoop> *loops = nullptr;  // Merge, IntmInit
        int extra_from = 0;                             // IntmUpdate: names are pure_args from here on
    };

    struct Variant {
        Role role;
        int stage;
        std::vector<bool> reaching;  // the inlined Funcs that reach this node (PipelineDAG::inlined_into)
        std::vector<std::string> names;
        std::unique_ptr<DefinitionTemplate> t;
    };

    NameSource name_source(const ModelFunc &f, int s, int node, const ProgramIndex &index) const;
    static bool same_names(const ModelFunc &f, const NameSource &src, const std::vector<std::string> &names);
    std::unique_ptr<DefinitionTemplate> build(const ModelFunc &f, int s, int node, const NameSource &src,
                                              const std::vector<std::string> &names, const ProgramIndex &index);

    const PipelineDAG &dag_;
    ImageTable images_;
    std::vector<std::vector<Variant>> variants_;  // per DAG node
};

}  // namespace detail
}  // namespace features
}  // namespace ansor
