#pragma once
// FamilySeer's families: tasks grouped by their core operation
// (the generator), or by a hash of their operation sequence (the pipeline's
// structure with every shape number blanked out, so that the same layer at
// other sizes joins the family while a variant with another epilogue,
// padding or activation does not). A task file's "family" field wins.
#include "network/task_file.h"

#include "records/pipeline_key.h"

#include <string>

namespace ansor {

enum class FamilyRule { Generator, Structure };

// Throws std::invalid_argument for another name than generator|structure.
FamilyRule parse_family_rule(const std::string &name);

// The family key of a task: spec.family if set, else by `rule`.
std::string family_key(const TaskSpec &spec, const PipelineKey &key, FamilyRule rule);

// The pipeline's canonical description without estimates and with every
// integer replaced by '#': equal for the same operation sequence at any size.
std::string operation_sequence(const PipelineKey &key);

}  // namespace ansor
