// Analytical bounds speed (docs/design.md §12: all bounds for one configuration of a
// 100k-instruction region ≤ 5 ms; the trace analysis for a memory configuration is measured
// separately because it is shared by every configuration with the same memory parameters).
#include "analysis/MemoryConfig.h"
#include "analysis/RegionAnalyzer.h"
#include "bounds/BoundsCalculator.h"
#include "bounds/GridBounds.h"
#include "bounds/QueueModel.h"
#include "bounds/RegionIndex.h"
#include "bounds/RobModel.h"
#include "params/Preset.h"
#include "trace/TraceReader.h"

#include <benchmark/benchmark.h>

using namespace concorde;

namespace {

struct Loaded {
    std::vector<TraceRecord> records;
    std::uint64_t warmup = 0;
    AnnotatedRegion region;
    CoreConfig config;
};

const Loaded& loaded() {
    static const Loaded data = [] {
        Loaded d;
        TraceReader reader(std::string(CONCORDE_SOURCE_DIR) + "/data/samples/xz-compress.ctrace");
        reader.readRegion(0, d.records);
        d.warmup = reader.info().regions[0].warmup;
        d.config =
            Preset::load(std::string(CONCORDE_SOURCE_DIR) + "/resources/presets/n1-like.json")
                .config;
        d.region =
            RegionAnalyzer().analyze(d.records, d.warmup, MemoryConfig::fromCoreConfig(d.config));
        return d;
    }();
    return data;
}

// Per configuration: the region is analysed and prepared once (shared by every configuration
// with its memory parameters), then each configuration costs this.
void allBoundsOneConfig(benchmark::State& state) {
    const Loaded& d = loaded();
    const BoundsCalculator calculator;
    auto prepared = calculator.prepare(d.region);
    for (auto _ : state)
        benchmark::DoNotOptimize(calculator.compute(prepared, d.config, false).windows());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.region.size()));
}

void robModelOneSize(benchmark::State& state) {
    const Loaded& d = loaded();
    RobModel model(d.region);
    for (auto _ : state)
        benchmark::DoNotOptimize(model.run(128, 400).overallIpc);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.region.size()));
}

// The LQ bound at one size: loads alone (QueueModel) or through commit (the ROB system with
// an unlimited ROB, RobModel::runLoadQueue; argument 1).
void loadQueueOneSize(benchmark::State& state) {
    const Loaded& d = loaded();
    RobModel model(d.region);
    const RegionIndex index(d.region);
    const bool throughCommit = state.range(0) != 0;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            throughCommit ? model.runLoadQueue(48, 400).overallIpc
                          : QueueModel::run(index, QueueModel::Kind::Load, 48, 400).size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.region.size()));
}

// The whole default grid for one region with one analysis (argument 1: the LQ through commit).
void defaultGridOneRegionWith(benchmark::State& state) {
    const Loaded& d = loaded();
    const BoundsGrid grid = defaultBoundsGrid();
    AnalysisRevision analysis = AnalysisRevision::current();
    analysis.loadQueueThroughCommit = state.range(0) != 0;
    GridBounds::Result result;
    for (auto _ : state)
        result = GridBounds::build(d.records, d.warmup, grid, kDefaultWindowSize, {}, {}, analysis);
    state.counters["series"] = static_cast<double>(result.series.size());
    // Memory configurations whose ROB and LQ runs were another's (only the L1i differed).
    state.counters["shared"] = static_cast<double>(result.reusedMemoryConfigurations);
}

void traceAnalysisOneMemoryConfig(benchmark::State& state) {
    const Loaded& d = loaded();
    const RegionAnalyzer analyzer;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            analyzer.analyze(d.records, d.warmup, MemoryConfig::fromCoreConfig(d.config)).size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.region.size()));
}

} // namespace

// The per-region preparation (index, consumer lists, counts): once per memory configuration.
void prepareRegion(benchmark::State& state) {
    const Loaded& d = loaded();
    const BoundsCalculator calculator;
    for (auto _ : state)
        benchmark::DoNotOptimize(calculator.prepare(d.region).index.loads.size());
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.region.size()));
}

// The whole default grid for one region (54 memory configurations analysed, every model at
// every grid value), parallel with TBB over the machine's cores.
void defaultGridOneRegion(benchmark::State& state) {
    const Loaded& d = loaded();
    const BoundsGrid grid = defaultBoundsGrid();
    GridBounds::Result result;
    for (auto _ : state)
        result = GridBounds::build(d.records, d.warmup, grid);
    state.counters["series"] = static_cast<double>(result.series.size());
    state.counters["shared"] = static_cast<double>(result.reusedMemoryConfigurations);
}

BENCHMARK(allBoundsOneConfig)->Unit(benchmark::kMillisecond);
BENCHMARK(defaultGridOneRegion)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(prepareRegion)->Unit(benchmark::kMillisecond);
BENCHMARK(robModelOneSize)->Unit(benchmark::kMillisecond);
BENCHMARK(loadQueueOneSize)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(defaultGridOneRegionWith)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(traceAnalysisOneMemoryConfig)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
