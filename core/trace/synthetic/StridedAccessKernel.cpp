#include "trace/synthetic/StridedAccessKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>

namespace concorde::synthetic {
namespace {

std::uint64_t accessesPerPass(const KernelParams& params) {
    return params.number("ws_kb") * 1024 / params.number("stride");
}

} // namespace

StridedAccessKernel::StridedAccessKernel(Access access) : access_(access) {}

std::string StridedAccessKernel::name() const {
    return access_ == Access::Load ? "stride-load" : "stride-store";
}

std::string StridedAccessKernel::description() const {
    if (access_ == Access::Store)
        return "independent stores with a constant stride over a working set (measures "
               "read-for-ownership misses, dirty writebacks and their DRAM bandwidth)";
    return "independent loads with a constant stride over a working set (measures load "
           "bandwidth, load pipes, prefetcher)";
}

std::vector<KernelParameter> StridedAccessKernel::parameters() const {
    return {
        KernelParameter::number("stride", "bytes between consecutive accesses", 64, 1, 1024 * 1024),
        KernelParameter::number("ws_kb", "working set in kB", 1024, 1, 1024 * 1024),
        KernelParameter::number("unroll", "accesses per loop-closing jump", 64, 1, 4096),
        warmupParameter(1, 64, "passes")};
}

std::string StridedAccessKernel::iterationMeaning() const {
    return access_ == Access::Load ? "one pass over the working set (ws_kb * 1024 / stride loads)"
                                   : "one pass over the working set (ws_kb * 1024 / stride stores)";
}

std::uint64_t StridedAccessKernel::defaultIterations(const KernelParams& params) const {
    const std::uint64_t accesses = std::max<std::uint64_t>(1, accessesPerPass(params));
    return std::max<std::uint64_t>(1, (100'000 + accesses - 1) / accesses);
}

void StridedAccessKernel::validate(const KernelParams& params, std::uint64_t) const {
    if (params.number("stride") > params.number("ws_kb") * 1024)
        reject("parameter stride = " + std::to_string(params.number("stride")) +
               " must not exceed the working set (ws_kb * 1024 = " +
               std::to_string(params.number("ws_kb") * 1024) + " bytes)");
}

void StridedAccessKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                                   KernelBuilder& builder) const {
    const std::uint64_t stride = params.number("stride");
    const std::uint64_t accesses = accessesPerPass(params);
    const std::uint64_t unroll = params.number("unroll");
    const std::uint64_t warmup = params.number("warmup");

    const std::uint64_t head = builder.pc();
    std::uint64_t slot = 0;
    for (std::uint64_t pass = 0; pass < warmup + iterations; ++pass) {
        if (pass == warmup)
            builder.beginMeasurement();
        for (std::uint64_t i = 0; i < accesses; ++i) {
            const std::uint64_t address = KernelBuilder::kStreamBase + i * stride;
            // The destination depends on the position in the loop body only, so each static
            // load keeps its register; nothing reads the results.
            if (access_ == Access::Load)
                builder.load(KernelBuilder::rotatingGpr(slot), {KernelBuilder::kLoadBase}, address);
            else
                builder.store({KernelBuilder::kStoreBase, KernelBuilder::kConstGprB}, address);
            if (++slot == unroll) {
                builder.jump(head);
                slot = 0;
            }
        }
    }
}

} // namespace concorde::synthetic
