#pragma once
// A hand-set CPI model whose prediction depends on one parameter only, for known-answer tests of
// checks on the model (monotonicity): the network's one hidden unit reads the parameter's
// normalised value x (its param.<key> feature block, normalised to [0, 1] by the layout) and
// CPI = softplus(relu(weight × x + 1.5)). With |weight| ≤ 1.5 the ReLU never clips, so a
// negative weight makes the CPI fall strictly as the parameter grows and a positive one makes
// it rise; every other parameter leaves the CPI exactly unchanged.

#include "features/FeatureLayout.h"
#include "ml/CpiModel.h"
#include "ml/FeatureNormalizer.h"
#include "ml/Mlp.h"
#include "params/ParameterSpace.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace concorde::testing {

/// Makes `mlp` the model's network. A template, so that only the form the model has is compiled:
/// one member of an ensemble (`members`), or the single network (`mlp`) of models before
/// ensembles; the single form can go once ensembles are on main.
template <typename Model>
void setNetwork(Model& model, Mlp mlp) {
    if constexpr (requires(Model m) { m.members; })
        model.members = {std::move(mlp)};
    else
        model.mlp = std::move(mlp);
}

inline CpiModel oneParameterModel(ParamId parameter, float weight, const std::string& name) {
    CpiModel model;
    model.name = name;
    model.layout = FeatureLayout::standard();
    const auto width = static_cast<int>(model.layout.width());
    // The identity normalisation: the network sees the layout's own [0, 1] parameter values.
    model.normalizer = FeatureNormalizer::fromJson(
        {{"mean", std::vector<double>(static_cast<std::size_t>(width), 0.0)},
         {"scale", std::vector<double>(static_cast<std::size_t>(width), 1.0)}});
    Mlp mlp({width, 1, 1}, 1);
    mlp.weights()[0].setZero();
    const std::string block = "param." + ParameterSpace::spec(parameter).key;
    mlp.weights()[0](0, static_cast<Eigen::Index>(model.layout.block(block).offset)) = weight;
    mlp.biases()[0](0) = 1.5f;
    mlp.weights()[1](0, 0) = 1.0f;
    mlp.biases()[1](0) = 0.0f;
    setNetwork(model, std::move(mlp));
    return model;
}

} // namespace concorde::testing
