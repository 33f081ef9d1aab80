#include "trace/synthetic/IndirectDispatchKernel.h"

#include "trace/synthetic/KernelBuilder.h"
#include "trace/synthetic/KernelRandom.h"

#include <limits>

namespace concorde::synthetic {

std::string IndirectDispatchKernel::description() const {
    return "interpreter loop: one indirect dispatch to h handlers in a learnable (cyclic) or "
           "unlearnable (random) order";
}

std::vector<KernelParameter> IndirectDispatchKernel::parameters() const {
    return {
        KernelParameter::number("handlers", "h: handlers the dispatch jumps to", 8, 2, 64),
        KernelParameter::choice("pattern", "order of the handlers", "cyclic", {"cyclic", "random"}),
        KernelParameter::number("seed", "seed of the random order", 1, 0,
                                std::numeric_limits<std::uint64_t>::max()),
        warmupParameter(1000, 1'000'000, "dispatches")};
}

std::string IndirectDispatchKernel::iterationMeaning() const {
    return "one dispatch: indirect jump, handler op, jump back (3 instructions)";
}

std::uint64_t IndirectDispatchKernel::defaultIterations(const KernelParams&) const {
    return 33'000;
}

void IndirectDispatchKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                                      KernelBuilder& builder) const {
    const std::uint64_t handlers = params.number("handlers");
    const bool random = params.choice("pattern") == "random";
    const std::uint64_t warmup = params.number("warmup");
    KernelRandom generator(params.number("seed"));
    const std::uint64_t head = builder.pc();
    // Handler h starts h + 1 lines after the dispatch.
    const auto handler = [&](std::uint64_t h) {
        return head + (h + 1) * KernelBuilder::kLineBytes;
    };
    const std::uint64_t period = 2 * (handlers - 1);
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        // Cyclic: even positions are handler 0, odd position 2j + 1 is handler j + 1.
        const std::uint64_t position = it % period;
        const std::uint64_t h = random              ? generator.below(handlers)
                                : position % 2 == 0 ? 0
                                                    : position / 2 + 1;
        builder.indirectJump(handler(h), {KernelBuilder::kConstGprA});
        builder.independentOp(InstrClass::IntAlu, 0);
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
