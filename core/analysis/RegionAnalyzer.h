#pragma once

#include "analysis/AnnotatedRegion.h"
#include "analysis/BranchTargetSpec.h"
#include "analysis/LatencyTable.h"
#include "analysis/MemoryConfig.h"
#include "analysis/MemorySystemSpec.h"
#include "analysis/TagePredictor.h"
#include "analysis/WarmState.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>

namespace concorde {

/// Runs the trace analysis of docs/design.md §5 over one region: register and memory dependencies,
/// TAGE prediction, branch targets (BTB, return stack, indirect predictor: BranchTargetPredictor,
/// the one the reference simulator runs), in-order L1i/L1d/L2/LLC simulation with the stride
/// prefetcher, latency estimates and memory-ordering episodes.
///
/// Input is a region as TraceReader::readRegion returns it: `warmup` warm-up records followed by
/// the measured ones. Every stateful model (caches, prefetcher, TAGE, dependency writers) starts
/// cold at the first warm-up record, so results depend only on the region's records and the
/// configuration: deterministic and independent of what was analysed before. Warm-up records
/// train the models but get no annotation and are not counted.
///
/// Instruction fetch: an instruction starts a new I-cache access when it is the first, when its
/// line differs from the line fetched last, or when the previous instruction was a taken branch
/// (the fetch unit redirects and re-reads the line); an instruction that spans two lines also
/// accesses the second. Data: each load and store of a record is one cache access, loads before
/// stores.
///
/// Everything but the memory annotations is independent of the MemoryConfig; annotateMemory()
/// redoes only the memory part for another configuration, reusing the rest.
///
/// Stateless and const: one analyzer may serve many threads.
class RegionAnalyzer {
public:
    explicit RegionAnalyzer(const MemorySystemSpec& spec = {}, const LatencyTable& latencies = {},
                            const TagePredictor::Geometry& tage = {},
                            const BranchTargetSpec& targets = {});

    /// Full analysis. Throws a bad-input ConcordeError if warmup > records.size(). With `warm`,
    /// the caches, prefetcher and TAGE start from that functional warm-up state instead of cold
    /// (the region keeps it, so annotateMemory() starts from it too); the branch-target
    /// structures always start cold at the first warm-up record.
    AnnotatedRegion analyze(std::span<const TraceRecord> records, std::uint64_t warmup,
                            const MemoryConfig& config,
                            std::shared_ptr<const WarmState> warm = {}) const;

    /// Recomputes the memory-dependent annotations of `region` (levels, latencies, line and
    /// episode ids, memory stats) for `config`. `records` must be the records `region` was
    /// analysed from (same length and warm-up).
    void annotateMemory(AnnotatedRegion& region, std::span<const TraceRecord> records,
                        const MemoryConfig& config) const;

    /// Timed loads (the default): a prefetched line arrives a fill latency after the load that
    /// triggered it (AnnotatedRegion::prefetches), and line fills share the spec's L1d MSHRs
    /// (AnnotatedRegion::loadMshrs). With `timed` false, neither: a prefetched line is a plain
    /// L1 hit and misses are unlimited, as the analysis computed before (feature databases from
    /// then keep being extended in that kind).
    void setTimedLoads(bool timed) { timedLoads_ = timed; }
    bool timedLoads() const { return timedLoads_; }

    const MemorySystemSpec& spec() const { return spec_; }
    const LatencyTable& latencies() const { return latencies_; }
    const TagePredictor::Geometry& tageGeometry() const { return tage_; }
    const BranchTargetSpec& targetSpec() const { return targets_; }

private:
    MemorySystemSpec spec_;
    LatencyTable latencies_;
    TagePredictor::Geometry tage_;
    BranchTargetSpec targets_;
    bool timedLoads_ = true;
};

} // namespace concorde
