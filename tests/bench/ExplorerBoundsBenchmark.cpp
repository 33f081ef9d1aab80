// Opening a database in the explorer with every CDF computed (docs/design.md §12: ≤ 1 s for the
// default database), and what a slider change costs the CDF and timeseries views afterwards.
//
// The database is $CONCORDE_BENCH_DB, else data/default.sqlite; without one the cases are
// skipped. "Open" is what the explorer does when a database opens: FeatureDatabase::openReadOnly,
// DatabaseBounds::load (every complete region's resource series groups read, decoded and
// de-duplicated in parallel with TBB), then every region's bounds, binding resources and
// per-resource CDFs at the database's reference configuration (DatabaseBounds::allRegions,
// parallel). The configuration is DatabasePhases::referenceConfig (on the grid by construction).
#include "explore/DatabaseBounds.h"
#include "params/CoreConfig.h"
#include "pipeline/DatabasePhases.h"
#include "store/FeatureDatabase.h"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>

using namespace concorde;

namespace {

std::filesystem::path databasePath() {
    const char* env = std::getenv("CONCORDE_BENCH_DB");
    return env ? std::filesystem::path(env)
               : std::filesystem::path(CONCORDE_SOURCE_DIR) / "data" / "default.sqlite";
}

struct Loaded {
    std::unique_ptr<DatabaseBounds> bounds;
    CoreConfig config;
    std::string skip;
};

const Loaded& loaded() {
    static const Loaded l = [] {
        Loaded out;
        const auto path = databasePath();
        if (!std::filesystem::exists(path)) {
            out.skip = path.string() + " not found (set CONCORDE_BENCH_DB to a database)";
            return out;
        }
        try {
            FeatureDatabase db = FeatureDatabase::openReadOnly(path);
            out.config = DatabasePhases::referenceConfig(db);
            out.bounds = std::make_unique<DatabaseBounds>(DatabaseBounds::load(db));
        } catch (const std::exception& e) {
            out.skip = path.string() + ": " + e.what();
        }
        return out;
    }();
    return l;
}

// Open the database, load every region's bounds, compute every region's CDFs.
void openDatabaseWithEveryCdf(benchmark::State& state) {
    const auto path = databasePath();
    if (!std::filesystem::exists(path)) {
        state.SkipWithError("no database (set CONCORDE_BENCH_DB)");
        return;
    }
    std::size_t regions = 0, bytes = 0, curves = 0;
    for (auto _ : state) {
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        const CoreConfig config = DatabasePhases::referenceConfig(db);
        const DatabaseBounds bounds = DatabaseBounds::load(db);
        const auto all = bounds.allRegions(config);
        regions = all.size();
        bytes = bounds.bytes();
        curves = 0;
        for (const auto& r : all)
            curves += r.resourceCount();
        benchmark::DoNotOptimize(all.data());
    }
    state.counters["regions"] = static_cast<double>(regions);
    state.counters["cdfs"] = static_cast<double>(curves);
    state.counters["MB_kept"] = static_cast<double>(bytes) / 1e6;
}

// Every region's bounds and CDFs at a new random grid configuration (a slider change that
// refreshes everything).
void allRegionsAtNewConfig(benchmark::State& state) {
    const Loaded& l = loaded();
    if (!l.skip.empty()) {
        state.SkipWithError(l.skip.c_str());
        return;
    }
    std::mt19937 rng(7);
    for (auto _ : state) {
        state.PauseTiming();
        CoreConfig config = l.config;
        const auto& robs = l.bounds->grid().values(ParamId::Rob);
        config.set(ParamId::Rob, robs[rng() % robs.size()]);
        state.ResumeTiming();
        const auto all = l.bounds->allRegions(config);
        benchmark::DoNotOptimize(all.data());
    }
}

// One program's regions end to end (what the CDF and timeseries views show) at a new
// configuration: afresh (argument 0), or as the explorer computes it on a slider step (1), from
// the program at the configuration before, whose CDFs of the resources the ROB does not move
// are reused.
void programAtNewConfig(benchmark::State& state) {
    const Loaded& l = loaded();
    if (!l.skip.empty()) {
        state.SkipWithError(l.skip.c_str());
        return;
    }
    const bool fromPrevious = state.range(0) != 0;
    const std::string program = l.bounds->programs().front();
    const auto& robs = l.bounds->grid().values(ParamId::Rob);
    std::size_t i = 0;
    RegionBoundsSeries previous = l.bounds->program(program, l.config);
    for (auto _ : state) {
        CoreConfig config = l.config;
        config.set(ParamId::Rob, robs[i++ % robs.size()]);
        RegionBoundsSeries series =
            l.bounds->program(program, config, fromPrevious ? &previous : nullptr);
        benchmark::DoNotOptimize(series.windows());
        previous = std::move(series);
    }
    state.counters["regions"] = static_cast<double>(l.bounds->regionsOf(program).size());
}

} // namespace

BENCHMARK(openDatabaseWithEveryCdf)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);
BENCHMARK(allRegionsAtNewConfig)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(programAtNewConfig)
    ->ArgName("from_previous")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
