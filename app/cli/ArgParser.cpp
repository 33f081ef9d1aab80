#include "ArgParser.h"

#include "common/ConcordeError.h"

#include <charconv>
#include <cmath>

namespace concorde::cli {

ArgParser::ArgParser(std::vector<std::string> args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--") {
            afterDash_.assign(args.begin() + static_cast<long>(i) + 1, args.end());
            break;
        }
        args_.push_back(args[i]);
    }
}

bool ArgParser::takeFlag(const std::string& name) {
    bool found = false;
    for (auto it = args_.begin(); it != args_.end();) {
        if (*it == name) {
            it = args_.erase(it);
            found = true;
        } else {
            ++it;
        }
    }
    return found;
}

std::vector<std::string> ArgParser::takeValues(const std::string& name) {
    std::vector<std::string> values;
    const std::string prefix = name + "=";
    for (auto it = args_.begin(); it != args_.end();) {
        if (*it == name) {
            if (it + 1 == args_.end())
                throw usageError("option " + name + " needs a value");
            values.push_back(*(it + 1));
            it = args_.erase(it, it + 2);
        } else if (it->rfind(prefix, 0) == 0) {
            values.push_back(it->substr(prefix.size()));
            it = args_.erase(it);
        } else {
            ++it;
        }
    }
    return values;
}

std::optional<std::string> ArgParser::takeValue(const std::string& name) {
    auto values = takeValues(name);
    if (values.empty())
        return std::nullopt;
    if (values.size() > 1)
        throw usageError("option " + name + " given more than once");
    return values.front();
}

std::uint64_t ArgParser::takeUnsigned(const std::string& name, std::uint64_t fallback,
                                      std::uint64_t min, std::uint64_t max) {
    const auto text = takeValue(name);
    if (!text)
        return fallback;
    std::uint64_t value = 0;
    const auto* end = text->data() + text->size();
    const auto result = std::from_chars(text->data(), end, value);
    if (text->empty() || result.ec != std::errc() || result.ptr != end)
        throw usageError("option " + name + " expects a whole number, got '" + *text + "'");
    if (value < min || value > max)
        throw usageError("option " + name + " = " + *text + " is out of range " +
                         std::to_string(min) + "–" + std::to_string(max));
    return value;
}

double ArgParser::takeDouble(const std::string& name, double fallback, double min, double max) {
    const auto text = takeValue(name);
    if (!text)
        return fallback;
    double value = 0;
    const auto* end = text->data() + text->size();
    const auto result = std::from_chars(text->data(), end, value);
    if (text->empty() || result.ec != std::errc() || result.ptr != end || !std::isfinite(value))
        throw usageError("option " + name + " expects a number, got '" + *text + "'");
    if (value < min || value > max)
        throw usageError("option " + name + " = " + *text + " is out of range " +
                         std::to_string(min) + "–" + std::to_string(max));
    return value;
}

std::vector<std::string> ArgParser::takeAfterDoubleDash() {
    return std::move(afterDash_);
}

std::vector<std::string> ArgParser::finish() {
    for (const auto& arg : args_)
        if (arg.size() > 1 && arg[0] == '-')
            throw usageError("unknown option '" + arg + "'");
    if (!afterDash_.empty())
        throw usageError("unexpected arguments after '--'");
    return args_;
}

} // namespace concorde::cli
