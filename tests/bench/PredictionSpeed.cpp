// Speed of CPI predictions from a real database and its trained model (docs/design.md §12),
// measured in one run so that the ratio is meaningful on a shared machine:
//   - batched evaluations per second on every core (target ≥ 1 M/s on 2 cores);
//   - one prediction of one region vs the reference simulation of the same region at the same
//     configuration (target ≥ 10^4×).
// Usage: predict_speed [DB] (default $CONCORDE_BENCH_DB, else data/default.sqlite).
#include "common/ConcordeError.h"
#include "common/SplitMix64.h"
#include "explore/DatabasePredictor.h"
#include "params/ParameterSpace.h"
#include "refsim/ReferenceSimulator.h"
#include "store/FeatureDatabase.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

using namespace concorde;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

} // namespace

int main(int argc, char** argv) try {
    const char* env = std::getenv("CONCORDE_BENCH_DB");
    const std::string path = argc > 1 ? argv[1]
                             : env    ? env
                                      : std::string(CONCORDE_SOURCE_DIR) + "/data/default.sqlite";
    FeatureDatabase db = FeatureDatabase::openReadOnly(path);
    auto model = db.readModel();
    if (!model)
        throw badInput(path + " holds no model");
    const std::string program = db.programs().front().name;
    const auto loadStart = Clock::now();
    const DatabasePredictor predictor(db, *model, {program});
    const double loadSeconds = seconds(loadStart);

    // Random configurations on the database's grid.
    std::vector<CoreConfig> configs(1 << 16);
    SplitMix64 random(42);
    for (auto& config : configs)
        for (const auto& spec : ParameterSpace::all()) {
            const auto& values = predictor.grid().values(spec.id);
            config.set(spec.id, values[random.below(values.size())]);
        }

    // Batched evaluations of one region on every core.
    const std::size_t batch = 256, regions = predictor.regionsOf(program).size();
    std::vector<double> out(configs.size());
    double best = 1e30;
    for (int repeat = 0; repeat < 5; ++repeat) {
        const auto start = Clock::now();
        tbb::parallel_for(std::size_t(0), configs.size() / batch, [&](std::size_t b) {
            predictor.regionCpi(b % regions, std::span(configs).subspan(b * batch, batch),
                                std::span(out).subspan(b * batch, batch));
        });
        best = std::min(best, seconds(start));
    }
    const double perSecond = double(configs.size()) / best;

    // One region, one configuration: a single prediction vs the reference simulation.
    const auto& region = predictor.regions()[predictor.regionsOf(program).front()];
    const std::vector<TraceRecord> records = db.regionRecords(region.regionId);
    const auto regionRow = db.region(region.regionId);
    const CoreConfig& config = configs.front();
    const int singles = 20000;
    auto start = Clock::now();
    double sink = 0;
    for (int i = 0; i < singles; ++i)
        sink += predictor.regionCpi(0, configs[static_cast<std::size_t>(i)]);
    const double predictSeconds = seconds(start) / singles;
    double simulateSeconds = 1e30;
    double simulatedCpi = 0;
    for (int repeat = 0; repeat < 3; ++repeat) {
        start = Clock::now();
        simulatedCpi = ReferenceSimulator::simulate(
                           records, static_cast<std::size_t>(regionRow->warmup), config)
                           .cpi();
        simulateSeconds = std::min(simulateSeconds, seconds(start));
    }

    std::printf("database            %s (model '%s', hidden", path.c_str(), model->name.c_str());
    for (std::size_t l = 1; l + 1 < model->members.front().layerSizes().size(); ++l)
        std::printf(" %d", model->members.front().layerSizes()[l]);
    std::printf(")\n");
    std::printf("threads             %d\n", tbb::info::default_concurrency());
    std::printf("precompute          %zu regions of %s in %.2f s\n", regions, program.c_str(),
                loadSeconds);
    std::printf("batched             %.3f M evaluations/s (batches of %zu, best of 5)\n",
                perSecond / 1e6, batch);
    std::printf("single prediction   %.2f us (one thread)\n", predictSeconds * 1e6);
    std::printf("reference simulator %.1f ms for the same region (%llu + %llu instructions), "
                "CPI %.3f vs predicted %.3f\n",
                simulateSeconds * 1e3, static_cast<unsigned long long>(regionRow->warmup),
                static_cast<unsigned long long>(regionRow->length), simulatedCpi,
                predictor.regionCpi(0, config));
    std::printf("speed-up            %.0fx (single prediction), %.0fx (batched)\n",
                simulateSeconds / predictSeconds, simulateSeconds * perSecond);
    return sink > 0 ? 0 : 1;
} catch (const ConcordeError& e) {
    std::fprintf(stderr, "predict_speed: %s\n", e.what());
    return e.exitCode();
}
