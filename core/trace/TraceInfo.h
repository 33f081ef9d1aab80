#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

/// One region of a trace: `warmup` records that warm caches and predictors, followed by
/// `length` measured records. Regions are stored back to back in the record stream.
struct Region {
    std::uint64_t programStart = 0; ///< index in the program's dynamic instruction stream of the
                                    ///< first measured instruction
    std::uint64_t warmup = 0;       ///< warm-up records before the measured ones
    std::uint64_t length = 0;       ///< measured records
    std::uint64_t firstRecord = 0;  ///< index in this file of the region's first (warm-up) record
    /// Basic-block vector of the measured part, sparse: (block start PC, instructions executed
    /// in that block). Empty when the source could not provide one.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> basicBlockVector;
    /// Instructions of functional warm-up before the detailed warm-up (0: none, a cold region).
    std::uint64_t functionalWarmup = 0;
    /// The machine state after that functional warm-up, in WarmState's byte form (analysis/
    /// decodes it); empty for a cold region and for every region of a version-1 trace.
    std::vector<std::uint8_t> warmState;

    std::uint64_t totalRecords() const { return warmup + length; }
    bool operator==(const Region&) const = default;
};

/// Everything in a .ctrace besides the records: where the trace came from and its regions.
struct TraceInfo {
    std::string isa = "x86-64";
    std::string commandLine; ///< the traced program and its arguments, or the kernel invocation
    std::string source;      ///< "tracer", "microbench", "champsim-import", ...
    std::map<std::string, std::string> properties; ///< free-form provenance (kernel parameters...)
    std::vector<Region> regions;
    std::uint64_t recordCount = 0;

    bool operator==(const TraceInfo&) const = default;
};

} // namespace concorde
