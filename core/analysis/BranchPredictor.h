#pragma once

#include "trace/TraceRecord.h"

namespace concorde {

/// A trace-driven branch predictor: it sees each branch once, predicts it and immediately trains
/// on the actual outcome (the trace is the committed path, so there is no wrong-path history).
///
/// What counts as a misprediction is the same for every implementation:
/// - conditional branches: the direction;
/// - indirect jumps: the target (an implementation may assume them perfect, see its docs);
/// - direct unconditional jumps, calls and returns: never.
/// The trace analysis and the reference simulator take only the verdict on conditional branches
/// from a BranchPredictor: every target (BTB, return stack, indirect jumps) comes from the one
/// BranchTargetPredictor they share.
class BranchPredictor {
public:
    virtual ~BranchPredictor() = default;

    /// Predicts the branch in `record`, then trains on its outcome. Returns true when the
    /// prediction was wrong. Non-branch records are ignored (false).
    virtual bool predictAndUpdate(const TraceRecord& record) = 0;
    /// Returns the predictor to its freshly constructed state.
    virtual void reset() = 0;
};

} // namespace concorde
