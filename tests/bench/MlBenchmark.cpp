// CPI evaluations per second with the block-precomputed first layer (docs/design.md §12: ≥ 1 M/s
// batched on 2 cores). Standard feature layout (K = 10, 447 features), default grid, MLP
// 447-128-64-1 (with 256-128 hidden layers the second layer's 32k multiply-adds per evaluation
// cap it near 0.5 M/s on this machine; see BENCHMARKS.md). Block features are synthetic until a
// trained model and database exist; the evaluation cost does not depend on their values.
#include "features/FeatureLayout.h"
#include "ml/BlockPrecomputedMlp.h"

#include <benchmark/benchmark.h>
#include <random>
#include <tbb/parallel_for.h>

using namespace concorde;

namespace {

void syntheticFeatures(const FeatureBlock&, const CoreConfig&, std::span<float> out) {
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<float>(i % 7) * 0.3f;
}

struct Fixture {
    FeatureLayout layout = FeatureLayout::standard(10);
    ParameterGrid grid;
    Mlp model{{static_cast<int>(layout.width()), 128, 64, 1}, 1};
    FeatureNormalizer normalizer = FeatureNormalizer::fit(
        Eigen::MatrixXf::Random(static_cast<Eigen::Index>(layout.width()), 8));
    BlockPrecomputedMlp fast{modelOf({model}, false), grid, syntheticFeatures};
    /// Issue 17's shipped form: five anchored members with a calibrated band.
    BlockPrecomputedMlp ensemble{modelOf(members(5), true), grid, syntheticFeatures};
    std::vector<CoreConfig> configs;
    std::vector<Mlp> members(int n) const {
        std::vector<Mlp> out;
        for (int m = 0; m < n; ++m)
            out.push_back(Mlp({static_cast<int>(layout.width()), 128, 64, 1}, 1 + m));
        return out;
    }
    CpiModel modelOf(std::vector<Mlp> nets, bool anchored) const {
        CpiModel m;
        m.layout = layout;
        m.normalizer = normalizer;
        m.members = std::move(nets);
        if (anchored) {
            m.output = CpiOutput::BottleneckAnchored;
            m.band = BandCalibration(2.0, 0.01, 0.8);
        }
        return m;
    }
    Fixture() {
        std::mt19937_64 rng(5);
        for (int i = 0; i < 4096; ++i) {
            CoreConfig c;
            for (const auto& spec : ParameterSpace::all())
                c.set(spec.id, spec.grid[rng() % spec.grid.size()]);
            configs.push_back(c);
        }
    }
};

const Fixture& fixture() {
    static const Fixture f;
    return f;
}

void batchedEvaluationsTwoThreads(benchmark::State& state) {
    const Fixture& f = fixture();
    const std::size_t batch = 256;
    std::vector<double> out(f.configs.size());
    for (auto _ : state) {
        tbb::parallel_for(std::size_t(0), f.configs.size() / batch, [&](std::size_t b) {
            f.fast.predict(std::span(f.configs).subspan(b * batch, batch),
                           std::span(out).subspan(b * batch, batch));
        });
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.configs.size()));
}

void ensembleBandsTwoThreads(benchmark::State& state) {
    const Fixture& f = fixture();
    const std::size_t batch = 256;
    std::vector<CpiBand> out(f.configs.size());
    for (auto _ : state) {
        tbb::parallel_for(std::size_t(0), f.configs.size() / batch, [&](std::size_t b) {
            f.ensemble.predictBands(std::span(f.configs).subspan(b * batch, batch),
                                    std::span(out).subspan(b * batch, batch));
        });
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.configs.size()));
}

void plainForwardPass(benchmark::State& state) {
    const Fixture& f = fixture();
    const Eigen::MatrixXf inputs =
        Eigen::MatrixXf::Random(static_cast<Eigen::Index>(f.layout.width()), 256);
    for (auto _ : state)
        benchmark::DoNotOptimize(f.model.predict(f.normalizer.apply(inputs)).sum());
    state.SetItemsProcessed(state.iterations() * 256);
}

} // namespace

BENCHMARK(batchedEvaluationsTwoThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ensembleBandsTwoThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(plainForwardPass)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
