#pragma once

#include "analysis/TagePredictor.h"
#include "analysis/WarmState.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <deque>
#include <span>
#include <unordered_map>

namespace concorde {

/// Builds a WarmState from the functional warm-up's records, in program order: every
/// instruction fetch line and data line touched (with its last use), the recent demand loads,
/// and a TAGE predictor trained on every branch. Memory grows with the distinct lines touched;
/// the result is bounded by finestSets() × ways() lines.
class WarmStateBuilder {
public:
    explicit WarmStateBuilder(std::uint32_t lineShift = 6,
                              const TagePredictor::Geometry& tage = {});

    void observe(const TraceRecord& record);
    void observe(std::span<const TraceRecord> records) {
        for (const TraceRecord& r : records)
            observe(r);
    }
    std::uint64_t instructions() const { return instructions_; }

    /// The warm state after everything observed so far.
    WarmState finish() const;

private:
    struct LastUse {
        std::uint64_t stamp = 0;
        bool instruction = false;
    };
    void touch(std::uint64_t line, bool instruction);

    std::uint32_t lineShift_;
    std::uint64_t instructions_ = 0;
    std::uint64_t stamp_ = 0;
    std::uint64_t lastFetchLine_ = ~std::uint64_t{0};
    std::unordered_map<std::uint64_t, LastUse> lastUse_;
    std::deque<WarmState::Load> recentLoads_;
    TagePredictor tage_;
};

} // namespace concorde
