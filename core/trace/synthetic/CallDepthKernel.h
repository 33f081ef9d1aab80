#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `call-depth`: a chain of `depth` nested calls through distinct functions, then their
/// returns. The loop head calls f1; each f_k (k < depth) calls f_k+1 and returns; f_depth
/// returns at once; the loop then jumps back. Every instruction is a taken branch (2·depth + 1
/// per iteration: depth calls, depth returns, the jump), so with perfect prediction fetch delivers
/// one per cycle.
///
/// Each function sits on its own 64-byte line and has one call site, so the depth return
/// addresses are distinct: a return stack of R < depth entries keeps only the R innermost and
/// the outer depth − R returns of every iteration mispredict (each costing a full misprediction).
/// Self-recursion from a single call site would push one address over and over and not show the
/// stack's depth.
class CallDepthKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "call-depth"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
                  KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
