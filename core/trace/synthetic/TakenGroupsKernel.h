#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `taken-groups`: groups of g instructions, each group g-1 independent int-alu ops ending in
/// a taken direct `jmp` to the next group; the last group's jump closes the loop. With one
/// taken branch fetched per cycle, IPC is min(fetch width, g): the fetch-width knee is at
/// g = fetch_width.
///
/// Each group starts on its own 64-byte line, after a gap, so a jump never targets its own
/// fall-through address. One iteration is one pass over `groups` groups; the code footprint is
/// groups * groupStride(g) (1 kB with the defaults; at most 320 kB, beyond any L1i, with
/// g = 64 and 1024 groups).
class TakenGroupsKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "taken-groups"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

    /// Distance in bytes between the starts of consecutive groups of `groupSize` instructions.
    static std::uint64_t groupStride(std::uint64_t groupSize);

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
