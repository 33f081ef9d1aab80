#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

namespace concorde::synthetic {

/// `indirect-dispatch`: an interpreter loop. One indirect jump (the dispatch) goes to one of
/// `handlers` handlers; each handler is one independent int-alu op and a jump back to the
/// dispatch. The dispatch reads a register no kernel writes, so it resolves as early as a branch
/// can: a wrong target costs exactly the minimum misprediction penalty.
///
/// The sequence of handlers (the "bytecode"):
/// - `pattern=cyclic`: 0, 1, 0, 2, 0, 3, …, 0, h−1, repeated. After a non-zero handler comes 0,
///   and after 0 comes the successor of the handler before it: the previous target alone does not
///   tell (a last-target predictor is wrong on every dispatch), two previous targets always do,
///   so a predictor with at least two targets of history learns it completely;
/// - `pattern=random`: uniformly random handlers (seeded): whatever the predictor learnt, the
///   next target is right with probability 1/h.
///
/// Per dispatch 3 instructions in two fetch groups (the dispatch; the op and the jump back), so
/// with right targets fetch takes 2 cycles per dispatch, and each wrong one adds the penalty
/// minus the cycle the taken dispatch takes anyway.
class IndirectDispatchKernel : public MicrobenchKernel {
public:
    std::string name() const override { return "indirect-dispatch"; }
    std::string description() const override;
    std::vector<KernelParameter> parameters() const override;
    std::string iterationMeaning() const override;
    std::uint64_t defaultIterations(const KernelParams& params) const override;

protected:
    void emitLoop(const KernelParams& params, std::uint64_t iterations,
                  KernelBuilder& builder) const override;
};

} // namespace concorde::synthetic
