#include "trace/synthetic/ChainKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>
#include <stdexcept>

namespace concorde::synthetic {

ChainKernel::ChainKernel(InstrClass cls) : cls_(cls) {
    switch (cls) {
    case InstrClass::IntAlu:
    case InstrClass::IntMul:
    case InstrClass::IntDiv:
    case InstrClass::FpAdd:
    case InstrClass::FpMul:
    case InstrClass::FpDiv:
    case InstrClass::Simd:
        break;
    default:
        throw std::logic_error("ChainKernel: no register chain for class " +
                               std::string(instrClassName(cls)));
    }
}

std::string ChainKernel::name() const {
    return "chain-" + std::string(instrClassName(cls_));
}

std::string ChainKernel::description() const {
    return "dependent chain of " + std::string(instrClassName(cls_)) +
           " ops, each reading the previous result (measures its latency)";
}

std::vector<KernelParameter> ChainKernel::parameters() const {
    return {KernelParameter::number("unroll", "chained ops per loop iteration", 64, 1, 4096),
            warmupParameter(4, 1'000'000)};
}

std::string ChainKernel::iterationMeaning() const {
    return "`unroll` chained ops and the loop-closing jump";
}

std::uint64_t ChainKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(1, 100'000 / (params.number("unroll") + 1));
}

void ChainKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                       KernelBuilder& builder) const {
    const std::uint64_t unroll = params.number("unroll");
    const std::uint64_t warmup = params.number("warmup");
    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        for (std::uint64_t i = 0; i < unroll; ++i)
            builder.chainOp(cls_);
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
