#include "state/directive.h"

#include <algorithm>
#include <cctype>

namespace ansor {

using namespace Halide;

namespace {

VarOrRVar to_var(const LoopRef &l) {
    if (l.is_rvar) return VarOrRVar(RVar(l.name));
    return VarOrRVar(Var(l.name));
}

const char *tail_name(TailStrategy t) {
    switch (t) {
    case TailStrategy::GuardWithIf: return "TailStrategy::GuardWithIf";
    case TailStrategy::ShiftInwards: return "TailStrategy::ShiftInwards";
    case TailStrategy::RoundUp: return "TailStrategy::RoundUp";
    default: return "TailStrategy::Auto";
    }
}

}  // namespace

const char *const kGpuCacheReadOuter = "sh_o";
const char *const kGpuCacheReadThreads = "sh_t";

std::string gpu_cache_read_fused_name(int k) { return "sh_f" + std::to_string(k); }

const char *memory_type_source(MemoryType t) {
    switch (t) {
    case MemoryType::Heap: return "MemoryType::Heap";
    case MemoryType::Stack: return "MemoryType::Stack";
    case MemoryType::Register: return "MemoryType::Register";
    case MemoryType::GPUShared: return "MemoryType::GPUShared";
    default: return "MemoryType::Auto";
    }
}

HalideApplier::HalideApplier(const std::map<std::string, Internal::Function> &env) {
    for (const auto &kv : env) funcs_.emplace(kv.first, Func(kv.second));
}

Func &HalideApplier::func(const std::string &name) {
    auto it = funcs_.find(name);
    if (it == funcs_.end()) throw std::runtime_error("schedule names unknown Func '" + name + "'");
    return it->second;
}

Stage HalideApplier::stage(const std::string &name, int s) {
    Func &f = func(name);
    if (s == 0) return f;
    return f.update(s - 1);
}

void HalideApplier::apply(const Directive &d) {
    using K = Directive::Kind;
    switch (d.kind) {
    case K::Split:
        stage(d.func, d.stage).split(to_var(d.loops[0]), to_var(d.loops[1]), to_var(d.loops[2]),
                                     Expr((int)d.factor), d.tail);
        break;
    case K::Reorder: {
        std::vector<VarOrRVar> inner_first;
        for (auto it = d.loops.rbegin(); it != d.loops.rend(); ++it) inner_first.push_back(to_var(*it));
        stage(d.func, d.stage).reorder(inner_first);
        break;
    }
    case K::Fuse:
        stage(d.func, d.stage).fuse(to_var(d.loops[1]), to_var(d.loops[0]), to_var(d.loops[2]));
        break;
    case K::Parallel: stage(d.func, d.stage).parallel(to_var(d.loops[0])); break;
    case K::Vectorize: stage(d.func, d.stage).vectorize(to_var(d.loops[0])); break;
    case K::Unroll: stage(d.func, d.stage).unroll(to_var(d.loops[0])); break;
    case K::ComputeRoot: func(d.func).compute_root(); break;
    case K::ComputeInline: func(d.func).compute_inline(); break;
    case K::ComputeAt:
        func(d.func).compute_at(LoopLevel(func(d.at_func), to_var(d.at_loop)));
        break;
    case K::Rfactor: {
        std::vector<std::pair<RVar, Var>> preserved;
        for (const auto &p : d.preserved) preserved.emplace_back(RVar(p.first.name), Var(p.second));
        Func intm = stage(d.func, d.stage).rfactor(preserved);
        // Halide names the intermediate uniquely within the process: "f_intm",
        // or "f_intm$1" once another pipeline here (an earlier one with a Func
        // of the same name) made an "f_intm". The directives name it "f_intm".
        // A Func itself renamed apart ("f$1") gives "f_1_intm": Halide turns
        // the '$' of the name it builds into '_'.
        const std::string &made = intm.name();
        std::string sanitized = d.at_func;
        std::replace(sanitized.begin(), sanitized.end(), '$', '_');
        auto names = [&](const std::string &expected) {
            return made == expected || made.rfind(expected + "$", 0) == 0;
        };
        if (!names(d.at_func) && !names(sanitized)) {
            throw std::runtime_error("rfactor of '" + d.func + "' produced '" + made + "', expected '" + d.at_func + "'");
        }
        funcs_.emplace(d.at_func, intm);
        break;
    }
    case K::BoundStorage: func(d.func).bound_storage(Var(d.loops[0].name), Expr((int)d.factor)); break;
    case K::StoreAt: func(d.func).store_at(LoopLevel(func(d.at_func), to_var(d.at_loop))); break;
    case K::CacheRead: {
        Func wrapper = func(d.func).in(func(d.wrapped_in));
        wrapper.compute_at(LoopLevel(func(d.at_func), to_var(d.at_loop)));
        std::vector<Var> order;
        for (const LoopRef &l : d.loops) order.emplace_back(l.name);
        if (order.size() > 1) wrapper.reorder_storage(order);
        break;
    }
    case K::AlignStorage: func(d.func).align_storage(Var(d.loops[0].name), Expr((int)d.factor)); break;
    case K::GpuBlocks: stage(d.func, d.stage).gpu_blocks(to_var(d.loops[0])); break;
    case K::GpuThreads: stage(d.func, d.stage).gpu_threads(to_var(d.loops[0])); break;
    case K::GpuSingleThread: stage(d.func, d.stage).gpu_single_thread(); break;
    case K::StoreIn: func(d.func).store_in(d.memory); break;
    case K::GpuCacheRead: {
        Func wrapper = func(d.func).in(func(d.wrapped_in));
        wrapper.compute_at(LoopLevel(func(d.at_func), to_var(d.at_loop))).store_in(MemoryType::GPUShared);
        if (d.loops.empty()) break;
        Var loop(d.loops[0].name);
        for (size_t i = 1; i < d.loops.size(); i++) {
            Var fused(gpu_cache_read_fused_name((int)i));
            wrapper.fuse(loop, Var(d.loops[i].name), fused);
            loop = fused;
        }
        Var outer(kGpuCacheReadOuter), threads(kGpuCacheReadThreads);
        wrapper.split(loop, outer, threads, Expr((int)d.factor), TailStrategy::GuardWithIf).gpu_threads(threads);
        break;
    }
    }
}

SchedulePrinter::SchedulePrinter(const std::vector<std::string> &order) {
    for (size_t i = 0; i < order.size(); i++) order_[order[i]] = i;
}

std::string SchedulePrinter::identifier(const std::string &halide_name, const std::string &suffix) {
    std::string id;
    for (char c : halide_name) id += std::isalnum((unsigned char)c) ? c : '_';
    if (id.empty() || std::isdigit((unsigned char)id[0])) id = "v" + id;
    id += suffix;
    std::string unique = id;
    for (int k = 2; used_ids_.count(unique); k++) unique = id + "_" + std::to_string(k);
    used_ids_[unique] = true;
    return unique;
}

std::string SchedulePrinter::func_id(const std::string &name) {
    auto it = func_ids_.find(name);
    if (it != func_ids_.end()) return it->second;
    std::string id = identifier(name, "");
    func_ids_[name] = id;
    auto o = order_.find(name);
    if (o == order_.end()) throw std::runtime_error("printer: Func '" + name + "' is neither in the pipeline nor created by rfactor");
    func_decls_.push_back("Func " + id + " = pipeline.get_func(" + std::to_string(o->second) + ");");
    return id;
}

std::string SchedulePrinter::loop_id(const LoopRef &l) {
    std::string key = (l.is_rvar ? "R:" : "V:") + l.name;
    auto it = var_ids_.find(key);
    if (it != var_ids_.end()) return it->second;
    std::string id = identifier(l.name, "");
    var_ids_[key] = id;
    var_decls_.push_back(std::string(l.is_rvar ? "RVar " : "Var ") + id + "(\"" + l.name + "\");");
    return id;
}

std::string SchedulePrinter::stage_expr(const std::string &func, int stage) {
    std::string f = func_id(func);
    return stage == 0 ? f : f + ".update(" + std::to_string(stage - 1) + ")";
}

void SchedulePrinter::print(const Directive &d) {
    using K = Directive::Kind;
    std::ostringstream s;
    switch (d.kind) {
    case K::Split:
        s << stage_expr(d.func, d.stage) << ".split(" << loop_id(d.loops[0]) << ", " << loop_id(d.loops[1]) << ", "
          << loop_id(d.loops[2]) << ", " << d.factor << ", " << tail_name(d.tail) << ");";
        break;
    case K::Reorder: {
        s << stage_expr(d.func, d.stage) << ".reorder(";
        for (size_t i = d.loops.size(); i-- > 0;) s << loop_id(d.loops[i]) << (i ? ", " : "");
        s << ");";
        break;
    }
    case K::Fuse:
        s << stage_expr(d.func, d.stage) << ".fuse(" << loop_id(d.loops[1]) << ", " << loop_id(d.loops[0]) << ", "
          << loop_id(d.loops[2]) << ");";
        break;
    case K::Parallel: s << stage_expr(d.func, d.stage) << ".parallel(" << loop_id(d.loops[0]) << ");"; break;
    case K::Vectorize: s << stage_expr(d.func, d.stage) << ".vectorize(" << loop_id(d.loops[0]) << ");"; break;
    case K::Unroll: s << stage_expr(d.func, d.stage) << ".unroll(" << loop_id(d.loops[0]) << ");"; break;
    case K::ComputeRoot: s << func_id(d.func) << ".compute_root();"; break;
    case K::ComputeInline: s << func_id(d.func) << ".compute_inline();"; break;
    case K::ComputeAt: {
        std::string at = func_id(d.at_func);
        s << func_id(d.func) << ".compute_at(" << at << ", " << loop_id(d.at_loop) << ");";
        break;
    }
    case K::Rfactor: {
        std::string st = stage_expr(d.func, d.stage);
        std::string id = identifier(d.at_func, "");
        func_ids_[d.at_func] = id;
        s << "Func " << id << " = " << st << ".rfactor({";
        for (size_t i = 0; i < d.preserved.size(); i++) {
            LoopRef v{d.preserved[i].second, false};
            s << (i ? ", " : "") << "{" << loop_id(d.preserved[i].first) << ", " << loop_id(v) << "}";
        }
        s << "});";
        break;
    }
    case K::BoundStorage:
        s << func_id(d.func) << ".bound_storage(" << loop_id(d.loops[0]) << ", " << d.factor << ");";
        break;
    case K::StoreAt:
        s << func_id(d.func) << ".store_at(" << func_id(d.at_func) << ", " << loop_id(d.at_loop) << ");";
        break;
    case K::CacheRead: {
        const std::string id = identifier(d.func + "_in_" + d.wrapped_in, "");
        s << "Func " << id << " = " << func_id(d.func) << ".in(" << func_id(d.wrapped_in) << ");\n";
        s << id << ".compute_at(" << func_id(d.at_func) << ", " << loop_id(d.at_loop) << ")";
        if (d.loops.size() > 1) {
            s << ".reorder_storage(";
            for (size_t i = 0; i < d.loops.size(); i++) s << (i ? ", " : "") << loop_id(d.loops[i]);
            s << ")";
        }
        s << ";";
        break;
    }
    case K::AlignStorage:
        s << func_id(d.func) << ".align_storage(" << loop_id(d.loops[0]) << ", " << d.factor << ");";
        break;
    case K::GpuBlocks: s << stage_expr(d.func, d.stage) << ".gpu_blocks(" << loop_id(d.loops[0]) << ");"; break;
    case K::GpuThreads: s << stage_expr(d.func, d.stage) << ".gpu_threads(" << loop_id(d.loops[0]) << ");"; break;
    case K::GpuSingleThread: s << stage_expr(d.func, d.stage) << ".gpu_single_thread();"; break;
    case K::StoreIn: s << func_id(d.func) << ".store_in(" << memory_type_source(d.memory) << ");"; break;
    case K::GpuCacheRead: {
        const std::string id = identifier(d.func + "_shared_" + d.wrapped_in, "");
        s << "Func " << id << " = " << func_id(d.func) << ".in(" << func_id(d.wrapped_in) << ");\n";
        s << id << ".compute_at(" << func_id(d.at_func) << ", " << loop_id(d.at_loop)
          << ").store_in(MemoryType::GPUShared);";
        if (d.loops.empty()) break;
        std::string loop = loop_id(d.loops[0]);
        for (size_t i = 1; i < d.loops.size(); i++) {
            const std::string fused = loop_id({gpu_cache_read_fused_name((int)i), false});
            s << "\n" << id << ".fuse(" << loop << ", " << loop_id(d.loops[i]) << ", " << fused << ");";
            loop = fused;
        }
        const std::string outer = loop_id({kGpuCacheReadOuter, false}), threads = loop_id({kGpuCacheReadThreads, false});
        s << "\n" << id << ".split(" << loop << ", " << outer << ", " << threads << ", " << d.factor
          << ", TailStrategy::GuardWithIf).gpu_threads(" << threads << ");";
        break;
    }
    }
    body_.push_back(s.str());
}

std::string SchedulePrinter::source() const {
    std::ostringstream s;
    for (const auto &l : func_decls_) s << l << "\n";
    for (const auto &l : var_decls_) s << l << "\n";
    for (const auto &l : body_) s << l << "\n";
    return s.str();
}

}  // namespace ansor
