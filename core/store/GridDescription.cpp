#include "store/GridDescription.h"

#include "common/ConcordeError.h"
#include "features/ParameterGrid.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace concorde {
namespace {

std::vector<double> integers(double from, double to) {
    std::vector<double> values;
    for (double v = from; v <= to; v += 1.0)
        values.push_back(v);
    return values;
}

} // namespace

BoundsGrid GridDescription::full() {
    BoundsGrid grid = defaultBoundsGrid();
    for (const ParamId id :
         {ParamId::CommitWidth, ParamId::AluIssue, ParamId::FpIssue, ParamId::LsIssue,
          ParamId::LsPipes, ParamId::LoadPipes, ParamId::FetchWidth, ParamId::DecodeWidth,
          ParamId::RenameWidth, ParamId::BpMissPct}) {
        const auto& spec = ParameterSpace::spec(id);
        grid[index(id)] = integers(spec.min, spec.max);
    }
    return grid;
}

BoundsGrid GridDescription::resolve(const std::string& spec) {
    if (spec == "default")
        return defaultBoundsGrid();
    if (spec == "full")
        return full();
    std::ifstream in(spec);
    if (!in)
        throw badInput("cannot read grid file '" + spec +
                       "' (expected default, full or a JSON file)");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw badInput("grid file " + spec + " is not valid JSON: " + e.what());
    }
    return fromJson(object, false, "grid file " + spec);
}

nlohmann::json GridDescription::toJson(const BoundsGrid& grid) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& spec : ParameterSpace::all()) {
        nlohmann::json values = nlohmann::json::array();
        for (double v : grid[index(spec.id)]) {
            if (spec.kind == ParamKind::Choice)
                values.push_back(spec.formatValue(v));
            else if (v == std::floor(v) && std::fabs(v) < 1e15)
                values.push_back(static_cast<long long>(v));
            else
                values.push_back(v);
        }
        object[spec.key] = std::move(values);
    }
    return object;
}

std::string GridDescription::canonicalText(const BoundsGrid& grid) {
    return toJson(grid).dump();
}

BoundsGrid GridDescription::fromJson(const nlohmann::json& object, bool requireAll,
                                     const std::string& context) {
    if (!object.is_object())
        throw badInput(context + ": a grid must be a JSON object of parameter → list of values");
    std::map<ParamId, std::vector<double>> overrides;
    for (const auto& [key, values] : object.items()) {
        const auto id = ParameterSpace::find(key);
        if (!id)
            throw badInput(context + ": unknown parameter '" + key +
                           "' (known: " + ParameterSpace::keyList() + ")");
        if (!values.is_array())
            throw badInput(context + ": the grid of '" + key + "' must be a list of values");
        std::vector<double> list;
        for (const auto& value : values) {
            try {
                if (value.is_string())
                    list.push_back(CoreConfig::parseValue(*id, value.get<std::string>()));
                else if (value.is_number())
                    list.push_back(value.get<double>());
                else
                    throw badInput("grid value " + value.dump() +
                                   " is neither a number nor a name");
            } catch (const ConcordeError& e) {
                throw badInput(context + ": parameter '" + key + "': " + e.what());
            }
        }
        overrides[*id] = std::move(list);
    }
    if (requireAll)
        for (const auto& spec : ParameterSpace::all())
            if (!overrides.count(spec.id))
                throw badInput(context + ": the grid has no values for parameter '" + spec.key +
                               "'");
    ParameterGrid validated;
    try {
        validated = ParameterGrid(overrides);
    } catch (const ConcordeError& e) {
        throw badInput(context + ": " + e.what());
    }
    BoundsGrid grid;
    for (const auto& spec : ParameterSpace::all())
        grid[index(spec.id)] = validated.values(spec.id);
    return grid;
}

} // namespace concorde
