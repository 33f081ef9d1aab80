#pragma once

#include "trace/TraceInfo.h"
#include "trace/synthetic/KernelParameter.h"
#include "trace/synthetic/KernelParams.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace concorde {
class RecordSink;
}

namespace concorde::synthetic {

class KernelBuilder;

/// A DiagSim-style microbenchmark generated directly as a trace: a loop whose instructions make
/// one microarchitectural resource binding (a latency, a width, a queue size), so that the
/// value a simulator or model measures on it can be compared with the configured one.
///
/// A kernel emits one region: warm-up iterations (to warm caches, predictors and the I-cache),
/// then `iterations` measured iterations. What one iteration is depends on the kernel
/// (iterationMeaning()). Generation is deterministic: the same parameters and iteration count
/// give the same records on every platform.
class MicrobenchKernel {
public:
    virtual ~MicrobenchKernel() = default;

    /// Command-line name, e.g. "chain-int-alu".
    virtual std::string name() const = 0;
    /// One sentence: what the kernel does and which resource it exposes.
    virtual std::string description() const = 0;
    /// Declared parameters, in the order they are listed and recorded.
    virtual std::vector<KernelParameter> parameters() const = 0;
    /// What one iteration is, e.g. "one pass over the working set".
    virtual std::string iterationMeaning() const = 0;
    /// Iterations used when the caller does not choose (roughly 10^5 measured instructions).
    virtual std::uint64_t defaultIterations(const KernelParams& params) const = 0;

    /// Checks `values` (key → text) against parameters() and fills in defaults. Throws a usage
    /// ConcordeError for an unknown key and a bad-input one for a malformed or out-of-range
    /// value; both messages name the kernel, the parameter and what is allowed.
    KernelParams resolve(const std::map<std::string, std::string>& values = {}) const;

    /// Generates the kernel into `sink` as one region. Throws a bad-input ConcordeError when
    /// `iterations` is 0 or the parameter combination is invalid (e.g. a stride larger than
    /// the working set).
    void generate(const KernelParams& params, std::uint64_t iterations, RecordSink& sink) const;

    /// `concorde microbench NAME --iterations N --param k=v ...` with every parameter spelled
    /// out (defaults included), so the invocation reproduces the trace even if defaults change.
    std::string invocation(const KernelParams& params, std::uint64_t iterations) const;
    /// Provenance for a trace header: source "microbench", commandLine = invocation(), and
    /// properties "kernel", "iterations", "microbench_version" and "param.<key>" per parameter.
    TraceInfo traceInfo(const KernelParams& params, std::uint64_t iterations) const;
    /// Generates the kernel into a .ctrace at `path` (written atomically). The recorded command
    /// line ends with `-o PATH`. Returns the region written.
    Region writeTrace(const std::filesystem::path& path, const KernelParams& params,
                      std::uint64_t iterations) const;

    /// Bumped whenever a kernel's generated records change for the same parameters.
    static constexpr int kGeneratorVersion = 1;

protected:
    /// Cross-parameter checks beyond each parameter's own range; throw via reject().
    virtual void validate(const KernelParams& params, std::uint64_t iterations) const;
    /// Emits warm-up, calls builder.beginMeasurement(), then emits the measured iterations. Must
    /// be deterministic: generate() calls it twice (a counting pass, then the real one).
    virtual void emitLoop(const KernelParams& params, std::uint64_t iterations,
                          KernelBuilder& builder) const = 0;

    /// A bad-input ConcordeError prefixed with the kernel name.
    [[noreturn]] void reject(const std::string& problem) const;
    /// The common `warmup` parameter: warm-up iterations before the measured ones.
    static KernelParameter warmupParameter(std::uint64_t defaultValue, std::uint64_t max,
                                           const std::string& unit = "iterations");
};

} // namespace concorde::synthetic
