#include "ml/ModelAccuracy.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

/// The figure of one accuracy report ({"mean_rel_error", "frac_over_10pct", "samples"}), or
/// nullopt when it is missing or malformed.
std::optional<ModelAccuracy::Figure> figureOf(const nlohmann::json& report) {
    if (!report.is_object())
        return std::nullopt;
    const auto mean = report.find("mean_rel_error");
    if (mean == report.end() || !mean->is_number())
        return std::nullopt;
    ModelAccuracy::Figure figure;
    figure.meanRelError = mean->get<double>();
    if (const auto over = report.find("frac_over_10pct"); over != report.end() && over->is_number())
        figure.fracOver10Pct = over->get<double>();
    if (const auto n = report.find("samples");
        n != report.end() && n->is_number_integer() && n->get<std::int64_t>() >= 0)
        figure.samples = n->get<std::uint64_t>();
    return figure;
}

const nlohmann::json* child(const nlohmann::json& object, const char* key) {
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

void addPrograms(std::set<std::string>& to, const nlohmann::json* list) {
    if (!list || !list->is_array())
        return;
    for (const auto& name : *list)
        if (name.is_string())
            to.insert(name.get<std::string>());
}

void addPerProgram(ModelAccuracy& accuracy, const nlohmann::json* report, bool heldOut) {
    const nlohmann::json* perProgram = report ? child(*report, "per_program") : nullptr;
    if (!perProgram || !perProgram->is_object())
        return;
    for (const auto& [program, entry] : perProgram->items())
        if (const auto figure = figureOf(entry)) {
            accuracy.perProgram[program] = {*figure, heldOut};
            if (heldOut)
                accuracy.heldOutPrograms.insert(program);
        }
}

} // namespace

ModelAccuracy ModelAccuracy::fromMetrics(const nlohmann::json& metrics) {
    ModelAccuracy accuracy;
    const nlohmann::json* measured = child(metrics, "accuracy");
    const nlohmann::json* test = measured ? child(*measured, "test") : nullptr;
    const nlohmann::json* heldOut = measured ? child(*measured, "held_out") : nullptr;
    const nlohmann::json* labels = measured ? child(*measured, "labels") : nullptr;
    const nlohmann::json* neverSeen = measured ? child(*measured, "never_seen") : nullptr;
    if (test)
        accuracy.unseenRegions = figureOf(*test);
    const auto coverage = [](const nlohmann::json* split) {
        const nlohmann::json* value = split ? child(*split, "band_coverage") : nullptr;
        return value && value->is_number() ? value->get<double>() : 0.0;
    };
    accuracy.bandCoverage = coverage(test);
    accuracy.heldOutBandCoverage = coverage(heldOut);
    if (heldOut)
        accuracy.unseenPrograms = figureOf(*heldOut);
    if (labels)
        accuracy.labels = figureOf(*labels);
    if (neverSeen) {
        accuracy.neverSeen = figureOf(*neverSeen);
        if (const nlohmann::json* programs = child(*neverSeen, "per_program");
            programs && programs->is_object())
            for (const auto& [program, entry] : programs->items())
                accuracy.neverSeenPrograms.insert(program);
        // Label sources "preset:NAME" are the presets; "random" is not one.
        if (const nlohmann::json* sources = child(*neverSeen, "per_source");
            sources && sources->is_object())
            for (const auto& [source, entry] : sources->items()) {
                const auto figure = figureOf(entry);
                if (!figure || source.rfind("preset:", 0) != 0)
                    continue;
                PresetFigure preset{*figure, -1};
                const nlohmann::json* baselines = child(entry, "baselines");
                const nlohmann::json* bound =
                    baselines ? child(*baselines, "min_of_bounds") : nullptr;
                if (const auto boundFigure = bound ? figureOf(*bound) : std::nullopt)
                    preset.minOfBoundsError = boundFigure->meanRelError;
                accuracy.neverSeenPerPreset[source.substr(7)] = preset;
            }
    }
    addPerProgram(accuracy, test, false);
    addPerProgram(accuracy, heldOut, true);

    if (const nlohmann::json* dataset = child(metrics, "dataset")) {
        addPrograms(accuracy.trainPrograms, child(*dataset, "train_programs"));
        addPrograms(accuracy.heldOutPrograms, child(*dataset, "hold_out"));
        if (const nlohmann::json* files = child(*dataset, "files"); files && files->is_array())
            for (const auto& file : *files)
                addPrograms(accuracy.heldOutPrograms, child(file, "hold_out"));
    }
    return accuracy;
}

bool ModelAccuracy::isHeldOut(const std::string& program) const {
    if (heldOutPrograms.count(program))
        return true;
    return !trainPrograms.empty() && !trainPrograms.count(program);
}

std::string ModelAccuracy::percent(double relativeError) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", relativeError * 100.0);
    return text;
}

std::string ModelAccuracy::summary() const {
    std::string text;
    const auto add = [&](const std::optional<Figure>& figure, const std::string& what) {
        if (!figure)
            return;
        text += text.empty() ? "model error " : ", ";
        text += percent(figure->meanRelError) + " on " + what;
    };
    add(unseenRegions, "unseen regions");
    add(unseenPrograms, "held-out programs");
    add(neverSeen, (neverSeenPrograms.empty() ? std::string()
                                              : std::to_string(neverSeenPrograms.size()) + " ") +
                       "never-seen programs");
    add(labels, "this database's labels");
    return text.empty() ? "model accuracy not recorded" : text;
}

std::vector<std::string> ModelAccuracy::neverSeenPresetLines() const {
    std::vector<std::string> lines;
    for (const auto& [preset, figure] : neverSeenPerPreset) {
        std::string line = preset + ": " + percent(figure.model.meanRelError);
        if (figure.minOfBoundsError >= 0)
            line += " (min of bounds " + percent(figure.minOfBoundsError) + ")";
        lines.push_back(line);
    }
    return lines;
}

std::string ModelAccuracy::programSummary(const std::string& program) const {
    const auto it = perProgram.find(program);
    if (it == perProgram.end())
        return isHeldOut(program) ? program + ": never trained on" : std::string();
    return program + ": " + percent(it->second.figure.meanRelError) +
           (it->second.heldOut ? ", never trained on" : " (unseen regions)");
}

} // namespace concorde
