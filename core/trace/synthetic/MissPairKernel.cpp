#include "trace/synthetic/MissPairKernel.h"

#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>
#include <limits>

namespace concorde::synthetic {

MissPairKernel::MissPairKernel(Variant variant) : variant_(variant) {}

std::string MissPairKernel::name() const {
    switch (variant_) {
    case Variant::Rob:
        return "rob-knee";
    case Variant::LoadQueue:
        return "lq-knee";
    case Variant::StoreQueue:
        return "sq-knee";
    }
    return {};
}

std::string MissPairKernel::description() const {
    switch (variant_) {
    case Variant::Rob:
        return "two independent DRAM misses separated by N independent int-alu ops (ROB knee "
               "at rob = N + 2)";
    case Variant::LoadQueue:
        return "two independent DRAM misses separated by N independent L1-hit loads (LQ knee "
               "at lq = N + 2)";
    case Variant::StoreQueue:
        return "two independent DRAM misses separated by N independent stores (SQ knee at "
               "sq = N)";
    }
    return {};
}

InstrClass MissPairKernel::fillerClass() const {
    switch (variant_) {
    case Variant::LoadQueue:
        return InstrClass::Load;
    case Variant::StoreQueue:
        return InstrClass::Store;
    case Variant::Rob:
        break;
    }
    return InstrClass::IntAlu;
}

std::vector<KernelParameter> MissPairKernel::parameters() const {
    return {KernelParameter::number("fillers",
                                    "N: fillers between the two misses (and after "
                                    "the second)",
                                    64, 0, 4096),
            KernelParameter::number("seed", "seed of the never-touched line addresses", 1, 0,
                                    std::numeric_limits<std::uint64_t>::max()),
            warmupParameter(8, 1'000'000)};
}

std::string MissPairKernel::iterationMeaning() const {
    return "miss A, N fillers, miss B, N fillers, loop-closing jump";
}

std::uint64_t MissPairKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(256, 100'000 / (2 * params.number("fillers") + 3));
}

std::uint64_t MissPairKernel::freshLine(std::uint64_t index, std::uint64_t seed) {
    // Every step is a bijection on 26-bit values (xor with a constant, multiplication by an odd
    // number modulo 2^26, xorshift), so distinct indices give distinct lines.
    constexpr std::uint64_t mask = kFreshLines - 1;
    std::uint64_t x = (index ^ (seed * 0x9E3779B97F4A7C15ull >> 38)) & mask;
    x = (x * 0x2545F491ull) & mask;
    x ^= x >> 13;
    x = (x * 0x5851F42Dull) & mask;
    x ^= x >> 11;
    x = (x * 0x14057B7Full) & mask;
    x ^= x >> 13;
    return x;
}

void MissPairKernel::validate(const KernelParams& params, std::uint64_t iterations) const {
    const std::uint64_t total = params.number("warmup") + iterations;
    if (total > kFreshLines / 2)
        reject("warmup + iterations = " + std::to_string(total) + " exceeds " +
               std::to_string(kFreshLines / 2) +
               " (the never-touched lines one trace can address)");
}

void MissPairKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                          KernelBuilder& builder) const {
    const std::uint64_t fillers = params.number("fillers");
    const std::uint64_t seed = params.number("seed");
    const std::uint64_t warmup = params.number("warmup");
    const InstrClass filler = fillerClass();
    const auto freshAddress = [&](std::uint64_t index) {
        return KernelBuilder::kFreshBase + freshLine(index, seed) * KernelBuilder::kLineBytes;
    };

    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        builder.load(KernelBuilder::kChainGpr, {KernelBuilder::kChainGpr}, freshAddress(2 * it));
        for (std::uint64_t i = 0; i < fillers; ++i)
            builder.independentOp(filler, i);
        builder.load(KernelBuilder::kSecondChainGpr, {KernelBuilder::kSecondChainGpr},
                     freshAddress(2 * it + 1));
        // The second run of fillers keeps miss B of this iteration and miss A of the next as
        // far apart as A and B, so only the A–B pair can share the window.
        for (std::uint64_t i = 0; i < fillers; ++i)
            builder.independentOp(filler, fillers + i);
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
