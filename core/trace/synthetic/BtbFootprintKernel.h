#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `btb-footprint`: a loop of `branches` taken jumps and nothing else. Jump k sits at
/// head + 4k (a 2-byte `jmp rel8` in a 4-byte slot, so its target is never its fall-through
/// address) and goes to jump k + 1; the last one closes the loop. Every instruction is a taken
/// branch, so with a perfect BTB fetch delivers one per cycle (CPI 1).
///
/// BranchTargetPredictor maps every aligned run of `sets` consecutive 4-byte slots one slot per
/// set, and the head is 4 kB aligned, so with `branches` a multiple of the set count (up to 1024
/// sets) each set receives branches / sets of the jumps, always in the same cyclic order. While
/// that is at most the associativity, every jump hits once warm; above it, true LRU evicts each
/// jump before its next use and every jump misses: CPI rises by PipelineSpec::btbMissBubble().
/// The code is 4 bytes per jump (48 kB for 12288 jumps), so it stays in a 64 kB L1i.
class BtbFootprintKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "btb-footprint"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

    /// Distance in bytes between consecutive jumps.
    static constexpr std::uint64_t kSlotBytes = 4;

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
                  KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
