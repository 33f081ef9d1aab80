#include "CommonOptions.h"

#include "bounds/AnalysisRevision.h"
#include "store/Shard.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace concorde::cli {
namespace {

std::string formatReal(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

template <class T>
bool parseNumber(const std::string& text, T& value) {
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value);
    return !text.empty() && result.ec == std::errc() && result.ptr == end;
}

} // namespace

CLI::Validator wholeNumber(std::uint64_t min, std::uint64_t max) {
    // No range in the help when every value is allowed (a seed, a count of instructions), and
    // no 2^64 - 1 in it when only a minimum matters.
    const bool openEnded = max == UINT64_MAX;
    const std::string range = openEnded ? "at least " + std::to_string(min)
                                        : std::to_string(min) + "–" + std::to_string(max);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            std::uint64_t value = 0;
            if (!parseNumber(text, value))
                return "expects a whole number, got '" + text + "'";
            if (value < min || value > max)
                return text + " is out of range " + (openEnded ? "(" + range + ")" : range);
            return {};
        },
        openEnded&& min == 0 ? std::string() : range);
}

CLI::Validator realNumber(double min, double max) {
    const std::string range = formatReal(min) + "–" + formatReal(max);
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            double value = 0;
            if (!parseNumber(text, value) || !std::isfinite(value))
                return "expects a number, got '" + text + "'";
            if (value < min || value > max)
                return text + " is out of range " + range;
            return {};
        },
        range);
}

CLI::Validator oneOf(const std::vector<std::string>& names) {
    std::string list;
    for (const auto& name : names)
        list += (list.empty() ? "" : ", ") + name;
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            if (std::find(names.begin(), names.end(), text) != names.end())
                return {};
            return "unknown value '" + text + "'; expected one of " + list;
        },
        "one of " + list);
}

CLI::Option* addJobsOption(CLI::App& app, unsigned& jobs) {
    return app.add_option("--jobs", jobs, "threads")
        ->type_name("N")
        ->check(wholeNumber(1, 4096))
        ->default_str("every core");
}

CLI::Option* addSeedOption(CLI::App& app, std::uint64_t& seed, const std::string& help) {
    return app.add_option("--seed", seed, help)
        ->type_name("S")
        ->check(wholeNumber())
        ->capture_default_str();
}

CLI::Option* addShardOption(CLI::App& app, Shard& shard, const std::string& help) {
    return app
        .add_option_function<std::string>(
            "--shard", [&shard](const std::string& text) { shard = Shard::parse(text); }, help)
        ->type_name("I/N");
}

CLI::Option* addLoadQueueModelOption(CLI::App& app, AnalysisRevision& analysis,
                                     const std::string& note) {
    return app
        .add_option_function<std::string>(
            "--load-queue-model",
            [&analysis](const std::string& text) {
                analysis.loadQueueThroughCommit = text == "through-commit";
            },
            "the LQ bound: 'through-commit' (each load holds its entry until it commits, "
            "behind every older instruction; docs/design.md section 7; what the shipped model "
            "was trained on) or 'loads-only' (loads without dependencies, for models trained "
            "before 2026-11-30)" +
                (note.empty() ? std::string() : ". " + note))
        ->type_name("M")
        ->check(oneOf({"loads-only", "through-commit"}))
        ->default_str("through-commit");
}

} // namespace concorde::cli
