#include "common/JsonFields.h"

#include "common/ConcordeError.h"

#include <cmath>

namespace concorde {

JsonFields::JsonFields(const nlohmann::json& object, std::string context)
    : object_(object), context_(std::move(context)) {
    if (!object_.is_object())
        throw badInput(context_ + ": must be a JSON object, not " + typeName(object_));
}

nlohmann::json JsonFields::parse(const std::string& text, const std::string& context) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw badInput(context + ": not valid JSON (" + e.what() + ")");
    }
}

std::string JsonFields::typeName(const nlohmann::json& value) {
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_float:
        return "a fractional number";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return value.get<double>() < 0 ? "a negative number" : "a number";
    default:
        return "binary data";
    }
}

std::string JsonFields::where(const std::string& key) const {
    return context_ + ": field \"" + key + "\"";
}

std::string JsonFields::where(const std::string& key, std::size_t index) const {
    return context_ + ": " + key + "[" + std::to_string(index) + "]";
}

const nlohmann::json& JsonFields::field(const std::string& key) const {
    const auto it = object_.find(key);
    if (it == object_.end())
        throw badInput(where(key) + " is missing");
    return *it;
}

void JsonFields::wrongType(const std::string& key, const char* wanted) const {
    throw badInput(where(key) + " must be " + wanted + ", not " + typeName(object_.at(key)));
}

std::string JsonFields::string(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (!value.is_string())
        wrongType(key, "a string");
    return value.get<std::string>();
}

std::int64_t JsonFields::integer(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX)
        wrongType(key, "an integer below 2^63");
    if (!value.is_number_integer())
        wrongType(key, "an integer");
    return value.get<std::int64_t>();
}

std::uint64_t JsonFields::count(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
        wrongType(key, "a non-negative integer");
    return value.get<std::uint64_t>();
}

double JsonFields::number(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (!value.is_number() || !std::isfinite(value.get<double>()))
        wrongType(key, "a finite number");
    return value.get<double>();
}

bool JsonFields::boolean(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (!value.is_boolean())
        wrongType(key, "true or false");
    return value.get<bool>();
}

JsonFields JsonFields::object(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (!value.is_object())
        wrongType(key, "an object");
    return JsonFields(value, context_ + ": " + key);
}

const nlohmann::json& JsonFields::array(const std::string& key) const {
    const nlohmann::json& value = field(key);
    if (!value.is_array())
        wrongType(key, "an array");
    return value;
}

std::vector<double> JsonFields::numbers(const std::string& key) const {
    const nlohmann::json& values = array(key);
    std::vector<double> out;
    out.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!values[i].is_number() || !std::isfinite(values[i].get<double>()))
            throw badInput(where(key, i) + " must be a finite number, not " + typeName(values[i]));
        out.push_back(values[i].get<double>());
    }
    return out;
}

const nlohmann::json& JsonFields::value(const std::string& key) const {
    return field(key);
}

std::string JsonFields::string(const std::string& key, const std::string& fallback) const {
    return has(key) ? string(key) : fallback;
}

std::int64_t JsonFields::integer(const std::string& key, std::int64_t fallback) const {
    return has(key) ? integer(key) : fallback;
}

std::uint64_t JsonFields::count(const std::string& key, std::uint64_t fallback) const {
    return has(key) ? count(key) : fallback;
}

double JsonFields::number(const std::string& key, double fallback) const {
    return has(key) ? number(key) : fallback;
}

bool JsonFields::boolean(const std::string& key, bool fallback) const {
    return has(key) ? boolean(key) : fallback;
}

std::optional<JsonFields> JsonFields::optionalObject(const std::string& key) const {
    if (!has(key))
        return std::nullopt;
    return object(key);
}

const nlohmann::json& JsonFields::requireArray(const nlohmann::json& value, const std::string& what,
                                               long n) {
    if (!value.is_array())
        throw badInput(what + " must be an array, not " + typeName(value));
    if (n >= 0 && value.size() != static_cast<std::size_t>(n))
        throw badInput(what + " must have " + std::to_string(n) + " elements, not " +
                       std::to_string(value.size()));
    return value;
}

std::uint64_t JsonFields::requireCount(const nlohmann::json& value, const std::string& what) {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
        throw badInput(what + " must be a non-negative integer, not " + typeName(value));
    return value.get<std::uint64_t>();
}

std::string JsonFields::requireString(const nlohmann::json& value, const std::string& what) {
    if (!value.is_string())
        throw badInput(what + " must be a string, not " + typeName(value));
    return value.get<std::string>();
}

} // namespace concorde
