#include "program_dataset.h"

#include "dag/pipeline_dag.h"
#include "features/program_features.h"
#include "model/pack_sum_xgboost.h"
#include "records/tuning_log.h"
#include "shapes.h"
#include "suite_pipelines.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <iterator>
#include <map>
#include <set>

namespace ansor_apps {

namespace {

struct NamedShape {
    std::string name;
    const ansor_ops::Shape *shape;
};

// Every shape of `op` the data set may hold: Ansor's shapes and the small one.
std::vector<NamedShape> shapes_of(const ansor_ops::OpShapes &op) {
    std::vector<NamedShape> out;
    for (size_t i = 0; i < op.ansor_shapes.size(); i++) out.push_back({op.name + ":" + std::to_string(i), &op.ansor_shapes[i]});
    out.push_back({op.name + ":small", &op.small_shape});
    return out;
}

double time_of(const ansor::TuningRecord &r) {
    // A failure is an infinite time (throughput 0); a success never counts as one.
    if (!r.ok || !std::isfinite(r.min_ms)) return std::numeric_limits<double>::infinity();
    return std::max(r.min_ms, 1e-9);
}

// Featurises the records of one pipeline, one program per distinct list of
// canonical steps: a program measured twice keeps its fastest time.
void add_records(const ansor::PipelineDAG &dag, const std::vector<ansor::TuningRecord> &records, DatasetPipeline &out) {
    ansor::FeatureExtractor extractor(dag);
    std::vector<ansor::StageFeatures> rows;
    std::map<std::string, size_t> program_of_steps;
    for (const ansor::TuningRecord &r : records) {
        out.records++;
        const std::string steps = r.steps.dump();
        auto seen = program_of_steps.find(steps);
        if (seen != program_of_steps.end()) {
            out.duplicates++;
            out.ms[seen->second] = std::min(out.ms[seen->second], time_of(r));
            continue;
        }
        try {
            extractor.extract(r.state->replay(), rows);
        } catch (const ansor::InvalidState &) {
            out.unreplayable++;
            continue;
        }
        std::vector<float> block;
        for (const ansor::StageFeatures &f : rows) block.insert(block.end(), f.values.begin(), f.values.end());
        out.programs.add(block.data(), rows.size());
        program_of_steps[steps] = out.ms.size();
        out.ms.push_back(time_of(r));
    }
}

}  // namespace

void label_pipeline(DatasetPipeline &p) {
    p.failed = (size_t)std::count_if(p.ms.begin(), p.ms.end(), [](double ms) { return !std::isfinite(ms); });
    std::vector<float> y = ansor::normalized_throughputs(std::vector<std::string>(p.ms.size(), p.hash), p.ms);
    p.labels.assign(y.begin(), y.end());
}

DatasetPipeline::DatasetPipeline() : programs(ansor::features::kCount) {}

size_t ProgramDataset::programs() const {
    size_t n = 0;
    for (const auto &p : pipelines) n += p.ms.size();
    return n;
}

ProgramDataset load_suite_dataset(const std::vector<std::string> &logs, const Halide::Target &target, int parallelism) {
    ProgramDataset data;
    const std::string target_name = target.to_string();
    // Keys present in the logs for this target, so that only those pipelines
    // are loaded (each load rereads a whole log).
    std::map<std::string, size_t> wanted;
    for (const std::string &path : logs) {
        for (const ansor::TuningRecord &r : ansor::TuningLog(path).read_all()) {
            data.records_read++;
            if (r.target != target_name) {
                data.other_target++;
            } else {
                wanted[r.pipeline]++;
            }
        }
    }
    std::set<std::string> found;
    for (const ansor_ops::OpShapes &op : ansor_ops::operator_suite()) {
        for (const NamedShape &s : shapes_of(op)) {
            // The generator owns the Funcs: keep it until the states are featurised.
            SuitePipeline built = build_suite_pipeline(op.name, *s.shape, target);
            ansor::PipelineDAG dag(built.outputs(), parallelism);
            ansor::PipelineKey key = ansor::make_pipeline_key(dag);
            if (!wanted.count(key.hash) || !found.insert(key.hash).second) continue;
            DatasetPipeline p;
            p.name = s.name;
            p.hash = key.hash;
            // All logs' records together, so that a program measured in two
            // logs is one program (else it could land in train and test).
            std::vector<ansor::TuningRecord> records;
            for (const std::string &path : logs) {
                std::vector<ansor::TuningRecord> more = ansor::TuningLog(path).load(dag, key, target, ansor::RecordScope::any_conditions);
                records.insert(records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
            }
            add_records(dag, records, p);
            label_pipeline(p);
            if (!p.ms.empty()) data.pipelines.push_back(std::move(p));
        }
    }
    for (const auto &[hash, count] : wanted) {
        if (!found.count(hash)) data.unknown_pipeline += count;
    }
    return data;
}

}  // namespace ansor_apps
