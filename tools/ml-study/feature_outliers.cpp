// Study (issue 17): which features of a program's test samples lie furthest from the training
// data, as mean |z| under the model's own normalisation, next to the largest mean |z| of any
// other program.
//
//   feature_outliers DB DATASET PROGRAM...
#include "ml/CpiModel.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"

#include <algorithm>
#include <cstdio>
#include <map>
using namespace concorde;
int main(int argc, char** argv) {
    FeatureDatabase db = FeatureDatabase::openReadOnly(argv[1]);
    CpiModel model = *db.readModel("");
    DatasetFile ds = DatasetFile::openReadOnly(argv[2]);
    auto test = ds.samples({"test"});
    std::vector<std::string> name(model.layout.width());
    for (const auto& b : model.layout.blocks())
        for (std::size_t i = 0; i < b.width; ++i)
            name[b.offset + i] = b.name + "[" + std::to_string(i) + "]";
    std::map<std::string, std::vector<double>> z;
    std::map<std::string, int> n;
    for (auto& s : test) {
        auto& v = z[s.program];
        v.resize(name.size());
        for (std::size_t i = 0; i < name.size(); ++i)
            v[i] += std::abs((s.features[i] - model.normalizer.mean()(i)) *
                             model.normalizer.scale()(i));
        n[s.program]++;
    }
    for (int a = 3; a < argc; ++a) {
        auto v = z[argv[a]];
        std::vector<std::size_t> idx(v.size());
        for (std::size_t i = 0; i < idx.size(); ++i)
            idx[i] = i;
        std::sort(idx.begin(), idx.end(), [&](auto x, auto y) { return v[x] > v[y]; });
        std::printf("== %s (%d samples)\n", argv[a], n[argv[a]]);
        for (int t = 0; t < 12; ++t) {
            // the largest mean |z| of this feature among the other programs
            double other = 0;
            std::string who;
            for (auto& [p, w] : z)
                if (p != argv[a] && w[idx[t]] / n[p] > other) {
                    other = w[idx[t]] / n[p];
                    who = p;
                }
            std::printf("  %-40s |z| %7.2f   (max other: %s %.2f)\n", name[idx[t]].c_str(),
                        v[idx[t]] / n[argv[a]], who.c_str(), other);
        }
    }
}
