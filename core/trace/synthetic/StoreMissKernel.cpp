#include "trace/synthetic/StoreMissKernel.h"

#include "trace/synthetic/KernelBuilder.h"
#include "trace/synthetic/MissPairKernel.h"

#include <algorithm>
#include <limits>

namespace concorde::synthetic {

std::string StoreMissKernel::description() const {
    return "independent stores to never-touched lines separated by N independent int-alu ops "
           "(store misses hold SQ entries until written: SQ knee at sq = ceil(T / (N + 2)) "
           "with fetch_width = 1)";
}

std::vector<KernelParameter> StoreMissKernel::parameters() const {
    return {KernelParameter::number("fillers", "N: int-alu ops after each store", 14, 0, 4096),
            KernelParameter::number("seed", "seed of the never-touched line addresses", 1, 0,
                                    std::numeric_limits<std::uint64_t>::max()),
            warmupParameter(8, 1'000'000)};
}

std::string StoreMissKernel::iterationMeaning() const {
    return "store to a never-touched line, N fillers, loop-closing jump";
}

std::uint64_t StoreMissKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(256, 100'000 / (params.number("fillers") + 2));
}

void StoreMissKernel::validate(const KernelParams& params, std::uint64_t iterations) const {
    const std::uint64_t total = params.number("warmup") + iterations;
    if (total > MissPairKernel::kFreshLines)
        reject("warmup + iterations = " + std::to_string(total) + " exceeds " +
               std::to_string(MissPairKernel::kFreshLines) +
               " (the never-touched lines one trace can address)");
}

void StoreMissKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                               KernelBuilder& builder) const {
    const std::uint64_t fillers = params.number("fillers");
    const std::uint64_t seed = params.number("seed");
    const std::uint64_t warmup = params.number("warmup");
    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        builder.store({KernelBuilder::kStoreBase, KernelBuilder::kConstGprB},
                      KernelBuilder::kFreshBase +
                          MissPairKernel::freshLine(it, seed) * KernelBuilder::kLineBytes);
        for (std::uint64_t i = 0; i < fillers; ++i)
            builder.independentOp(InstrClass::IntAlu, i);
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
