#pragma once

#include "trace/TraceInfo.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace concorde {

/// Counts reported by an import or export, for the user and for tests.
struct ChampSimConversionStats {
    std::uint64_t records = 0;
    std::uint64_t truncatedOperands = 0; ///< records that lost operands ChampSim/we cannot hold
    /// Per exported region: the records written before its own (ExportOptions::regionPrelude).
    std::vector<std::uint64_t> preludeRecords;
};

/// Converts between ChampSim traces (raw, .xz or .gz) and .ctrace, streaming in both directions.
///
/// What does not survive: ChampSim records carry no instruction size, operation class or access
/// size. Imports infer the size from the next record's address when control falls through (else
/// 4 bytes), classify instructions as branch, load-only, store-only or int-alu, and assume 8-byte
/// accesses. Exports keep PCs, branch kinds and outcomes, registers (up to ChampSim's 4 sources
/// and 2 destinations) and memory addresses (up to 4 loads and 2 stores).
class ChampSimConverter {
public:
    struct ImportOptions {
        std::uint64_t skip = 0;   ///< records to skip at the start
        std::uint64_t warmup = 0; ///< records after the skip that form the region's warm-up
        std::uint64_t length = UINT64_MAX; ///< measured records after the warm-up
    };

    static ChampSimConversionStats importTrace(const std::filesystem::path& champsimTrace,
                                               const std::filesystem::path& ctraceOut,
                                               const ImportOptions& options);
    struct ExportOptions {
        /// Records written before each region's own (its warm-up then measured records), e.g.
        /// a replay of its functional warm-up state; none when unset.
        std::function<std::vector<TraceRecord>(std::size_t regionIndex, const Region& region)>
            regionPrelude;
    };

    /// Exports every region of the .ctrace in file order, each as its prelude (if any), its
    /// warm-up records and its measured records, so that ChampSim's --warmup-instructions can
    /// replay a single region's warm-up.
    static ChampSimConversionStats exportTrace(const std::filesystem::path& ctrace,
                                               const std::filesystem::path& champsimOut,
                                               const ExportOptions& options = {});
};

} // namespace concorde
