#include "trace/synthetic/PointerChaseKernel.h"

#include "trace/synthetic/KernelBuilder.h"
#include "trace/synthetic/KernelRandom.h"

#include <algorithm>
#include <limits>

namespace concorde::synthetic {
namespace {

std::uint64_t linesOf(const KernelParams& params) {
    return params.number("ws_kb") * 1024 / KernelBuilder::kLineBytes;
}

} // namespace

PointerChaseKernel::PointerChaseKernel(Variant variant) : variant_(variant) {}

std::string PointerChaseKernel::name() const {
    return variant_ == Variant::L1Chain ? "chain-load" : "pointer-chase";
}

std::string PointerChaseKernel::description() const {
    if (variant_ == Variant::L1Chain)
        return "dependent chain of loads: pointer chase in an L1-resident set (measures L1 "
               "load-to-use latency)";
    return "pointer chase over 64-byte lines of a working set in random cyclic order "
           "(measures the latency of the cache level the set fits in)";
}

std::vector<KernelParameter> PointerChaseKernel::parameters() const {
    const bool l1 = variant_ == Variant::L1Chain;
    return {KernelParameter::number("ws_kb", "working set in kB, visited in 64-byte lines",
                                    l1 ? 4 : 1024, 1, l1 ? 16 : 1024 * 1024),
            KernelParameter::number("seed", "seed of the random visiting order", 1, 0,
                                    std::numeric_limits<std::uint64_t>::max()),
            KernelParameter::number("unroll", "loads per loop-closing jump", 64, 1, 4096),
            warmupParameter(1, 64, "passes")};
}

std::string PointerChaseKernel::iterationMeaning() const {
    return "one pass over the working set (ws_kb * 16 loads)";
}

std::uint64_t PointerChaseKernel::defaultIterations(const KernelParams& params) const {
    const std::uint64_t lines = linesOf(params);
    return std::max<std::uint64_t>(1, (100'000 + lines - 1) / lines);
}

void PointerChaseKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                              KernelBuilder& builder) const {
    const std::uint64_t lines = linesOf(params);
    const std::uint64_t unroll = params.number("unroll");
    const std::uint64_t warmup = params.number("warmup");
    KernelRandom random(params.number("seed"));
    const std::vector<std::uint32_t> order = random.permutation(static_cast<std::uint32_t>(lines));

    const std::uint64_t head = builder.pc();
    std::uint64_t slot = 0;
    for (std::uint64_t pass = 0; pass < warmup + iterations; ++pass) {
        if (pass == warmup)
            builder.beginMeasurement();
        for (const std::uint32_t line : order) {
            builder.load(KernelBuilder::kChainGpr, {KernelBuilder::kChainGpr},
                         KernelBuilder::kChaseBase + line * KernelBuilder::kLineBytes);
            if (++slot == unroll) {
                builder.jump(head);
                slot = 0;
            }
        }
    }
}

} // namespace concorde::synthetic
