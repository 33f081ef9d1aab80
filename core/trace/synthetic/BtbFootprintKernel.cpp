#include "trace/synthetic/BtbFootprintKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>
#include <stdexcept>

namespace concorde::synthetic {

std::string BtbFootprintKernel::description() const {
    return "a loop of n taken jumps and nothing else (CPI rises by the BTB-miss bubble once n "
           "exceeds the BTB)";
}

std::vector<KernelParameter> BtbFootprintKernel::parameters() const {
    return {KernelParameter::number("branches",
                                    "n: taken jumps per loop, 4 bytes apart (the BTB footprint)",
                                    1024, 2, 1u << 16),
            warmupParameter(2, 1000)};
}

std::string BtbFootprintKernel::iterationMeaning() const {
    return "one pass over all n jumps (n instructions)";
}

std::uint64_t BtbFootprintKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(1, 100'000 / params.number("branches"));
}

void BtbFootprintKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                                  KernelBuilder& builder) const {
    const std::uint64_t branches = params.number("branches");
    const std::uint64_t warmup = params.number("warmup");
    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        for (std::uint64_t k = 0; k < branches; ++k) {
            if (builder.pc() != head + k * kSlotBytes)
                throw std::logic_error("btb-footprint: jump layout out of step");
            // The loop-closing jump is too far for rel8; nothing follows it, so its longer
            // encoding overlaps no other instruction.
            if (k + 1 < branches)
                builder.jump(head + (k + 1) * kSlotBytes, KernelBuilder::kShortJumpSize);
            else
                builder.jump(head);
        }
    }
}

} // namespace concorde::synthetic
