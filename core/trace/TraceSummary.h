#pragma once

#include "trace/InstrClass.h"
#include "trace/TraceRecord.h"

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>

namespace concorde {

class TraceReader;

/// Instruction-mix statistics over a stream of records (what `concorde info` prints).
struct TraceSummary {
    std::uint64_t instructions = 0;
    std::array<std::uint64_t, kInstrClassCount> byClass{};
    std::array<std::uint64_t, kBranchKindCount> byBranchKind{};
    std::uint64_t withLoad = 0;  ///< instructions that read memory
    std::uint64_t withStore = 0; ///< instructions that write memory
    std::uint64_t branches = 0;
    std::uint64_t takenBranches = 0;

    void add(const TraceRecord& record);
    /// Reads every record of `reader` from the start.
    static TraceSummary of(TraceReader& reader);

    double fraction(std::uint64_t count) const {
        return instructions ? static_cast<double>(count) / static_cast<double>(instructions) : 0.0;
    }
    nlohmann::json toJson() const;
};

} // namespace concorde
