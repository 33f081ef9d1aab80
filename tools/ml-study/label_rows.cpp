// Study (issue 17): one row per label of a feature database, with what the model and the
// analytical models say for it, so that ways of combining the two can be compared offline:
// program, region, label source, simulated CPI, the model's CPI and band, the min-of-bounds CPI,
// the bottleneck CPI (largest resource-alone CPI) and the region's out-of-distribution score.
//
//   label_rows DB MODEL_DB > rows.tsv
#include "explore/DatabasePredictor.h"
#include "features/FeatureAssembler.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
using namespace concorde;
int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: label_rows DB MODEL_DB\n");
        return 2;
    }
    FeatureDatabase db = FeatureDatabase::openReadOnly(argv[1]);
    FeatureDatabase modelDb = FeatureDatabase::openReadOnly(argv[2]);
    const CpiModel model = *modelDb.readModel("");
    DatabasePredictor predictor(db, model);
    const ParameterGrid& grid = predictor.grid();
    const FeatureAssembler assembler(model.layout);
    const auto anchorColumns = model.anchorColumns();
    const auto index = StoredRegionSeries::indexFor(db.catalog());
    std::map<std::int64_t, std::vector<LabelRow>> byRegion;
    for (auto& label : db.labels())
        byRegion[label.regionId].push_back(std::move(label));
    std::printf("program\tregion\tsource\tsim\tmodel\tlow\thigh\tmob\tbottleneck\tood\n");
    for (std::size_t r = 0; r < predictor.regions().size(); ++r) {
        const auto& entry = predictor.regions()[r];
        const auto labels = byRegion.find(entry.regionId);
        if (labels == byRegion.end())
            continue;
        const StoredRegionSeries series = StoredRegionSeries::load(db, entry.regionId, index);
        for (const auto& label : labels->second) {
            const CoreConfig config =
                CoreConfig::fromJson(nlohmann::json::parse(label.configJson), true, "label");
            bool onGrid = true;
            for (const auto& spec : ParameterSpace::all())
                onGrid = onGrid && grid.find(spec.id, config.value(spec.id)).has_value();
            if (!onGrid)
                continue;
            const CpiBand band = predictor.regionBand(r, config);
            const std::vector<float> raw = assembler.assemble(config, series);
            std::printf("%s\t%u\t%s\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.4f\n",
                        entry.program.c_str(), entry.regionIndex, label.source.c_str(), label.cpi,
                        band.cpi, band.low, band.high, assembler.minimumBoundCpi(config, series),
                        CpiModel::anchorCpi(raw, anchorColumns), predictor.regionOodScore(r));
        }
    }
}
