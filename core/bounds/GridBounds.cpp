#include "bounds/GridBounds.h"

#include "analysis/RegionAnalyzer.h"
#include "bounds/BoundsCalculator.h"
#include "bounds/FrontEndModel.h"
#include "bounds/IssueModel.h"
#include "bounds/QueueModel.h"
#include "common/ConcordeError.h"
#include "params/ParameterSpace.h"

#include <atomic>
#include <map>
#include <mutex>
#include <tbb/parallel_for.h>

namespace concorde {

BoundsGrid defaultBoundsGrid() {
    BoundsGrid grid;
    for (const auto& spec : ParameterSpace::all())
        grid[index(spec.id)] = spec.grid;
    return grid;
}

namespace {

std::vector<MemoryConfig> memoryConfigurations(const BoundsGrid& grid) {
    std::vector<MemoryConfig> configs;
    for (double l1d : grid[index(ParamId::L1dKb)])
        for (double l1i : grid[index(ParamId::L1iKb)])
            for (double l2 : grid[index(ParamId::L2Kb)])
                for (double pf : grid[index(ParamId::PrefetchDegree)])
                    configs.push_back({static_cast<int>(l1d), static_cast<int>(l1i),
                                       static_cast<int>(l2), static_cast<int>(pf)});
    return configs;
}

GridSeries memorySeries(std::string name, const MemoryConfig& memory, ParamId param, double value,
                        WindowSeries values) {
    return {std::move(name), true, memory, {{param, value}}, std::move(values)};
}

} // namespace

GridBounds::Result GridBounds::build(std::span<const TraceRecord> records, std::uint64_t warmup,
                                     const BoundsGrid& grid, std::uint32_t windowSize,
                                     const JobControl& job, std::shared_ptr<const WarmState> warm,
                                     AnalysisRevision revision) {
    for (const auto& spec : ParameterSpace::all())
        for (double value : grid[index(spec.id)])
            CoreConfig::validate(spec.id, value);
    const std::vector<MemoryConfig> memories = memoryConfigurations(grid);
    if (memories.empty())
        throw badInput("the grid has no memory configuration");
    RegionAnalyzer analyzer;
    analyzer.setTimedLoads(revision.timedLoads);
    const BoundsCalculator calculator(windowSize);
    Result result;
    result.windowSize = windowSize;
    result.memoryConfigurations = memories.size();

    // Memory configurations that differ only in the L1i go to one thread, one after the other:
    // where the L1i changes no data access (RobModel::sameSystemAs), the ROB and LQ series, the
    // costliest of the grid, are the previous configuration's.
    std::map<std::uint64_t, std::vector<std::size_t>> byDataSide;
    for (std::size_t m = 0; m < memories.size(); ++m) {
        MemoryConfig dataSide = memories[m];
        dataSide.l1iKb = 0;
        byDataSide[dataSide.packedKey()].push_back(m);
    }
    std::vector<std::vector<std::size_t>> groups;
    for (auto& [key, members] : byDataSide)
        groups.push_back(std::move(members));

    std::mutex mutex;
    std::atomic<std::size_t> done{0}, reused{0};
    const auto& g = grid;
    // The ROB series, its latency components and fixed-size throughputs, and (through commit)
    // the LQ series: runs of the ROB system, which sees only the data side of the memory.
    const auto robAndLoadQueueSeries = [&](BoundsCalculator::Prepared& prepared,
                                           const MemoryConfig& memory) {
        std::vector<GridSeries> local;
        std::map<std::uint32_t, double> overallIpc; // ROB size → whole-region throughput
        for (double rob : g[index(ParamId::Rob)]) {
            const auto r = prepared.rob.run(static_cast<std::uint32_t>(rob), windowSize);
            overallIpc[static_cast<std::uint32_t>(rob)] = r.overallIpc;
            local.push_back(memorySeries("rob", memory, ParamId::Rob, rob, r.ipc));
            local.push_back(memorySeries("rob.issue_wait", memory, ParamId::Rob, rob, r.issueWait));
            local.push_back(memorySeries("rob.execution", memory, ParamId::Rob, rob, r.execution));
            local.push_back(
                memorySeries("rob.commit_wait", memory, ParamId::Rob, rob, r.commitWait));
        }
        // Whole-region ROB throughput at fixed sizes: one value per size, stored as a series of
        // one element so everything in the grid has one shape.
        for (std::uint32_t size : BoundsCalculator::auxiliaryRobSizes()) {
            const auto known = overallIpc.find(size);
            const double ipc = known != overallIpc.end()
                                   ? known->second
                                   : prepared.rob.run(size, windowSize).overallIpc;
            local.push_back({"rob_" + std::to_string(size),
                             true,
                             memory,
                             {},
                             WindowSeries{static_cast<float>(ipc)}});
        }
        if (revision.loadQueueThroughCommit)
            for (double lq : g[index(ParamId::LoadQueue)])
                local.push_back(memorySeries(
                    "lq", memory, ParamId::LoadQueue, lq,
                    prepared.rob.runLoadQueue(static_cast<std::uint32_t>(lq), windowSize).ipc));
        return local;
    };
    // Every other series of a memory configuration; with `first`, also the memory-independent
    // ones.
    const auto otherSeries = [&](const AnnotatedRegion& region,
                                 BoundsCalculator::Prepared& prepared, const MemoryConfig& memory,
                                 bool first, std::vector<GridSeries>& local) {
        if (!revision.loadQueueThroughCommit)
            for (double lq : g[index(ParamId::LoadQueue)])
                local.push_back(
                    memorySeries("lq", memory, ParamId::LoadQueue, lq,
                                 QueueModel::run(prepared.index, QueueModel::Kind::Load,
                                                 static_cast<std::uint32_t>(lq), windowSize)));
        // Stores drain through the L1d after commit: the SQ sees the memory.
        if (revision.timedStores)
            for (double sq : g[index(ParamId::StoreQueue)])
                local.push_back(
                    memorySeries("sq", memory, ParamId::StoreQueue, sq,
                                 QueueModel::run(prepared.index, QueueModel::Kind::Store,
                                                 static_cast<std::uint32_t>(sq), windowSize)));
        for (double fills : g[index(ParamId::IcacheFills)])
            local.push_back(
                memorySeries("icache_fills", memory, ParamId::IcacheFills, fills,
                             FrontEndModel::icacheFills(
                                 prepared.index, static_cast<std::uint32_t>(fills), windowSize)));
        for (double buffers : g[index(ParamId::FetchBuffers)])
            local.push_back(
                memorySeries("fetch_buffers", memory, ParamId::FetchBuffers, buffers,
                             FrontEndModel::fetchBuffers(
                                 prepared.index, static_cast<std::uint32_t>(buffers), windowSize)));

        // The memory-independent models, computed with the first memory configuration.
        if (first) {
            result.instructions = region.size();
            const IssueModel::Counts& counts = prepared.counts;
            const auto plain = [&](std::string name, ParamId param, double value,
                                   WindowSeries values) {
                local.push_back({std::move(name), false, {}, {{param, value}}, std::move(values)});
            };
            for (double w : g[index(ParamId::AluIssue)])
                plain("alu_issue", ParamId::AluIssue, w,
                      IssueModel::width(counts, IssueGroup::Alu, static_cast<int>(w)));
            for (double w : g[index(ParamId::FpIssue)])
                plain("fp_issue", ParamId::FpIssue, w,
                      IssueModel::width(counts, IssueGroup::Fp, static_cast<int>(w)));
            for (double w : g[index(ParamId::LsIssue)])
                plain("ls_issue", ParamId::LsIssue, w,
                      IssueModel::width(counts, IssueGroup::Memory, static_cast<int>(w)));
            for (double w : g[index(ParamId::FetchWidth)])
                plain("fetch_width", ParamId::FetchWidth, w,
                      FrontEndModel::fetchWidth(prepared.index, static_cast<std::uint32_t>(w),
                                                windowSize));
            if (!revision.timedStores)
                for (double sq : g[index(ParamId::StoreQueue)])
                    plain("sq", ParamId::StoreQueue, sq,
                          QueueModel::run(prepared.index, QueueModel::Kind::UntimedStore,
                                          static_cast<std::uint32_t>(sq), windowSize));
            for (double ls : g[index(ParamId::LsPipes)])
                for (double lp : g[index(ParamId::LoadPipes)]) {
                    auto pipes =
                        IssueModel::pipes(counts, static_cast<int>(ls), static_cast<int>(lp));
                    local.push_back({"pipes",
                                     false,
                                     {},
                                     {{ParamId::LsPipes, ls}, {ParamId::LoadPipes, lp}},
                                     std::move(pipes.upper)});
                    local.push_back({"pipes_lower",
                                     false,
                                     {},
                                     {{ParamId::LsPipes, ls}, {ParamId::LoadPipes, lp}},
                                     std::move(pipes.lower)});
                }
            for (const auto& [name, series] : prepared.fixedAuxiliary)
                local.push_back({name, false, {}, {}, series});
            // Mispredictions: TAGE, and the simple predictor at each grid rate.
            const std::size_t windows = counts.instructions.size();
            const auto perKilo = [&](const std::vector<std::uint8_t>& flags) {
                WindowSeries s(windows, 0.0f);
                for (std::size_t i = 0; i < flags.size(); ++i)
                    s[i / windowSize] += flags[i];
                for (std::size_t k = 0; k < windows; ++k)
                    s[k] *= static_cast<float>(1000.0 / counts.instructions[k]);
                return s;
            };
            for (double bp : g[index(ParamId::BranchPredictor)]) {
                if (bp == 1.0) {
                    local.push_back({"mispredicts_pki",
                                     false,
                                     {},
                                     {{ParamId::BranchPredictor, 1.0}},
                                     perKilo(region.mispredictions(BranchPredictorKind::Tage, 0))});
                    continue;
                }
                for (double pct : g[index(ParamId::BpMissPct)])
                    local.push_back(
                        {"mispredicts_pki",
                         false,
                         {},
                         {{ParamId::BranchPredictor, 0.0}, {ParamId::BpMissPct, pct}},
                         perKilo(region.mispredictions(BranchPredictorKind::Simple, pct))});
            }
        }
    };
    tbb::parallel_for(std::size_t(0), groups.size(), [&](std::size_t group) {
        std::unique_ptr<const AnnotatedRegion> previousRegion;
        std::unique_ptr<BoundsCalculator::Prepared> previous;
        std::vector<GridSeries> robAndLoadQueue; // the latest configuration's
        for (const std::size_t m : groups[group]) {
            if (job.cancelled())
                return;
            const MemoryConfig& memory = memories[m];
            auto region = std::make_unique<const AnnotatedRegion>(
                analyzer.analyze(records, warmup, memory, warm));
            auto prepared = std::make_unique<BoundsCalculator::Prepared>(*region, windowSize);
            if (previous && prepared->rob.sameSystemAs(previous->rob)) {
                for (GridSeries& series : robAndLoadQueue)
                    series.memory = memory;
                ++reused;
            } else {
                robAndLoadQueue = robAndLoadQueueSeries(*prepared, memory);
            }
            std::vector<GridSeries> local = robAndLoadQueue;
            otherSeries(*region, *prepared, memory, m == 0, local);
            {
                std::lock_guard lock(mutex);
                for (auto& s : local)
                    result.series.push_back(std::move(s));
            }
            previous = std::move(prepared);
            previousRegion = std::move(region);
            job.report(++done, memories.size());
        }
    });
    result.reusedMemoryConfigurations = reused;
    job.throwIfCancelled("the grid bounds computation");
    // Deterministic order regardless of thread scheduling.
    std::sort(result.series.begin(), result.series.end(),
              [](const GridSeries& a, const GridSeries& b) {
                  if (a.name != b.name)
                      return a.name < b.name;
                  if (a.memory.packedKey() != b.memory.packedKey())
                      return a.memory.packedKey() < b.memory.packedKey();
                  return a.settings < b.settings;
              });
    return result;
}

} // namespace concorde
