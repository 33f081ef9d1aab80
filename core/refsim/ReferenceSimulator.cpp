#include "refsim/ReferenceSimulator.h"

#include "refsim/OutOfOrderCore.h"
#include "refsim/StallBreakdownCollector.h"
#include "refsim/WindowIpcCollector.h"

namespace concorde {
namespace {

class MispredictCounter : public SimulationListener {
public:
    void onMispredict(const MispredictEvent&) override { ++count; }
    std::uint64_t count = 0;
};

} // namespace

SimulationResult ReferenceSimulator::simulate(std::span<const TraceRecord> records,
                                              std::size_t warmup, const CoreConfig& config,
                                              std::uint32_t windowSize, const WarmState* warm,
                                              const DependencyGraph* graph) {
    OutOfOrderCore core(config);
    WindowIpcCollector windows(windowSize);
    StallBreakdownCollector stalls;
    MispredictCounter mispredicts;
    core.addListener(windows);
    core.addListener(stalls);
    core.addListener(mispredicts);
    SimulationResult result;
    result.cycles = core.run(records, warmup, warm, graph);
    result.instructions = records.size() - warmup;
    result.windowIpc = windows.windowIpc();
    result.stallCycles = stalls.toJson();
    result.mispredictions = mispredicts.count;
    const TimedMemorySystem::Counters& memory = core.memoryCounters();
    result.memory = {{"prefetches_issued", memory.prefetchesIssued},
                     {"prefetches_dropped", memory.prefetchesDropped},
                     {"store_misses", memory.storeMisses},
                     {"l1d_writebacks", memory.l1Writebacks},
                     {"dram_reads", memory.dramReads},
                     {"dram_writebacks", memory.dramWritebacks}};
    return result;
}

} // namespace concorde
