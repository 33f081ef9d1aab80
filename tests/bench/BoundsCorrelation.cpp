// Cross-check of the analytical models against the reference simulator on real traces
// (issue: "report the correlation between the minimum of the bounds and the simulated IPC
// across random configurations"). Prints one line per sample and the summary; not a test.
//
//   bench/bounds_correlation [samples] [seed] [loads-only|through-commit]
// The third argument chooses the LQ bound (AnalysisRevision::loadQueueThroughCommit).
#include "analysis/MemoryConfig.h"
#include "analysis/RegionAnalyzer.h"
#include "bounds/BoundsCalculator.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/TraceReader.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>

using namespace concorde;

int main(int argc, char** argv) {
    const int samples = argc > 1 ? std::atoi(argv[1]) : 200;
    const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    AnalysisRevision analysis = AnalysisRevision::current();
    analysis.loadQueueThroughCommit = argc > 3 && std::string(argv[3]) == "through-commit";
    struct Region {
        std::string name;
        std::vector<TraceRecord> records;
        std::uint64_t warmup;
    };
    std::vector<Region> regions;
    for (const char* sample : {"gzip-decompress", "xz-compress", "perl-regex"}) {
        TraceReader reader(std::string(CONCORDE_SOURCE_DIR "/data/samples/") + sample + ".ctrace");
        for (std::size_t i = 0; i < reader.info().regions.size(); ++i) {
            Region r{
                std::string(sample) + "#" + std::to_string(i), {}, reader.info().regions[i].warmup};
            reader.readRegion(i, r.records);
            regions.push_back(std::move(r));
        }
    }
    std::mt19937_64 rng(seed);
    const RegionAnalyzer analyzer;
    const BoundsCalculator calculator(kDefaultWindowSize, 1, analysis);
    std::vector<double> simulated, analytical;
    for (int s = 0; s < samples; ++s) {
        CoreConfig config;
        for (const auto& spec : ParameterSpace::all())
            config.set(spec.id, spec.grid[rng() % spec.grid.size()]);
        const Region& region = regions[rng() % regions.size()];
        const double sim =
            1.0 / ReferenceSimulator::simulate(region.records, region.warmup, config).cpi();
        const auto annotated =
            analyzer.analyze(region.records, region.warmup, MemoryConfig::fromCoreConfig(config));
        const double bound = calculator.compute(annotated, config, false)
                                 .toJson(false)["min_of_bounds_ipc"]
                                 .get<double>();
        simulated.push_back(sim);
        analytical.push_back(bound);
        std::printf("%-20s sim_ipc %.4f min_bounds_ipc %.4f  %s\n", region.name.c_str(), sim, bound,
                    config.toAssignments().c_str());
    }
    const auto mean = [](const std::vector<double>& v) {
        double sum = 0;
        for (double x : v)
            sum += x;
        return sum / double(v.size());
    };
    const double ms = mean(simulated), ma = mean(analytical);
    double cov = 0, vs = 0, va = 0, rel = 0, over = 0;
    for (std::size_t i = 0; i < simulated.size(); ++i) {
        cov += (simulated[i] - ms) * (analytical[i] - ma);
        vs += (simulated[i] - ms) * (simulated[i] - ms);
        va += (analytical[i] - ma) * (analytical[i] - ma);
        rel += std::abs(analytical[i] - simulated[i]) / simulated[i];
        over += analytical[i] >= simulated[i] * 0.999 ? 1 : 0;
    }
    std::printf("samples %zu  pearson %.4f  mean relative error of min-of-bounds %.2f %%  "
                "bound >= simulated in %.1f %% of samples\n",
                simulated.size(), cov / std::sqrt(vs * va), 100 * rel / double(simulated.size()),
                100 * over / double(simulated.size()));
    return 0;
}
