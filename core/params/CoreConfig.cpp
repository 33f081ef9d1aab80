#include "params/CoreConfig.h"

#include "common/ConcordeError.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace concorde {

CoreConfig::CoreConfig() {
    for (const auto& spec : ParameterSpace::all())
        values_[index(spec.id)] = spec.defaultValue;
}

void CoreConfig::validate(ParamId id, double value) {
    const auto& spec = ParameterSpace::spec(id);
    const bool wrongKind = (spec.kind != ParamKind::Real && std::floor(value) != value);
    if (!std::isfinite(value) || wrongKind || value < spec.min || value > spec.max) {
        throw badInput("parameter '" + spec.key + "' = " + spec.formatValue(value) +
                       " is out of range; allowed: " + spec.describeRange() +
                       (spec.kind == ParamKind::Integer ? " (whole numbers)" : ""));
    }
}

double CoreConfig::parseValue(ParamId id, std::string_view text) {
    const auto& spec = ParameterSpace::spec(id);
    if (spec.kind == ParamKind::Choice) {
        for (std::size_t i = 0; i < spec.choices.size(); ++i)
            if (spec.choices[i] == text)
                return static_cast<double>(i);
        throw badInput("parameter '" + spec.key + "' = '" + std::string(text) +
                       "' is not a valid choice; allowed: " + spec.describeRange());
    }
    double parsed = 0;
    const auto* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, parsed);
    if (text.empty() || result.ec != std::errc() || result.ptr != end) {
        throw badInput("parameter '" + spec.key + "' = '" + std::string(text) +
                       "' is not a number; allowed: " + spec.describeRange());
    }
    validate(id, parsed);
    return parsed;
}

void CoreConfig::set(ParamId id, double value) {
    validate(id, value);
    values_[index(id)] = value;
}

void CoreConfig::set(std::string_view key, std::string_view text) {
    const ParamId id = ParameterSpace::require(key);
    values_[index(id)] = parseValue(id, text);
}

void CoreConfig::applyAssignment(std::string_view assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw badInput("expected key=value, got '" + std::string(assignment) + "'");
    set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

nlohmann::json CoreConfig::toJson() const {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& spec : ParameterSpace::all()) {
        const double v = values_[index(spec.id)];
        if (spec.kind == ParamKind::Choice)
            object[spec.key] = spec.formatValue(v);
        else if (spec.kind == ParamKind::Integer)
            object[spec.key] = static_cast<long long>(v);
        else
            object[spec.key] = v;
    }
    return object;
}

CoreConfig CoreConfig::fromJson(const nlohmann::json& object, bool requireAll,
                                const std::string& context) {
    if (!object.is_object())
        throw badInput(context + ": parameters must be a JSON object of key: value");
    CoreConfig config;
    for (const auto& [key, value] : object.items()) {
        const auto id = ParameterSpace::find(key);
        if (!id)
            throw badInput(context + ": unknown parameter '" + key +
                           "'; valid keys are: " + ParameterSpace::keyList());
        try {
            if (value.is_string())
                config.values_[index(*id)] = parseValue(*id, value.get<std::string>());
            else if (value.is_number())
                config.set(*id, value.get<double>());
            else
                throw badInput("parameter '" + key + "' must be a number or a name");
        } catch (const ConcordeError& e) {
            throw badInput(context + ": " + e.what());
        }
    }
    if (requireAll) {
        for (const auto& spec : ParameterSpace::all())
            if (!object.contains(spec.key))
                throw badInput(context + ": parameter '" + spec.key + "' is missing");
    }
    return config;
}

std::string CoreConfig::toAssignments() const {
    std::string text;
    for (const auto& spec : ParameterSpace::all()) {
        if (!text.empty())
            text += ' ';
        text += spec.key + "=" + spec.formatValue(values_[index(spec.id)]);
    }
    return text;
}

} // namespace concorde
