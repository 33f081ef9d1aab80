#include "ml/AccuracyReport.h"

#include "params/ParameterSpace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace concorde {
namespace {

/// Error statistics of one predictor over a set of entries.
struct Stats {
    std::size_t samples = 0;
    double sum = 0;
    std::size_t over10 = 0;
    std::vector<double> errors;

    void add(double error) {
        ++samples;
        sum += error;
        over10 += error > 0.10 ? 1 : 0;
        errors.push_back(error);
    }
    double mean() const { return samples ? sum / double(samples) : 0; }
    double fraction() const { return samples ? double(over10) / double(samples) : 0; }
    double quantile(double q) const {
        if (errors.empty())
            return 0;
        std::vector<double> sorted = errors;
        std::sort(sorted.begin(), sorted.end());
        // Nearest rank: the smallest error with at least a fraction q of the samples at or below.
        const auto rank = static_cast<std::size_t>(std::ceil(q * double(sorted.size())));
        return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
    }
    nlohmann::json toJson() const {
        return {{"samples", samples},
                {"mean_rel_error", mean()},
                {"frac_over_10pct", fraction()},
                {"p90_rel_error", quantile(0.9)},
                {"max_rel_error",
                 errors.empty() ? 0.0 : *std::max_element(errors.begin(), errors.end())}};
    }
};

using Pick = double (*)(const AccuracyReport::Entry&);

nlohmann::json summary(const std::vector<AccuracyReport::Entry>& entries, Pick pick,
                       bool perParameter) {
    Stats all;
    std::map<std::string, Stats> programs;
    std::map<std::string, std::map<std::string, Stats>> parameters;
    for (const auto& e : entries) {
        const double error = AccuracyReport::relativeError(pick(e), e.truth);
        all.add(error);
        programs[e.program].add(error);
        if (perParameter)
            for (const auto& spec : ParameterSpace::all())
                parameters[spec.key][spec.formatValue(e.config.value(spec.id))].add(error);
    }
    nlohmann::json json = all.toJson();
    json["per_program"] = nlohmann::json::object();
    for (const auto& [name, stats] : programs)
        json["per_program"][name] = stats.toJson();
    if (perParameter) {
        json["per_parameter"] = nlohmann::json::object();
        for (const auto& [key, values] : parameters)
            for (const auto& [value, stats] : values)
                json["per_parameter"][key][value] = {{"samples", stats.samples},
                                                     {"mean_rel_error", stats.mean()}};
    }
    return json;
}

} // namespace

double AccuracyReport::meanRelativeError() const {
    Stats s;
    for (const auto& e : entries_)
        s.add(relativeError(e.model, e.truth));
    return s.mean();
}

double AccuracyReport::fractionOver10Percent() const {
    Stats s;
    for (const auto& e : entries_)
        s.add(relativeError(e.model, e.truth));
    return s.fraction();
}

bool AccuracyReport::banded() const {
    return std::any_of(entries_.begin(), entries_.end(),
                       [](const Entry& e) { return e.high > e.low; });
}

double AccuracyReport::bandCoverage() const {
    std::size_t banded = 0, inside = 0;
    for (const auto& e : entries_)
        if (e.high > e.low) {
            ++banded;
            inside += e.truth >= e.low && e.truth <= e.high ? 1 : 0;
        }
    return banded ? static_cast<double>(inside) / static_cast<double>(banded) : 0.0;
}

nlohmann::json AccuracyReport::toJson() const {
    nlohmann::json json = summary(
        entries_, [](const Entry& e) { return e.model; }, true);
    if (banded())
        json["band_coverage"] = bandCoverage();
    json["baselines"]["min_of_bounds"] = summary(
        entries_, [](const Entry& e) { return e.minBound; }, false);
    const bool haveLinear =
        std::all_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.linear > 0; });
    if (haveLinear && !entries_.empty())
        json["baselines"]["linear"] = summary(
            entries_, [](const Entry& e) { return e.linear; }, false);
    return json;
}

std::string AccuracyReport::toText(const std::string& title) const {
    const nlohmann::json json = toJson();
    std::string text;
    char line[256];
    std::snprintf(line, sizeof line, "%s: %zu samples\n", title.c_str(), entries_.size());
    text += line;
    const auto row = [&](const std::string& name, const nlohmann::json& j) {
        std::snprintf(line, sizeof line,
                      "  %-22s mean error %6.2f %%   over 10 %%: %6.2f %%   p90 %6.2f %%\n",
                      name.c_str(), 100 * j.value("mean_rel_error", 0.0),
                      100 * j.value("frac_over_10pct", 0.0), 100 * j.value("p90_rel_error", 0.0));
        text += line;
    };
    row("model (MLP)", json);
    if (json.contains("band_coverage")) {
        std::snprintf(line, sizeof line, "  %-22s %6.2f %% of the reference CPIs inside it\n",
                      "model's band", 100 * json["band_coverage"].get<double>());
        text += line;
    }
    for (const auto& [name, baseline] : json["baselines"].items())
        row("baseline " + name, baseline);
    text += "  per program (model):\n";
    for (const auto& [name, program] : json["per_program"].items())
        row("  " + name, program);
    return text;
}

} // namespace concorde
