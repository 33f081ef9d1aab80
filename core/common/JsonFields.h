#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace concorde {

/// Checked, typed reading of one JSON object that came from a file or a database.
///
/// Every JSON document the programs read (sessions, presets, trace and dataset metadata, model
/// and grid descriptions) goes through this class, so a value of the wrong type or shape is a
/// bad-input ConcordeError that names the source and the field —
///
///     session.json: field "format" must be a string, not a number
///
/// — and never an nlohmann exception escaping to the user. `context` names the source (a file
/// path, "gzip region 3"); nested objects extend it ("t.ctrace: regions[2]").
class JsonFields {
public:
    /// Throws a bad-input error if `object` is not a JSON object. `object` must outlive this.
    JsonFields(const nlohmann::json& object, std::string context);

    /// Parses `text` as JSON; a bad-input error naming `context` if it is not JSON.
    static nlohmann::json parse(const std::string& text, const std::string& context);

    const std::string& context() const { return context_; }
    const nlohmann::json& json() const { return object_; }
    bool has(const std::string& key) const { return object_.contains(key); }

    /// Required fields: a bad-input error if missing or of another type.
    std::string string(const std::string& key) const;
    std::int64_t integer(const std::string& key) const;
    /// A non-negative integer.
    std::uint64_t count(const std::string& key) const;
    double number(const std::string& key) const;
    bool boolean(const std::string& key) const;
    /// The field's value, which must be an object (as JsonFields) or an array.
    JsonFields object(const std::string& key) const;
    const nlohmann::json& array(const std::string& key) const;
    /// An array of finite numbers.
    std::vector<double> numbers(const std::string& key) const;
    /// Any JSON value, only required to be present.
    const nlohmann::json& value(const std::string& key) const;

    /// Optional fields: the fallback if missing (null counts as given, and is a type error).
    std::string string(const std::string& key, const std::string& fallback) const;
    std::int64_t integer(const std::string& key, std::int64_t fallback) const;
    std::uint64_t count(const std::string& key, std::uint64_t fallback) const;
    double number(const std::string& key, double fallback) const;
    bool boolean(const std::string& key, bool fallback) const;
    std::optional<JsonFields> optionalObject(const std::string& key) const;

    /// The context of field `key` ("CONTEXT: field \"key\""), for messages about its value.
    std::string where(const std::string& key) const;
    /// The context of element `index` of array field `key` ("CONTEXT: key[3]").
    std::string where(const std::string& key, std::size_t index) const;

    /// The JSON type of `value` as a user reads it ("a string", "null").
    static std::string typeName(const nlohmann::json& value);
    /// Checks that `value` is an array of `n` elements (any n if n < 0); a bad-input error
    /// naming `what` otherwise.
    static const nlohmann::json& requireArray(const nlohmann::json& value, const std::string& what,
                                              long n = -1);
    /// `value` as a non-negative integer, or a bad-input error naming `what`.
    static std::uint64_t requireCount(const nlohmann::json& value, const std::string& what);
    /// `value` as a string, or a bad-input error naming `what`.
    static std::string requireString(const nlohmann::json& value, const std::string& what);

private:
    const nlohmann::json& field(const std::string& key) const;
    [[noreturn]] void wrongType(const std::string& key, const char* wanted) const;

    const nlohmann::json& object_;
    std::string context_;
};

} // namespace concorde
