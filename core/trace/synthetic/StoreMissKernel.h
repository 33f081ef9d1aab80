#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `store-miss`: a stream of independent stores, each to a line never touched before
/// (MissPairKernel::freshLine, so every store misses to DRAM and the addresses look random to a
/// prefetcher), separated by N independent int-alu fillers.
///
/// One iteration is: store; N fillers; loop-closing `jmp` (N + 2 instructions). With the front
/// end delivering one instruction per cycle (fetch_width = 1) an unconstrained iteration takes
/// P = N + 2 cycles. An SQ entry is held from dispatch until the store has been written, i.e.
/// until its read-for-ownership returns from DRAM, T cycles; so s entries sustain one store per
/// T / s cycles and the SQ stops binding at s = ⌈T / P⌉ (the knee), provided the misses in
/// flight, T / P, fit in the L1d MSHRs.
class StoreMissKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "store-miss"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void validate(const KernelParams& params, std::uint64_t iterations) const override;
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
                  KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
