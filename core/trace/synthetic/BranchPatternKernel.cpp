#include "trace/synthetic/BranchPatternKernel.h"

#include "trace/synthetic/KernelBuilder.h"
#include "trace/synthetic/KernelRandom.h"

#include <algorithm>
#include <limits>

namespace concorde::synthetic {

BranchPatternKernel::BranchPatternKernel(Pattern pattern) : pattern_(pattern) {}

std::string BranchPatternKernel::name() const {
    switch (pattern_) {
    case Pattern::AlwaysTaken:
        return "branch-taken";
    case Pattern::NeverTaken:
        return "branch-not-taken";
    case Pattern::Alternating:
        return "branch-alternating";
    case Pattern::Random:
        return "branch-random";
    }
    return {};
}

std::string BranchPatternKernel::description() const {
    switch (pattern_) {
    case Pattern::AlwaysTaken:
        return "conditional branch that is always taken (perfectly predictable)";
    case Pattern::NeverTaken:
        return "conditional branch that is never taken (perfectly predictable)";
    case Pattern::Alternating:
        return "conditional branch alternating taken / not taken (predictable with history)";
    case Pattern::Random:
        return "conditional branch taken at random, 50 % (unpredictable: measures the "
               "misprediction penalty)";
    }
    return {};
}

std::vector<KernelParameter> BranchPatternKernel::parameters() const {
    std::vector<KernelParameter> list = {
        KernelParameter::number("fillers", "independent int-alu ops before each branch", 4, 0, 256),
        warmupParameter(256, 1'000'000)};
    if (pattern_ == Pattern::Random)
        list.insert(list.begin() + 1,
                    KernelParameter::number("seed", "seed of the branch outcomes", 1, 0,
                                            std::numeric_limits<std::uint64_t>::max()));
    return list;
}

std::string BranchPatternKernel::iterationMeaning() const {
    return "fillers, compare, conditional branch, then-op when not taken, loop-closing jump";
}

std::uint64_t BranchPatternKernel::defaultIterations(const KernelParams& params) const {
    return std::max<std::uint64_t>(1000, 100'000 / (params.number("fillers") + 4));
}

void BranchPatternKernel::emitLoop(const KernelParams& params, std::uint64_t iterations,
                               KernelBuilder& builder) const {
    const std::uint64_t fillers = params.number("fillers");
    const std::uint64_t warmup = params.number("warmup");
    KernelRandom random(pattern_ == Pattern::Random ? params.number("seed") : 0);

    const std::uint64_t head = builder.pc();
    for (std::uint64_t it = 0; it < warmup + iterations; ++it) {
        if (it == warmup)
            builder.beginMeasurement();
        bool taken = true;
        switch (pattern_) {
        case Pattern::AlwaysTaken:
            break;
        case Pattern::NeverTaken:
            taken = false;
            break;
        case Pattern::Alternating:
            taken = it % 2 == 0;
            break;
        case Pattern::Random:
            taken = random.coin();
            break;
        }
        for (std::uint64_t i = 0; i < fillers; ++i)
            builder.independentOp(InstrClass::IntAlu, i);
        builder.compare({KernelBuilder::kConstGprA});
        // Taken skips the then-block (one int-alu op) and lands on the loop-closing jump.
        const std::uint64_t join = builder.pc() + KernelBuilder::kConditionalBranchSize +
                                   KernelBuilder::instructionSize(InstrClass::IntAlu);
        builder.conditionalBranch(taken, join, {ArchReg::kFlags});
        if (!taken)
            builder.independentOp(InstrClass::IntAlu, fillers);
        builder.jump(head);
    }
}

} // namespace concorde::synthetic
