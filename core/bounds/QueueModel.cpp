#include "bounds/QueueModel.h"

#include "analysis/MemoryOrderingModel.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace concorde {

WindowSeries QueueModel::run(const RegionIndex& index, Kind kind, std::uint32_t queueSize,
                             std::uint32_t windowSize, std::uint32_t storeMshrs) {
    const AnnotatedRegion& region = index.region;
    if (kind == Kind::Store)
        return runStores(index, queueSize, windowSize, storeMshrs);
    const std::vector<std::uint32_t>& members = kind == Kind::Load ? index.loads : index.stores;
    const std::size_t q = std::max<std::uint32_t>(queueSize, 1);
    MemoryOrderingModel memory(region);
    std::vector<double> commit(members.size());
    double lastCommit = 0;
    for (std::size_t j = 0; j < members.size(); ++j) {
        const AnnotatedInstruction& inst = region[members[j]];
        const double s = j < q ? 0.0 : commit[j - q];
        const double f = kind == Kind::Load
                             ? memory.respondLoad(members[j], inst, s) + inst.classLatency
                             : s + inst.classLatency;
        lastCommit = std::max(lastCommit, f);
        commit[j] = lastCommit;
    }
    // Other instructions are free: they complete with the last queue instruction before them.
    return WindowBounds::fromEvents(members, commit, region.size(), windowSize);
}

WindowSeries QueueModel::runStores(const RegionIndex& index, std::uint32_t queueSize,
                                   std::uint32_t windowSize, std::uint32_t storeMshrs) {
    const AnnotatedRegion& region = index.region;
    const std::vector<std::uint32_t>& stores = index.stores;
    const std::size_t q = std::max<std::uint32_t>(queueSize, 1);
    const std::size_t mshrs = std::max<std::uint32_t>(storeMshrs, 1);
    const double dramGap = region.spec.dramCyclesPerLine();
    using MinHeap = std::priority_queue<double, std::vector<double>, std::greater<>>;
    MinHeap occupied;  // when each store in the SQ is written (its entry frees)
    MinHeap mshrsBusy; // when each outstanding read-for-ownership fill arrives
    std::vector<double> lineArrival(region.lineCount, 0.0);
    std::vector<double> commit(stores.size());
    double dispatch = 0, lastCommit = 0, lastSend = 0, dramFree = 0;
    for (std::size_t j = 0; j < stores.size(); ++j) {
        const AnnotatedInstruction& inst = region[stores[j]];
        // Dispatch in order once an entry is free; entries free out of order, when written.
        if (occupied.size() >= q) {
            dispatch = std::max(dispatch, occupied.top());
            occupied.pop();
        }
        lastCommit = std::max(lastCommit, dispatch + inst.classLatency);
        commit[j] = lastCommit;
        // Sent to the L1d oldest first, from the cycle after commit; a miss without a free MSHR
        // holds back the younger stores.
        double send = std::max(lastCommit + 1.0, lastSend);
        double written = send;
        const double inFlight = inst.lineId < lineArrival.size() ? lineArrival[inst.lineId] : 0.0;
        if (inFlight > send) {
            written = inFlight; // its line is on its way: written when it arrives
        } else if (inst.storeLevel != MemLevel::L1) {
            while (!mshrsBusy.empty() && mshrsBusy.top() <= send)
                mshrsBusy.pop();
            if (mshrsBusy.size() >= mshrs) {
                send = std::max(send, mshrsBusy.top());
                mshrsBusy.pop();
            }
            written = send + region.spec.latency(inst.storeLevel);
            if (inst.storeLevel == MemLevel::Dram) {
                dramFree = std::max(dramFree, send) + dramGap;
                written = std::max(written, dramFree);
            }
            mshrsBusy.push(written);
            if (inst.lineId < lineArrival.size())
                lineArrival[inst.lineId] = written;
        }
        lastSend = send;
        occupied.push(written);
    }
    // Other instructions are free: they complete with the last store before them.
    return WindowBounds::fromEvents(stores, commit, region.size(), windowSize);
}

} // namespace concorde
