// Reference simulator speed on real traces (docs/design.md §12: ≥ 2 M simulated instructions/s,
// single thread). Uses the committed sample traces of real programs (data/samples),
// 100k-instruction regions with 20k warm-up each; items/s counts measured instructions only, while
// the time includes the warm-up and the per-region set-up, as a user pays them.
#include "params/CoreConfig.h"
#include "params/Preset.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/TraceReader.h"

#include <benchmark/benchmark.h>
#include <random>

using namespace concorde;

namespace {

struct LoadedRegion {
    std::vector<TraceRecord> records;
    std::size_t warmup;
};

const std::vector<LoadedRegion>& regions(const std::string& sample) {
    static std::map<std::string, std::vector<LoadedRegion>> cache;
    auto& loaded = cache[sample];
    if (loaded.empty()) {
        TraceReader reader(std::string(CONCORDE_SOURCE_DIR) + "/data/samples/" + sample +
                           ".ctrace");
        for (std::size_t i = 0; i < reader.info().regions.size(); ++i) {
            LoadedRegion region;
            reader.readRegion(i, region.records);
            region.warmup = static_cast<std::size_t>(reader.info().regions[i].warmup);
            loaded.push_back(std::move(region));
        }
    }
    return loaded;
}

CoreConfig preset(const std::string& name) {
    return Preset::load(std::string(CONCORDE_SOURCE_DIR) + "/resources/presets/" + name + ".json")
        .config;
}

void simulateSample(benchmark::State& state, const std::string& sample, const CoreConfig& config) {
    const auto& loaded = regions(sample);
    std::int64_t instructions = 0;
    for (auto _ : state) {
        for (const auto& region : loaded) {
            const auto result = ReferenceSimulator::simulate(region.records, region.warmup, config);
            benchmark::DoNotOptimize(result.cycles);
            instructions += static_cast<std::int64_t>(result.instructions);
        }
    }
    state.SetItemsProcessed(instructions);
}

// Random configurations drawn from the default grid, as dataset generation will use them.
void simulateRandomConfigs(benchmark::State& state, const std::string& sample) {
    const auto& loaded = regions(sample);
    std::mt19937_64 rng(42);
    std::int64_t instructions = 0;
    for (auto _ : state) {
        CoreConfig config;
        for (const auto& spec : ParameterSpace::all())
            config.set(spec.id, spec.grid[rng() % spec.grid.size()]);
        const auto& region = loaded[rng() % loaded.size()];
        const auto result = ReferenceSimulator::simulate(region.records, region.warmup, config);
        benchmark::DoNotOptimize(result.cycles);
        instructions += static_cast<std::int64_t>(result.instructions);
    }
    state.SetItemsProcessed(instructions);
}

} // namespace

BENCHMARK_CAPTURE(simulateSample, gzip_n1like, "gzip-decompress", preset("n1-like"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateSample, xz_n1like, "xz-compress", preset("n1-like"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateSample, perl_n1like, "perl-regex", preset("n1-like"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateSample, gzip_little, "gzip-decompress", preset("little"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateRandomConfigs, all_random, "xz-compress")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(40);

BENCHMARK_MAIN();
