#pragma once

#include "trace/TraceRecord.h"

namespace concorde {

/// A trace-driven branch predictor: it sees each branch once, predicts it and immediately trains
/// on the actual outcome (the trace is the committed path, so there is no wrong-path history).
///
/// What counts as a misprediction is the same for every implementation:
/// - conditional branches: the direction;
/// - indirect jumps: the target (an implementation may assume them perfect, see its docs);
/// - direct unconditional jumps, calls and returns: never — the BTB and the return address
///   stack are assumed perfect, since traces here come from single-threaded user code whose
///   call depth fits a RAS and whose direct targets fit a BTB.
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
