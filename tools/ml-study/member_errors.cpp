// Study (issue 17): every ensemble member's mean relative error per program on a dataset's test
// split (regions no member trained on), and the mean ratio of the simulated and the predicted
// CPI to the min-of-bounds CPI.
//
//   member_errors DB DATASET [MODEL]
#include "ml/CpiModel.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"

#include <cstdio>
#include <map>
using namespace concorde;
int main(int argc, char** argv) {
    FeatureDatabase db = FeatureDatabase::openReadOnly(argv[1]);
    CpiModel model = *db.readModel(argc > 3 ? argv[3] : "");
    DatasetFile ds = DatasetFile::openReadOnly(argv[2]);
    auto samples = ds.samples({"test"});
    const std::size_t width = samples.at(0).features.size();
    Eigen::MatrixXf x(width, samples.size());
    for (std::size_t j = 0; j < samples.size(); ++j)
        for (std::size_t i = 0; i < width; ++i)
            x(i, j) = samples[j].features[i];
    Eigen::MatrixXf m = model.memberPredictions(x);
    std::map<std::string, std::vector<double>> err; // program -> per member sum, plus mean
    std::map<std::string, int> n;
    const int k = m.rows();
    for (std::size_t j = 0; j < samples.size(); ++j) {
        auto& e = err[samples[j].program];
        e.resize(k + 1);
        double mean = 0;
        for (int r = 0; r < k; ++r) {
            e[r] += std::abs(m(r, j) / samples[j].cpi - 1);
            mean += m(r, j) / k;
        }
        e[k] += std::abs(mean / samples[j].cpi - 1);
        n[samples[j].program]++;
    }
    std::map<std::string, std::vector<double>> ratio; // truth/minBound, members/minBound
    for (std::size_t j = 0; j < samples.size(); ++j) {
        auto& r = ratio[samples[j].program];
        r.resize(k + 2);
        r[0] += samples[j].cpi / samples[j].minBoundCpi;
        for (int q = 0; q < k; ++q)
            r[q + 1] += m(q, j) / samples[j].minBoundCpi;
        r[k + 1] = std::max(r[k + 1], samples[j].cpi / samples[j].minBoundCpi);
    }
    for (auto& [p, r] : ratio) {
        std::printf("ratio %-16s", p.c_str());
        for (int q = 0; q <= k; ++q)
            std::printf(" %5.2f", r[q] / n[p]);
        std::printf("  max %5.2f\n", r[k + 1]);
    }
    for (auto& [p, e] : err) {
        std::printf("%-16s", p.c_str());
        for (double v : e)
            std::printf(" %6.1f", 100 * v / n[p]);
        std::printf("\n");
    }
}
