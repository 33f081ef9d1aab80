// Study (issue 17): does clipping each raw feature to the range the training data covered keep
// the model from extrapolating on regions whose features lie outside it (rsvg and lammps regions
// predicted at twice their CPI by the shipped model, with the min-of-bounds CPI within 9 %)?
// Clipping is non-decreasing in every feature, so a monotone model stays monotone.
//
//   clipped_features DB EVAL_DATASET TRAIN_DATASET...
//
// The range is each feature's minimum and maximum over the train split of the TRAIN_DATASETs;
// EVAL_DATASET's test split and held-out programs are predicted with raw and clipped features.
#include "ml/CpiModel.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

using namespace concorde;

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: clipped_features DB EVAL_DATASET TRAIN_DATASET...\n");
        return 2;
    }
    FeatureDatabase db = FeatureDatabase::openReadOnly(argv[1]);
    const CpiModel model = *db.readModel("");
    std::vector<float> low, high;
    for (int a = 3; a < argc; ++a) {
        DatasetFile train = DatasetFile::openReadOnly(argv[a]);
        for (const auto& s : train.samples({"train"})) {
            if (low.empty()) {
                low.assign(s.features.size(), std::numeric_limits<float>::max());
                high.assign(s.features.size(), std::numeric_limits<float>::lowest());
            }
            for (std::size_t i = 0; i < s.features.size(); ++i) {
                low[i] = std::min(low[i], s.features[i]);
                high[i] = std::max(high[i], s.features[i]);
            }
        }
    }
    DatasetFile eval = DatasetFile::openReadOnly(argv[2]);
    for (const char* split : {"test", "held_out"}) {
        const auto samples = eval.samples({split});
        if (samples.empty())
            continue;
        const std::size_t width = samples.front().features.size();
        Eigen::MatrixXf raw(width, samples.size()), clipped(width, samples.size());
        std::size_t outside = 0;
        for (std::size_t j = 0; j < samples.size(); ++j) {
            bool out = false;
            for (std::size_t i = 0; i < width; ++i) {
                const float v = samples[j].features[i];
                raw(i, j) = v;
                clipped(i, j) = std::clamp(v, low[i], high[i]);
                out = out || clipped(i, j) != v;
            }
            outside += out;
        }
        const Eigen::VectorXf a = model.predict(raw), b = model.predict(clipped);
        struct Sum {
            double raw = 0, clipped = 0, bound = 0;
            int n = 0;
        };
        std::map<std::string, Sum> perProgram;
        Sum all;
        for (std::size_t j = 0; j < samples.size(); ++j) {
            const double cpi = samples[j].cpi;
            for (Sum* s : {&perProgram[samples[j].program], &all}) {
                s->raw += std::abs(a(j) / cpi - 1);
                s->clipped += std::abs(b(j) / cpi - 1);
                s->bound += std::abs(samples[j].minBoundCpi / cpi - 1);
                ++s->n;
            }
        }
        std::printf("%s split: %zu samples, %zu with a feature outside the training range\n", split,
                    samples.size(), outside);
        std::printf("  %-16s %6s %8s %8s %8s\n", "program", "n", "raw %", "clipped %", "bound %");
        for (const auto& [program, s] : perProgram)
            std::printf("  %-16s %6d %8.2f %8.2f %8.2f\n", program.c_str(), s.n, 100 * s.raw / s.n,
                        100 * s.clipped / s.n, 100 * s.bound / s.n);
        std::printf("  %-16s %6d %8.2f %8.2f %8.2f\n", "all", all.n, 100 * all.raw / all.n,
                    100 * all.clipped / all.n, 100 * all.bound / all.n);
    }
}
