// Shapley attribution speed: 20 players × 200 permutations over the 64 regions of a program
// (docs/design.md §9, §12). The headline cases use a synthetic stand-in for the ML model of
// docs/design.md §8, so they run without a database: a small MLP over the normalised parameter
// vector (20 → 16 → 4 → 1, ReLU, per-region first-layer bias and output scale), batched, a few tens
// of ns per configuration — the speed the block-precomputed model is meant to reach (≥ 1 M
// evaluations/s on 2 cores). The shapleyDatabaseModel case runs the real model of a feature
// database (see databaseSetup()) and is skipped when there is none.
#include "attribution/PlayerSet.h"
#include "attribution/ProgramValue.h"
#include "attribution/ShapleyAttributor.h"
#include "attribution/ValueFunction.h"
#include "explore/DatabasePredictor.h"
#include "explore/RegionValueFunction.h"
#include "params/ParameterSpace.h"
#include "params/Preset.h"
#include "store/FeatureDatabase.h"

#include <array>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

using namespace concorde;

namespace {

constexpr std::size_t kHidden1 = 16;
constexpr std::size_t kHidden2 = 4;

/// Shared weights of the synthetic MLP, seeded.
struct MlpWeights {
    std::array<std::array<float, kHidden1>, kParamCount> w1{}; // per input: a hidden vector
    std::array<std::array<float, kHidden1>, kHidden2> w2{};
    std::array<float, kHidden2> w3{};
    std::array<float, kParamCount> offset{}; // normalisation: x = (v - min) * scale
    std::array<float, kParamCount> scale{};

    MlpWeights() {
        std::mt19937 rng(17);
        std::normal_distribution<float> n(0.0f, 0.4f);
        for (auto& row : w1)
            for (float& w : row)
                w = n(rng);
        for (auto& row : w2)
            for (float& w : row)
                w = n(rng);
        for (float& w : w3)
            w = std::abs(n(rng));
        for (const auto& spec : ParameterSpace::all()) {
            offset[index(spec.id)] = static_cast<float>(spec.min);
            scale[index(spec.id)] = static_cast<float>(1.0 / (spec.max - spec.min));
        }
    }
};

/// One region's CPI: 0.3 + scale · s(MLP(normalised parameters)) with a region-specific bias,
/// where s(y) = (y + sqrt(y² + 1)) / 2 is a cheap smooth positive output (like softplus).
class SyntheticMlpValue : public ValueFunction {
public:
    SyntheticMlpValue(const MlpWeights& weights, unsigned region) : weights_(weights) {
        std::mt19937 rng(1000 + region);
        std::normal_distribution<float> n(0.0f, 0.5f);
        for (float& b : bias_)
            b = n(rng);
        outputScale_ = 0.5f + std::abs(n(rng));
    }

    void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const override {
        for (std::size_t c = 0; c < configs.size(); ++c) {
            std::array<float, kHidden1> h1 = bias_;
            for (std::size_t p = 0; p < kParamCount; ++p) {
                const float x = (static_cast<float>(configs[c].value(static_cast<ParamId>(p))) -
                                 weights_.offset[p]) *
                                weights_.scale[p];
                for (std::size_t j = 0; j < kHidden1; ++j)
                    h1[j] += weights_.w1[p][j] * x;
            }
            float y = 0;
            for (std::size_t k = 0; k < kHidden2; ++k) {
                float h2 = 0;
                for (std::size_t j = 0; j < kHidden1; ++j)
                    h2 += weights_.w2[k][j] * std::max(h1[j], 0.0f);
                y += weights_.w3[k] * std::max(h2, 0.0f);
            }
            out[c] = 0.3 + outputScale_ * 0.5 * (y + std::sqrt(static_cast<double>(y) * y + 1.0));
        }
    }

private:
    const MlpWeights& weights_;
    std::array<float, kHidden1> bias_{};
    float outputScale_ = 1;
};

/// Like SyntheticMlpValue but nearly free: measures what the attribution itself costs.
class TrivialValue : public ValueFunction {
public:
    void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const override {
        for (std::size_t c = 0; c < configs.size(); ++c)
            out[c] = 1.0 + 1e-3 * configs[c].value(ParamId::Rob);
    }
};

CoreConfig preset(const std::string& name) {
    return Preset::load(std::string(CONCORDE_SOURCE_DIR) + "/resources/presets/" + name + ".json")
        .config;
}

/// Baseline "big", target "little" with the TAGE predictor: all twenty parameters differ, so
/// all twenty players are active.
struct Setup {
    CoreConfig baseline = preset("big");
    CoreConfig target = [] {
        CoreConfig c = preset("little");
        c.set(ParamId::BranchPredictor, 1.0);
        return c;
    }();
    MlpWeights weights;
    ProgramValue mlpProgram{"synthetic", {}};
    ProgramValue trivialProgram{"trivial", {}};

    Setup() {
        auto trivial = std::make_shared<TrivialValue>();
        for (unsigned r = 0; r < 64; ++r) {
            mlpProgram.regions.push_back(
                {std::to_string(r), 100000, std::make_shared<SyntheticMlpValue>(weights, r)});
            trivialProgram.regions.push_back({std::to_string(r), 100000, trivial});
        }
    }
};

const Setup& setup() {
    static const Setup s;
    return s;
}

void runSampling(benchmark::State& state, const ProgramValue& program, std::size_t threads) {
    const Setup& s = setup();
    ShapleyAttributor::Options options;
    options.permutations = 200;
    options.threads = threads;
    const ShapleyAttributor attributor(PlayerSet::individual(), s.baseline, s.target, options);
    if (attributor.activePlayers().size() != 20)
        state.SkipWithError("expected 20 active players");
    double sum = 0;
    for (auto _ : state)
        sum = attributor.attribute(program).total.sum();
    benchmark::DoNotOptimize(sum);
    const auto evaluations = attributor.evaluationsPerRegion() * program.regions.size();
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(evaluations));
    state.counters["evaluations"] = static_cast<double>(evaluations);
}

// The headline: 20 players × 200 permutations × 64 regions, all cores (target ≤ 2 s on 2).
void shapley20Players200Permutations64Regions(benchmark::State& state) {
    runSampling(state, setup().mlpProgram, 0);
}

// The same on one thread, for the parallel speed-up.
void shapley20Players200Permutations64RegionsOneThread(benchmark::State& state) {
    runSampling(state, setup().mlpProgram, 1);
}

// The attribution's own cost per evaluation (coalition configurations, marginals, statistics).
void shapleyOverheadTrivialValue(benchmark::State& state) {
    runSampling(state, setup().trivialProgram, 0);
}

// Exact mode with the ten default groups: 1,024 coalitions × 64 regions.
void shapleyExactDefaultGroups64Regions(benchmark::State& state) {
    const Setup& s = setup();
    const ShapleyAttributor attributor(PlayerSet::defaultGroups(), s.baseline, s.target);
    double sum = 0;
    for (auto _ : state)
        sum = attributor.attribute(s.mlpProgram).total.sum();
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(state.iterations() * 1024 * 64);
}

// The synthetic value function alone, batches of 256, one thread.
void syntheticValueFunction(benchmark::State& state) {
    const Setup& s = setup();
    std::vector<CoreConfig> configs(256, s.baseline);
    std::mt19937 rng(3);
    for (auto& c : configs)
        for (const auto& spec : ParameterSpace::all())
            c.set(spec.id, spec.grid[rng() % spec.grid.size()]);
    std::vector<double> out(configs.size());
    const ValueFunction& value = *s.mlpProgram.regions[0].value;
    for (auto _ : state) {
        value.evaluate(configs, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(configs.size()));
}

/// The real thing: the trained model of a feature database through RegionValueFunction (the
/// block-precomputed inference `concorde shapley` uses). The database is $CONCORDE_BENCH_DB, else
/// data/default.sqlite; without one (or without a model in it) the cases are skipped. Its regions
/// are cycled to make 64. Baseline: every parameter at the top of the database's grid; target:
/// every parameter at the bottom, so every parameter with two or more grid values is a player.
struct DatabaseSetup {
    std::shared_ptr<const DatabasePredictor> predictor;
    ProgramValue program{"database", {}};
    CoreConfig baseline;
    CoreConfig target;
    std::string skip; ///< why the cases cannot run, empty when they can
};

const DatabaseSetup& databaseSetup() {
    static const DatabaseSetup s = [] {
        DatabaseSetup d;
        const char* env = std::getenv("CONCORDE_BENCH_DB");
        const std::filesystem::path path =
            env ? std::filesystem::path(env)
                : std::filesystem::path(CONCORDE_SOURCE_DIR) / "data" / "default.sqlite";
        if (!std::filesystem::exists(path)) {
            d.skip = path.string() + " not found (set CONCORDE_BENCH_DB to a database)";
            return d;
        }
        try {
            FeatureDatabase db = FeatureDatabase::openReadOnly(path);
            auto model = db.readModel();
            if (!model) {
                d.skip = path.string() + " holds no CPI model";
                return d;
            }
            const BoundsGrid grid = db.buildSettings().grid;
            for (const auto& spec : ParameterSpace::all()) {
                const auto& values = grid[static_cast<std::size_t>(spec.id)];
                d.baseline.set(spec.id, values.back());
                d.target.set(spec.id, values.front());
            }
            d.predictor = std::make_shared<const DatabasePredictor>(db, std::move(*model));
            const std::size_t regions = d.predictor->regions().size();
            for (std::size_t r = 0; r < 64; ++r)
                d.program.regions.push_back(
                    {std::to_string(r), d.predictor->regions()[r % regions].length,
                     std::make_shared<RegionValueFunction>(d.predictor, r % regions)});
        } catch (const std::exception& e) {
            d.skip = path.string() + ": " + e.what();
        }
        return d;
    }();
    return s;
}

// 200 permutations × 64 regions with the database's model and every parameter that varies on
// its grid as a player (20 on the default grid).
void shapleyDatabaseModel200Permutations64Regions(benchmark::State& state) {
    const DatabaseSetup& d = databaseSetup();
    if (!d.skip.empty()) {
        state.SkipWithError(d.skip.c_str());
        return;
    }
    ShapleyAttributor::Options options;
    options.permutations = 200;
    options.mode = ShapleyAttributor::Mode::Sampling;
    const ShapleyAttributor attributor(PlayerSet::individual(), d.baseline, d.target, options);
    double sum = 0;
    for (auto _ : state)
        sum = attributor.attribute(d.program).total.sum();
    benchmark::DoNotOptimize(sum);
    const auto evaluations = attributor.evaluationsPerRegion() * d.program.regions.size();
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(evaluations));
    state.counters["players"] = static_cast<double>(attributor.activePlayers().size());
    state.counters["evaluations"] = static_cast<double>(evaluations);
}

// The database model through RegionValueFunction alone, batches of 256, one thread.
void databaseRegionValueFunction(benchmark::State& state) {
    const DatabaseSetup& d = databaseSetup();
    if (!d.skip.empty()) {
        state.SkipWithError(d.skip.c_str());
        return;
    }
    std::vector<CoreConfig> configs(256);
    std::mt19937 rng(3);
    for (auto& c : configs)
        for (const auto& spec : ParameterSpace::all()) {
            const auto& values = d.predictor->grid().values(spec.id);
            c.set(spec.id, values[rng() % values.size()]);
        }
    std::vector<double> out(configs.size());
    const ValueFunction& value = *d.program.regions[0].value;
    for (auto _ : state) {
        value.evaluate(configs, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(configs.size()));
}

} // namespace

BENCHMARK(shapley20Players200Permutations64Regions)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(shapley20Players200Permutations64RegionsOneThread)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(shapleyOverheadTrivialValue)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(shapleyExactDefaultGroups64Regions)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(syntheticValueFunction)->Unit(benchmark::kMicrosecond);
BENCHMARK(shapleyDatabaseModel200Permutations64Regions)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(databaseRegionValueFunction)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
