#include "trace/synthetic/CallDepthKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>

namespace concorde::synthetic {

std::string CallDepthKernel::description() const {
    return "a chain of d nested calls through distinct functions, then d returns (returns "
           "beyond the return-stack depth mispredict)";
}

std::vector<KernelParameter> CallDepthKernel::parameters() const {
    return {KernelParameter::number("depth", "d: nested calls per iteration", 24, 1, 4096),
            warmupParameter(16, 100'000)};
}

std::string CallDepthKernel::iterationMeaning() const {
    return "d calls, d returns and the loop jump (2d + 1 instructions)";
}

std::uint64_t CallDepthKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(1, 100'000 / (2 * params.number("depth") + 1));
}

void CallDepthKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                               KernelBuilder& builder) const {
    const std::uint64_t depth = params.number("depth");
    const std::uint64_t warmup = params.number("warmup");
    const std::uint64_t head = builder.pc();
    // f_k (k = 1..depth) starts k lines after the loop head.
    const auto function = [&](std::uint64_t k) { return head + k * KernelBuilder::kLineBytes; };
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        for (std::uint64_t k = 1; k <= depth; ++k)
            builder.call(function(k));
        for (std::uint64_t k = 1; k <= depth; ++k)
            builder.ret();
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
