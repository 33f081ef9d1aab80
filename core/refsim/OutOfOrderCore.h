#pragma once

#include "analysis/LatencyTable.h"
#include "analysis/MemorySystemSpec.h"
#include "analysis/WarmState.h"
#include "params/CoreConfig.h"
#include "refsim/DependencyGraph.h"
#include "refsim/PipelineSpec.h"
#include "refsim/SimulationListener.h"
#include "refsim/TimedMemorySystem.h"
#include "trace/TraceRecord.h"

#include <span>
#include <vector>

namespace concorde {

/// The reference cycle-level out-of-order core (docs/design.md §6): deterministic and trace-driven
/// (the trace is the committed path; mispredictions stall fetch until the branch resolves).
///
/// Front end: fetch requests I-cache lines in program order (PipelineSpec::lineRequestsPerCycle
/// per cycle), each held in one of `fetch_buffers` entries until fetch has delivered all its
/// instructions; at most `icache_fills` line misses are outstanding. Fetch delivers up to
/// `fetch_width` instructions per cycle from ready lines and stops after a taken branch (one taken
/// branch per cycle). Branch targets come from the BranchTargetPredictor of PipelineSpec::targets
/// (the same BTB, return stack and indirect predictor the trace analysis runs): a taken branch
/// that misses the BTB ends its line and stops line requests until it is decoded, plus
/// redirectCycles (PipelineSpec::btbMissBubble()); a wrong return or indirect target is a full
/// misprediction like a wrong direction. Decode (`decode_width`) and rename/dispatch
/// (`rename_width`) follow with the PipelineSpec latencies. Dispatch allocates the ROB, and an LQ
/// entry for an instruction with loads, an SQ entry for one with stores. ROB and LQ entries free
/// at commit; an SQ entry frees when its stores have been written to the L1d (below), so store
/// misses push back on dispatch.
///
/// Back end: an instruction issues once its register and memory producers have results, oldest
/// first, per cycle at most `alu_issue` integer/branch ops, `fp_issue` FP/SIMD ops and `ls_issue`
/// memory ops; a store needs a load-store pipe, a load a load pipe or a load-store pipe. Loads go
/// through TimedMemorySystem (MSHRs, prefetcher, L2 and DRAM bandwidth). Fences dispatch into an
/// empty ROB, block younger instructions until they commit, and commit only once every older
/// store has been written. Commit retires up to `commit_width` completed instructions per cycle
/// in order. Warm-up records train caches and predictors (direction and target) untimed; a
/// functional warm-up state warms the caches and TAGE but not the branch-target structures, which
/// warm over the detailed warm-up records only.
///
/// Store buffer: committed stores are sent to the L1d oldest first, from the cycle after commit,
/// at most one per load-store pipe (`ls_pipes`) per cycle. A hit is written in that cycle; a
/// miss allocates the line and reads it for ownership (an L1d MSHR, then L2, LLC or DRAM) and is
/// written when it arrives; a store that finds no free MSHR holds back the younger ones. Sent
/// stores complete out of order. A load whose store producer has not been written yet, whether
/// it is still in the ROB or already committed, gets the data forwarded at L1 latency.
///
/// Everything it measures leaves through SimulationListener events.
class OutOfOrderCore {
public:
    explicit OutOfOrderCore(const CoreConfig& config, const MemorySystemSpec& memory = {},
                            const PipelineSpec& pipeline = {}, const LatencyTable& latencies = {});

    /// Listeners are called in the order added; they must outlive run().
    void addListener(SimulationListener& listener) { listeners_.push_back(&listener); }

    /// Warms up on records[0, warmup) and simulates records[warmup, end) cycle by cycle.
    /// With `warm`, the caches, prefetcher and TAGE start from that functional warm-up state
    /// before the warm-up records. `graph`, when given, must be the DependencyGraph of the same
    /// records and warm-up (built once for many configurations); otherwise run() builds it.
    /// Returns the number of cycles the measured part took.
    std::uint64_t run(std::span<const TraceRecord> records, std::size_t warmup,
                      const WarmState* warm = nullptr, const DependencyGraph* graph = nullptr);

    const CoreConfig& config() const { return config_; }
    const PipelineSpec& pipeline() const { return pipeline_; }
    /// The memory system's counters of the last run() (prefetches, DRAM reads, writebacks).
    const TimedMemorySystem::Counters& memoryCounters() const { return memoryCounters_; }

private:
    CoreConfig config_;
    MemorySystemSpec memory_;
    PipelineSpec pipeline_;
    LatencyTable latencies_;
    std::vector<SimulationListener*> listeners_;
    TimedMemorySystem::Counters memoryCounters_;
};

} // namespace concorde
