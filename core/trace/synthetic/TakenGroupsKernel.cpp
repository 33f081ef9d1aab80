#include "trace/synthetic/TakenGroupsKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>
#include <stdexcept>

namespace concorde::synthetic {

std::string TakenGroupsKernel::description() const {
    return "groups of g instructions each ending in a taken jump (fetch-width knee at "
           "fetch_width = g)";
}

std::vector<KernelParameter> TakenGroupsKernel::parameters() const {
    return {KernelParameter::number("group", "g: instructions per group, the last a taken jump", 4,
                                    1, 64),
            KernelParameter::number("groups",
                                    "groups per loop iteration (one 64-byte line each, so "
                                    "large counts make an I-cache-missing footprint)",
                                    16, 1, 1u << 20),
            warmupParameter(16, 1'000'000)};
}

std::string TakenGroupsKernel::iterationMeaning() const {
    return "one pass over all groups (group * groups instructions)";
}

std::uint64_t TakenGroupsKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(1, 100'000 / (params.number("group") * params.number("groups")));
}

std::uint64_t TakenGroupsKernel::groupStride(std::uint64_t groupSize) {
    const std::uint64_t bytes =
        (groupSize - 1) * KernelBuilder::instructionSize(InstrClass::IntAlu) +
        KernelBuilder::kJumpSize;
    // Round up past the group's end so the jump target is never the fall-through address.
    const std::uint64_t line = KernelBuilder::kLineBytes;
    return (bytes + line) / line * line;
}

void TakenGroupsKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                             KernelBuilder& builder) const {
    const std::uint64_t group = params.number("group");
    const std::uint64_t groups = params.number("groups");
    const std::uint64_t warmup = params.number("warmup");
    const std::uint64_t stride = groupStride(group);

    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        for (std::uint64_t j = 0; j < groups; ++j) {
            if (builder.pc() != head + j * stride)
                throw std::logic_error("taken-groups: group layout out of step");
            for (std::uint64_t i = 0; i + 1 < group; ++i)
                builder.independentOp(InstrClass::IntAlu, i);
            builder.jump(j + 1 < groups ? head + (j + 1) * stride : head);
        }
    }
}

} // namespace concorde::synthetic
