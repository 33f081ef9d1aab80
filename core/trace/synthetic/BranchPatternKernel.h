#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// One conditional branch per loop iteration with an outcome pattern of known predictability:
/// `branch-taken` (always taken), `branch-not-taken` (never taken), `branch-alternating`
/// (taken, not taken, ... — trivial for a history predictor, 50 % wrong for a bimodal
/// counter) and `branch-random` (a fair coin per iteration from `seed`: unpredictable).
///
/// One iteration: `fillers` independent int-alu ops; `test r12, r12` (writes the flags);
/// `jcc` (reads the flags); a one-op then-block that the taken branch skips; a loop-closing
/// `jmp`. The condition depends only on a read-only register, so the branch resolves as soon
/// as it issues and a misprediction costs the pipeline refill alone. Effects to keep in mind:
/// a not-taken iteration executes one more int-alu op, and every iteration has one extra,
/// always-taken unconditional jump (perfectly predictable, one fetch redirect).
class BranchPatternKernel : public MicrobenchKernel {
public:
    enum class Pattern { AlwaysTaken, NeverTaken, Alternating, Random };

    explicit BranchPatternKernel(Pattern pattern);

    std::string name() const override;
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
              KernelBuilder& builder) const override;

private:
    Pattern pattern_;
};

} // namespace concorde::synthetic
