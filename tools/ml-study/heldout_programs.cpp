// Study (issue 17): one MLP trained on some programs and measured on whole programs it never saw
// (every sample of theirs, any split), with the distribution features raw (as shipped) or
// log1p-transformed before the z-score, and the target the CPI (as shipped) or the factor over
// the bottleneck CPI (CpiModel::anchorCpi) or over the min-of-bounds CPI (the dataset's).
//
//   heldout_programs raw|log|raw-anchor|log-anchor|raw-mob|log-mob EPOCHS DATASET...
//   unseen=PROGRAM... (SEED in the environment: the trainer's seed, default 1)
#include "features/FeatureLayout.h"
#include "ml/CpiModel.h"
#include "ml/FeatureNormalizer.h"
#include "ml/MlpTrainer.h"
#include "store/DatasetFile.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
using namespace concorde;
int main(int argc, char** argv) {
    const std::string variant = argv[1];
    const bool useLog = variant.find("log") != std::string::npos;
    const bool anchored = variant.find("anchor") != std::string::npos;
    const bool overMinBound = variant.find("mob") != std::string::npos;
    const int epochs = std::stoi(argv[2]);
    std::set<std::string> unseen;
    std::vector<std::string> files;
    for (int a = 3; a < argc; ++a) {
        std::string s = argv[a];
        if (s.rfind("unseen=", 0) == 0)
            unseen.insert(s.substr(7));
        else
            files.push_back(s);
    }
    std::vector<DatasetSample> train, test;
    for (auto& f : files) {
        DatasetFile ds = DatasetFile::openReadOnly(f);
        for (auto& s : ds.samples({"train", "test"})) {
            if (unseen.count(s.program))
                test.push_back(std::move(s));
            else if (s.split == "train")
                train.push_back(std::move(s));
        }
    }
    const FeatureLayout layout = FeatureLayout::standard();
    std::vector<char> logged(layout.width(), 0);
    for (const auto& b : layout.blocks())
        if (b.kind == BlockKind::Distributions)
            for (std::size_t i = 0; i < b.width; ++i)
                logged[b.offset + i] = 1;
    auto matrix = [&](const std::vector<DatasetSample>& s) {
        Eigen::MatrixXf x(layout.width(), s.size());
        for (std::size_t j = 0; j < s.size(); ++j)
            for (std::size_t i = 0; i < layout.width(); ++i) {
                float v = s[j].features[i];
                x(i, j) = useLog && logged[i] ? std::log1p(std::max(v, 0.0f)) : v;
            }
        return x;
    };
    Eigen::MatrixXf xtr = matrix(train), xte = matrix(test);
    CpiModel cm;
    cm.layout = layout;
    const auto anchorCols = cm.anchorColumns();
    auto anchorOf = [&](const DatasetSample& s) {
        if (overMinBound)
            return double(s.minBoundCpi);
        return anchored ? CpiModel::anchorCpi(s.features, anchorCols) : 1.0;
    };
    Eigen::VectorXf ytr(train.size());
    for (std::size_t j = 0; j < train.size(); ++j)
        ytr(j) = train[j].cpi / anchorOf(train[j]);
    FeatureNormalizer norm = FeatureNormalizer::fit(xtr);
    norm.applyInPlace(xtr);
    norm.applyInPlace(xte);
    TrainingOptions o;
    o.hidden = {128, 64};
    o.maxEpochs = epochs;
    o.weightDecay = 1e-2;
    o.seed = std::getenv("SEED") ? std::stoull(std::getenv("SEED")) : 1;
    TrainingReport report;
    Mlp mlp = MlpTrainer(o).train(xtr, ytr, report);
    Eigen::VectorXf p = mlp.predict(xte);
    // program -> (model error sum, count, min-of-bounds error sum)
    std::map<std::string, std::tuple<double, int, double>> err;
    double all = 0, allBound = 0;
    for (std::size_t j = 0; j < test.size(); ++j) {
        double e = std::abs(p(j) * anchorOf(test[j]) / test[j].cpi - 1);
        double b = std::abs(test[j].minBoundCpi / test[j].cpi - 1);
        auto& [sum, n, bound] = err[test[j].program];
        sum += e;
        ++n;
        bound += b;
        all += e;
        allBound += b;
    }
    std::printf("seed %s %s epochs %d: train %zu, unseen %zu samples\n",
                std::getenv("SEED") ? std::getenv("SEED") : "1", variant.c_str(), epochs,
                train.size(), test.size());
    for (auto& [k, v] : err)
        std::printf("  %-14s %6.2f %%  (min of bounds %6.2f %%)\n", k.c_str(),
                    100 * std::get<0>(v) / std::get<1>(v), 100 * std::get<2>(v) / std::get<1>(v));
    std::printf("  ALL            %6.2f %%  (min of bounds %6.2f %%)\n", 100 * all / test.size(),
                100 * allBound / test.size());
}
