#include "measure/gpu_build.h"

#include "measure/runner_program.h"
#include "measure/subprocess.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace ansor {

using namespace Halide;
using namespace Halide::Internal;

namespace {

bool executable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

// The halide_<api>_run calls of the host code: (state, kernel name, blocks
// x y z, threads x y z, dynamic shared bytes, argument sizes, arguments, ...).
class FindLaunches : public IRGraphVisitor {
    using IRGraphVisitor::visit;
    void visit(const Call *op) override {
        IRGraphVisitor::visit(op);
        const std::string &n = op->name;
        const bool run = n.rfind("halide_", 0) == 0 && n.size() > 4 && n.compare(n.size() - 4, 4, "_run") == 0;
        if (!run || op->args.size() < 9 || !op->args[1].as<StringImm>()) return;
        KernelLaunch l;
        l.kernel = op->args[1].as<StringImm>()->value;
        l.threads = 1;
        for (int i = 5; i < 8; i++) {
            const Expr e = simplify(op->args[i]);
            const int64_t *v = as_const_int(e);
            l.thread_extents.push_back(v ? *v : -1);
            l.threads = (v && l.threads >= 0) ? l.threads * *v : -1;
        }
        const Expr shared = simplify(op->args[8]);
        if (const int64_t *v = as_const_int(shared)) l.dynamic_shared_bytes = *v;
        launches.push_back(l);
    }

public:
    std::vector<KernelLaunch> launches;
};

std::string device_code_of(const Module &m) {
    for (const Buffer<> &b : m.buffers()) {
        const std::string &n = b.name();
        const std::string suffix = "_gpu_source_kernels";
        if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
            // The source is NUL-terminated inside the buffer.
            const std::string code(static_cast<const char *>(b.data()), b.size_in_bytes());
            return code.substr(0, code.find('\0'));
        }
    }
    return "";
}

std::string tail(const std::string &text, size_t n = 1500) { return text.size() > n ? text.substr(text.size() - n) : text; }

std::string describe_extents(const std::vector<int64_t> &extents) {
    std::string s;
    for (size_t i = 0; i < extents.size(); i++) s += (i ? " x " : "") + std::to_string(extents[i]);
    return s;
}

}  // namespace

std::string find_ptxas() {
    std::vector<std::string> tried;
    if (const char *env = std::getenv("PTXAS"); env && *env) {
        if (executable(env)) return env;
        tried.push_back(std::string(env) + " ($PTXAS)");
    }
    const std::string standard = "/usr/local/cuda/bin/ptxas";
    if (executable(standard)) return standard;
    tried.push_back(standard);
    if (const char *path = std::getenv("PATH")) {
        std::string dirs = path;
        size_t start = 0;
        while (start <= dirs.size()) {
            size_t end = dirs.find(':', start);
            if (end == std::string::npos) end = dirs.size();
            const std::string candidate = dirs.substr(start, end - start) + "/ptxas";
            if (end > start && executable(candidate)) return candidate;
            start = end + 1;
        }
        tried.push_back("ptxas on PATH");
    }
    std::string list;
    for (const std::string &t : tried) list += (list.empty() ? "" : ", ") + t;
    throw UserError("checking a CUDA program needs ptxas (the CUDA toolkit); none found (tried " + list +
                    "); set PTXAS to its path");
}

int cuda_architecture(const Target &target) { return std::max(50, target.get_cuda_capability_lower_bound()); }

std::vector<KernelResources> parse_ptxas_report(const std::string &report) {
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex used(R"(Used (\d+) registers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    std::vector<KernelResources> kernels;
    std::istringstream lines(report);
    std::string line;
    std::smatch m;
    while (std::getline(lines, line)) {
        if (std::regex_search(line, m, entry)) {
            kernels.push_back({});
            kernels.back().kernel = m[1];
            continue;
        }
        if (kernels.empty()) continue;
        KernelResources &k = kernels.back();
        if (std::regex_search(line, m, frame)) {
            k.stack_bytes = std::stoll(m[1]);
            k.spill_store_bytes = std::stoll(m[2]);
            k.spill_load_bytes = std::stoll(m[3]);
        }
        if (std::regex_search(line, m, used)) {
            k.registers = std::stoll(m[1]);
            if (std::regex_search(line, m, smem)) k.static_shared_bytes = std::stoll(m[1]);
        }
    }
    return kernels;
}

std::vector<KernelResources> assemble_ptx(const std::string &ptx, int architecture, const std::string &dir) {
    const std::string ptxas = find_ptxas();
    const std::string source = dir + "/kernels.ptx";
    {
        std::ofstream out(source);
        out << ptx;
        if (!out) throw UserError("cannot write " + source);
    }
    const std::string arch = "-arch=sm_" + std::to_string(architecture);
    ProcessResult r = run_process({ptxas, arch, "-v", "-o", dir + "/kernels.cubin", source});
    if (r.exit_code != 0) {
        throw GpuProgramRejected("ptxas " + arch + " refused the kernels (" + r.describe() + "): " + tail(r.output));
    }
    return parse_ptxas_report(r.output);
}

std::string gpu_limit_violations(const std::vector<KernelLaunch> &launches,
                                 const std::vector<KernelResources> &kernels, const GpuLimits &limits) {
    std::map<std::string, const KernelLaunch *> launch_of;
    for (const KernelLaunch &l : launches) launch_of[l.kernel] = &l;
    std::string out;
    auto add = [&](const std::string &kernel, const std::string &what) {
        out += (out.empty() ? "" : "; ") + ("kernel " + kernel + ": " + what);
    };
    for (const KernelLaunch &l : launches) {
        if (l.threads > limits.max_threads_per_block) {
            add(l.kernel, std::to_string(l.threads) + " threads per block (" + describe_extents(l.thread_extents) +
                              ") > " + std::to_string(limits.max_threads_per_block));
        }
    }
    for (const KernelResources &k : kernels) {
        auto it = launch_of.find(k.kernel);
        const KernelLaunch *l = it == launch_of.end() ? nullptr : it->second;
        if (k.registers > limits.max_registers_per_thread) {
            add(k.kernel, std::to_string(k.registers) + " registers per thread > " +
                              std::to_string(limits.max_registers_per_thread));
        }
        if (l && l->threads > 0) {
            const int64_t warps = (l->threads + limits.warp_size - 1) / limits.warp_size;
            const int64_t regs = k.registers * warps * limits.warp_size;
            if (regs > limits.max_registers_per_block) {
                add(k.kernel, std::to_string(k.registers) + " registers x " + std::to_string(warps * limits.warp_size) +
                                  " threads = " + std::to_string(regs) + " registers per block > " +
                                  std::to_string(limits.max_registers_per_block));
            }
        }
        const int64_t dynamic = l && l->dynamic_shared_bytes > 0 ? l->dynamic_shared_bytes : 0;
        if (k.static_shared_bytes + dynamic > limits.max_shared_bytes_per_block) {
            add(k.kernel, std::to_string(k.static_shared_bytes + dynamic) + " bytes of shared memory (" +
                              std::to_string(k.static_shared_bytes) + " static + " + std::to_string(dynamic) +
                              " dynamic) > " + std::to_string(limits.max_shared_bytes_per_block));
        }
        if (k.spill_store_bytes > limits.max_spill_store_bytes) {
            add(k.kernel, std::to_string(k.spill_store_bytes) + " bytes of spill stores per thread (" +
                              std::to_string(k.spill_load_bytes) + " bytes of spill loads, " +
                              std::to_string(k.registers) + " registers) > " +
                              std::to_string(limits.max_spill_store_bytes));
        }
    }
    // Without ptxas (not CUDA) the launch's dynamic shared memory is still known.
    if (kernels.empty()) {
        for (const KernelLaunch &l : launches) {
            if (l.dynamic_shared_bytes > limits.max_shared_bytes_per_block) {
                add(l.kernel, std::to_string(l.dynamic_shared_bytes) + " bytes of shared memory > " +
                                  std::to_string(limits.max_shared_bytes_per_block));
            }
        }
    }
    return out;
}

GpuBuild build_gpu_program(const Pipeline &pipeline, const Target &target, const std::string &dir,
                           const std::string &function, const GpuLimits &limits) {
    if (!target.has_gpu_feature()) {
        throw UserError("a GPU build needs a target with a GPU API (cuda, opencl, ...), not " + target.to_string());
    }
    GpuBuild b;
    b.dir = dir;
    b.function = function;
    b.static_library = dir + "/" + function + ".a";
    b.shared_object = dir + "/" + function + ".so";
    Pipeline p = pipeline;
    Module m = p.compile_to_module(p.infer_arguments(), function, target);
    m.compile({{OutputFileType::static_library, b.static_library}});
    for (const LoweredFunc &f : m.functions()) {
        FindLaunches finder;
        f.body.accept(&finder);
        b.launches.insert(b.launches.end(), finder.launches.begin(), finder.launches.end());
    }
    b.device_code = device_code_of(m);
    if (target.has_feature(Target::CUDA)) {
        if (b.device_code.empty()) throw UserError("the CUDA build of " + function + " holds no PTX");
        b.kernels = assemble_ptx(b.device_code, cuda_architecture(target), dir);
    }
    const std::string violations = gpu_limit_violations(b.launches, b.kernels, limits);
    if (!violations.empty()) throw GpuProgramRejected("over the GPU's limits: " + violations);
    link_shared_object(RunnerProgram{b.function, b.static_library, b.shared_object});
    return b;
}

}  // namespace ansor
