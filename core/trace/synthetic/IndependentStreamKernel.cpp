#include "trace/synthetic/IndependentStreamKernel.h"

#include "trace/InstrClass.h"
#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>

namespace concorde::synthetic {

std::string IndependentStreamKernel::description() const {
    return "stream of independent ops of one class, no register dependencies (measures "
           "issue/rename/commit/fetch widths)";
}

std::vector<std::string> IndependentStreamKernel::classChoices() {
    return {"int-alu", "int-mul", "int-div", "fp-add", "fp-mul",
            "fp-div",  "simd",    "load",    "store",  "nop"};
}

std::vector<KernelParameter> IndependentStreamKernel::parameters() const {
    return {KernelParameter::choice("class", "instruction class of the stream", "int-alu",
                                    classChoices()),
            KernelParameter::number("unroll", "ops per loop iteration", 256, 1, 4096),
            warmupParameter(4, 1'000'000)};
}

std::string IndependentStreamKernel::iterationMeaning() const {
    return "`unroll` ops and the loop-closing jump";
}

std::uint64_t IndependentStreamKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(1, 100'000 / (params.number("unroll") + 1));
}

void IndependentStreamKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                                   KernelBuilder& builder) const {
    const InstrClass cls = *parseInstrClass(params.choice("class"));
    const std::uint64_t unroll = params.number("unroll");
    const std::uint64_t warmup = params.number("warmup");
    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        for (std::uint64_t slot = 0; slot < unroll; ++slot)
            builder.independentOp(cls, slot);
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
