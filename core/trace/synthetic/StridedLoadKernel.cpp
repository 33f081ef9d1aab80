#include "trace/synthetic/StridedLoadKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>

namespace concorde::synthetic {
namespace {

std::uint64_t loadsPerPass(const KernelParams& params) {
    return params.number("ws_kb") * 1024 / params.number("stride");
}

} // namespace

std::string StridedLoadKernel::description() const {
    return "independent loads with a constant stride over a working set (measures load "
           "bandwidth, load pipes, prefetcher)";
}

std::vector<KernelParameter> StridedLoadKernel::parameters() const {
    return {
        KernelParameter::number("stride", "bytes between consecutive loads", 64, 1, 1024 * 1024),
        KernelParameter::number("ws_kb", "working set in kB", 1024, 1, 1024 * 1024),
        KernelParameter::number("unroll", "loads per loop-closing jump", 64, 1, 4096),
        warmupParameter(1, 64, "passes")};
}

std::string StridedLoadKernel::iterationMeaning() const {
    return "one pass over the working set (ws_kb * 1024 / stride loads)";
}

std::uint64_t StridedLoadKernel::defaultIterations(const KernelParams& params) const {
    const std::uint64_t loads = std::max<std::uint64_t>(1, loadsPerPass(params));
    return std::max<std::uint64_t>(1, (100'000 + loads - 1) / loads);
}

void StridedLoadKernel::validate(const KernelParams& params, std::uint64_t) const {
    if (params.number("stride") > params.number("ws_kb") * 1024)
        reject("parameter stride = " + std::to_string(params.number("stride")) +
               " must not exceed the working set (ws_kb * 1024 = " +
               std::to_string(params.number("ws_kb") * 1024) + " bytes)");
}

void StridedLoadKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                             KernelBuilder& builder) const {
    const std::uint64_t stride = params.number("stride");
    const std::uint64_t loads = loadsPerPass(params);
    const std::uint64_t unroll = params.number("unroll");
    const std::uint64_t warmup = params.number("warmup");

    const std::uint64_t head = builder.pc();
    std::uint64_t slot = 0;
    for (std::uint64_t pass = 0; pass < warmup + iterations; ++pass) {
        if (pass == warmup)
            builder.beginMeasurement();
        for (std::uint64_t i = 0; i < loads; ++i) {
            // The destination depends on the position in the loop body only, so each static
            // load keeps its register; nothing reads the results.
            builder.load(KernelBuilder::rotatingGpr(slot), {KernelBuilder::kLoadBase},
                         KernelBuilder::kStreamBase + i * stride);
            if (++slot == unroll) {
                builder.jump(head);
                slot = 0;
            }
        }
    }
}

} // namespace concorde::synthetic
