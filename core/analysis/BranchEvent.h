#pragma once

#include "trace/TraceRecord.h"

#include <cstdint>

namespace concorde {

/// A branch as the predictors observe it during a functional warm-up: what WarmStateBuilder
/// logs instead of training its predictors, for WarmStateWorker to train them in the same order
/// (TagePredictor::train takes a run of them at once).
struct BranchEvent {
    std::uint64_t pc = 0;
    std::uint64_t target = 0; ///< TraceRecord::branchTarget
    std::uint8_t size = 0;
    BranchKind kind = BranchKind::None;
    bool taken = false;
    /// true: every predictor trains on it (predictAndUpdate); false: only TAGE's base
    /// predictor (TagePredictor::trainBase).
    bool trainPredictor = false;

    /// Sets the fields of `record` that the predictors read; the others stay as they are.
    void toRecord(TraceRecord& record) const {
        record.pc = pc;
        record.size = size;
        record.branchKind = kind;
        record.taken = taken;
        record.branchTarget = target;
    }
};

} // namespace concorde
