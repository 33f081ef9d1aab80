#include "explore/ConfigChecker.h"

#include "params/NearestValue.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

std::string withUnit(ParamId id, double value) {
    return ParameterSpace::spec(id).formatWithUnit(value);
}

std::string valueList(ParamId id, const std::vector<double>& values) {
    const ParameterSpec& spec = ParameterSpace::spec(id);
    std::string list;
    for (double v : values)
        list += (list.empty() ? "" : ", ") + spec.formatValue(v);
    return list;
}

} // namespace

ConfigChecker::ConfigChecker(ParameterGrid grid, TrainedValues trained)
    : grid_(std::move(grid)), trained_(std::move(trained)) {
    for (auto& values : trained_)
        std::sort(values.begin(), values.end());
}

ConfigChecker::TrainedValues
ConfigChecker::trainedValuesFromMetrics(const nlohmann::json& metrics) {
    TrainedValues trained;
    if (!metrics.is_object() || !metrics.contains("dataset"))
        return trained;
    const nlohmann::json& dataset = metrics["dataset"];
    const nlohmann::json* grid = nullptr;
    if (dataset.is_object() && dataset.contains("grid"))
        grid = &dataset["grid"];
    else if (dataset.is_object() && dataset.contains("files") && dataset["files"].is_array() &&
             !dataset["files"].empty() && dataset["files"][0].is_object() &&
             dataset["files"][0].contains("grid"))
        grid = &dataset["files"][0]["grid"];
    if (!grid || !grid->is_object())
        return trained;
    for (const auto& [key, values] : grid->items()) {
        const auto id = ParameterSpace::find(key);
        if (!id || !values.is_array())
            continue;
        std::vector<double>& out = trained[index(*id)];
        for (const auto& v : values) {
            try {
                if (v.is_number())
                    out.push_back(v.get<double>());
                else if (v.is_string())
                    out.push_back(CoreConfig::parseValue(*id, v.get<std::string>()));
            } catch (const std::exception&) {
                // a value this build does not understand says nothing useful: skip it
            }
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }
    return trained;
}

CoreConfig ConfigChecker::snap(const CoreConfig& config) const {
    CoreConfig snapped = config;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const double value = config.value(spec.id);
        if (grid_.find(spec.id, value))
            continue;
        const auto& values = grid_.values(spec.id);
        snapped.set(spec.id, values[nearestValueIndex(values, value)]);
    }
    return snapped;
}

std::vector<ParameterWarning> ConfigChecker::check(const CoreConfig& config) const {
    std::vector<ParameterWarning> warnings;
    const CoreConfig used = snap(config);
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const double value = config.value(spec.id);
        const double predicted = used.value(spec.id);
        if (value != predicted)
            warnings.push_back({spec.id, ParameterWarning::Kind::OffGrid, value, predicted,
                                spec.label + " " + withUnit(spec.id, value) +
                                    " is not a value the database holds; predicted at " +
                                    withUnit(spec.id, predicted)});
        const auto& trained = trained_[index(spec.id)];
        if (trained.empty() || std::binary_search(trained.begin(), trained.end(), predicted))
            continue;
        if (spec.kind == ParamKind::Choice || predicted < trained.front() ||
            predicted > trained.back()) {
            const std::string range =
                spec.kind == ParamKind::Choice
                    ? valueList(spec.id, trained)
                    : spec.formatValue(trained.front()) + "–" + withUnit(spec.id, trained.back());
            warnings.push_back({spec.id, ParameterWarning::Kind::OutsideTraining, value, predicted,
                                spec.label + " " + withUnit(spec.id, predicted) +
                                    " is outside what the model was trained on (" + range + ")"});
        } else {
            warnings.push_back({spec.id, ParameterWarning::Kind::BetweenTrained, value, predicted,
                                spec.label + " " + withUnit(spec.id, predicted) +
                                    " lies between the values the model was trained on (" +
                                    valueList(spec.id, trained) + ")"});
        }
    }
    return warnings;
}

} // namespace concorde
