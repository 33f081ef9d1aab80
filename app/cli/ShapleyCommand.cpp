#include "ShapleyCommand.h"

#include "CommonOptions.h"
#include "ConfigOptions.h"
#include "JobRunner.h"
#include "attribution/AttributionCsvWriter.h"
#include "attribution/OrderedAblation.h"
#include "attribution/PlayerSet.h"
#include "attribution/ProgramValueFunction.h"
#include "attribution/ShapleyAttributor.h"
#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"
#include "explore/RegionValueFunction.h"
#include "explore/ShapleyJob.h"
#include "params/ParameterSpace.h"
#include "params/Preset.h"
#include "params/PresetLibrary.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

namespace {

/// Regions shown side by side in the per-region text table; beyond, --csv or --json.
constexpr std::size_t kMaxRegionColumns = 8;

struct NamedConfig {
    CoreConfig config;
    std::string name; ///< the preset name or the file as given
};

/// A preset name or a JSON file: a preset file ({"name", "parameters": {...}}) or a plain object
/// of all twenty parameters (what `concorde predict --json` prints as "config").
NamedConfig resolveConfig(const std::string& option, const std::string& spec) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool looksLikeFile = spec.ends_with(".json") || spec.find('/') != std::string::npos ||
                               fs::is_regular_file(spec, ec);
    if (!looksLikeFile) {
        const PresetLibrary library = ConfigOptions::loadPresets();
        if (const Preset* preset = library.find(spec))
            return {preset->config, spec};
        throw badInput(option + " " + spec + ": no preset of that name (presets: " +
                       library.nameList() + ") and no such file");
    }
    std::ifstream in(spec);
    if (!in)
        throw badInput(option + " " + spec + ": cannot open the configuration file");
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw badInput(option + " " + spec + ": not valid JSON: " + e.what());
    }
    if (!document.is_object())
        throw badInput(option + " " + spec +
                       ": expected a JSON object of parameters (or a preset file)");
    if (document.contains("parameters"))
        return {Preset::load(spec).config, spec};
    return {CoreConfig::fromJson(document, true, option + " " + spec), spec};
}

/// Every parameter of `config` must be a grid point of the database: the model predicts only
/// those (block-precomputed inference).
void requireOnGrid(const std::string& option, const NamedConfig& config, const ParameterGrid& grid,
                   const std::string& database) {
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const double value = config.config.value(spec.id);
        if (grid.find(spec.id, value))
            continue;
        std::string values;
        for (const double v : grid.values(spec.id))
            values += (values.empty() ? "" : ", ") + spec.formatValue(v);
        throw badInput(option + " " + config.name + ": " + spec.key + " = " +
                       spec.formatValue(value) + " is not on the grid of " + database + " (" +
                       spec.key + ": " + values +
                       "); the model predicts only grid points, see concorde info " + database);
    }
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string item = text.substr(start, comma - start);
        const auto first = item.find_first_not_of(" \t");
        const auto last = item.find_last_not_of(" \t");
        item = first == std::string::npos ? "" : item.substr(first, last - first + 1);
        if (item.empty())
            throw usageError("--ablation-order: empty player name in '" + text + "'");
        items.push_back(std::move(item));
        start = comma + 1;
    }
    return items;
}

/// The ablation order: the players given (validated by name), then every other player whose
/// parameters differ, in player order, so the last step always reaches the target.
std::vector<std::size_t> ablationOrder(const std::string& text, const PlayerSet& players,
                                       const CoreConfig& baseline, const CoreConfig& target) {
    std::vector<std::size_t> order;
    for (const std::string& name : splitList(text)) {
        const std::size_t p = players.require(name);
        if (std::find(order.begin(), order.end(), p) != order.end())
            throw usageError("--ablation-order names '" + name + "' twice");
        order.push_back(p);
    }
    for (std::size_t p = 0; p < players.size(); ++p)
        if (players.differs(p, baseline, target) &&
            std::find(order.begin(), order.end(), p) == order.end())
            order.push_back(p);
    return order;
}

std::string format(const char* pattern, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

std::string padRight(std::string text, std::size_t width) {
    if (text.size() < width)
        text.resize(width, ' ');
    return text;
}

std::string padLeft(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::size_t playerWidth(const PlayerSet& players) {
    std::size_t width = 12;
    for (const Player& p : players.players())
        width = std::max(width, p.name.size() + 2);
    return width;
}

void printProgram(std::ostream& out, const ProgramAttribution& program,
                  const std::pair<CpiBand, CpiBand>& bands, const AttributionReport& report,
                  const NamedConfig& baseline, const NamedConfig& target, bool regionTable,
                  const OrderedAblation::Result* ablation) {
    const Attribution& all = program.total;
    const std::size_t width = playerWidth(report.players);
    const bool sampling = all.method == AttributionMethod::Sampling;
    out << program.program << " (" << program.regions.size() << " regions, " << program.instructions
        << " instructions)\n"
        << "  CPI " << format("%.5f", all.baselineCpi) << " [" << format("%.3f", bands.first.low)
        << "-" << format("%.3f", bands.first.high) << "] (" << baseline.name << ") -> "
        << format("%.5f", all.targetCpi) << " [" << format("%.3f", bands.second.low) << "-"
        << format("%.3f", bands.second.high) << "] (" << target.name << "), change "
        << format("%+.5f", all.delta()) << "\n";
    std::size_t active = 0;
    for (const PlayerAttribution& p : all.players)
        active += p.active ? 1 : 0;
    out << "  Shapley values, " << methodName(all.method) << " over " << active
        << " players that differ";
    if (sampling)
        out << " (" << all.permutations << " permutations, +/- one standard error)";
    out << "\n  " << padRight("player", width) << padLeft("attribution", 12)
        << (sampling ? padLeft("stderr", 11) : "") << padLeft("share", 9) << "\n";
    double stderrSum = 0;
    for (const PlayerAttribution& p : all.players) {
        out << "  " << padRight(p.player, width);
        if (!p.active) {
            out << padLeft("0", 12) << (sampling ? padLeft("", 11) : "")
                << "    (same in baseline and target)\n";
            continue;
        }
        out << padLeft(format("%+.5f", p.value), 12);
        if (sampling)
            out << padLeft(format("%.5f", p.standardError), 11);
        stderrSum += p.standardError;
        out << padLeft(all.delta() != 0 ? format("%.1f %%", 100.0 * p.value / all.delta()) : "-", 9)
            << "\n";
    }
    out << "  " << padRight("sum", width) << padLeft(format("%+.5f", all.sum()), 12)
        << (sampling ? padLeft(format("%.5f", stderrSum), 11) : "") << "\n";

    if (regionTable) {
        const std::size_t shown = std::min(kMaxRegionColumns, program.regions.size());
        out << "  per region (CPI and attributions):\n  " << padRight("", width)
            << padLeft("all", 10);
        for (std::size_t r = 0; r < shown; ++r)
            out << padLeft("region " + program.regions[r].region, 11);
        out << "\n  " << padRight("baseline CPI", width)
            << padLeft(format("%.4f", all.baselineCpi), 10);
        for (std::size_t r = 0; r < shown; ++r)
            out << padLeft(format("%.4f", program.regions[r].attribution.baselineCpi), 11);
        out << "\n  " << padRight("target CPI", width)
            << padLeft(format("%.4f", all.targetCpi), 10);
        for (std::size_t r = 0; r < shown; ++r)
            out << padLeft(format("%.4f", program.regions[r].attribution.targetCpi), 11);
        out << "\n";
        for (std::size_t i = 0; i < all.players.size(); ++i) {
            if (!all.players[i].active)
                continue;
            out << "  " << padRight(all.players[i].player, width)
                << padLeft(format("%+.4f", all.players[i].value), 10);
            for (std::size_t r = 0; r < shown; ++r)
                out << padLeft(format("%+.4f", program.regions[r].attribution.players[i].value),
                               11);
            out << "\n";
        }
        if (shown < program.regions.size())
            out << "  (" << program.regions.size() - shown
                << " more regions: use --csv or --json for all of them)\n";
    }

    if (ablation) {
        out << "  Ordered ablation (one player at a time, in this order; compare with Shapley):\n"
            << "  step  " << padRight("player", width) << padLeft("CPI before", 11)
            << padLeft("CPI after", 11) << padLeft("change", 11) << padLeft("Shapley", 11) << "\n";
        double total = 0;
        for (std::size_t s = 0; s < ablation->steps.size(); ++s) {
            const auto& step = ablation->steps[s];
            total += step.delta();
            char number[32];
            std::snprintf(number, sizeof number, "%4zu  ", s + 1);
            out << "  " << number << padRight(step.player, width)
                << padLeft(format("%.5f", step.cpiBefore), 11)
                << padLeft(format("%.5f", step.cpiAfter), 11)
                << padLeft(format("%+.5f", step.delta()), 11)
                << padLeft(format("%+.5f", all.at(step.player).value), 11) << "\n";
        }
        out << "  " << padRight("      total", width + 6) << padLeft("", 22)
            << padLeft(format("%+.5f", total), 11) << padLeft(format("%+.5f", all.sum()), 11)
            << "\n";
    }
    out << "\n";
}

} // namespace

std::string ShapleyCommand::description() const {
    return "Attributes the model's CPI change from the baseline to the target configuration\n"
           "to the parameters (or groups of them) with Shapley values: each\n"
           "player's marginal effect, switched from baseline to target, averaged over every\n"
           "order of switching. Unlike a one-at-a-time ablation the result does not depend\n"
           "on an order, and the values add up to CPI(target) - CPI(baseline).\n\n"
           "Each region is attributed with its own CPI; a program's attribution (region\n"
           "'all') is the instruction-weighted mean of its regions', which is the Shapley\n"
           "attribution of the program's CPI. Exact (every coalition) when at most 12\n"
           "players differ between baseline and target; beyond, K random permutations in\n"
           "antithetic pairs, with a standard error per value. A player whose parameters are\n"
           "equal in baseline and target gets exactly 0.\n\n"
           "Baseline and target: a preset name (big, n1-like, little or your own) or a JSON\n"
           "file: a preset file, or an object with all twenty parameters (the \"config\" of\n"
           "concorde predict --json). Every value must be on the database's grid.\n\n"
           "Players: each parameter on its own by default; --groups default uses the ten\n"
           "documented groups (caches = l1d_kb + l1i_kb + l2_kb, frontend_width = fetch,\n"
           "decode and rename widths, ...); --groups FILE reads {\"groups\": {\"caches\":\n"
           "[\"l1d_kb\", \"l1i_kb\", \"l2_kb\"], ...}}, unlisted parameters stay "
           "singletons.\n\n"
           "--ablation-order adds the classic ordered ablation, per program: starting from\n"
           "the baseline, switch the named players one at a time in that order (players\n"
           "that differ but are not named follow in parameter order), and report each\n"
           "step's CPI change next to the player's Shapley value. The steps also add up to\n"
           "the whole change, but each depends on the order when players interact.\n\n"
           "Output: a table per program (with --program also per region). --csv writes the\n"
           "header program,region,player,attribution,stderr and, per program, the rows of\n"
           "region 'all' then of each region (every player, 0 for those that do not differ);\n"
           "with --ablation-order the ablation steps follow as rows of region 'ablation' in\n"
           "step order (attribution = the step's CPI change, stderr 0). --json writes\n"
           "{\"baseline\", \"target\", \"baseline_name\", \"target_name\", \"players\",\n"
           "\"method\", \"permutations\", \"seed\", \"model\", \"programs\": [{\"program\",\n"
           "\"instructions\", \"baseline_cpi\", \"target_cpi\", their bands \"baseline_cpi_low\",\n"
           "\"baseline_cpi_high\", \"target_cpi_low\", \"target_cpi_high\", \"all\": "
           "{\"baseline_cpi\",\n"
           "\"target_cpi\", \"delta\", \"players\": [{\"player\", \"attribution\",\n"
           "\"stderr\", \"active\"}], ...}, \"regions\": [...the same per region...],\n"
           "\"ablation\": {\"order\", \"steps\": [...]}}]}.\n\n"
           "Ctrl-C cancels (exit code 130, nothing written).\n";
}

std::string ShapleyCommand::epilogue() const {
    return "Example:\n"
           "  concorde shapley --db data/default.sqlite --all --baseline little --target big \\\n"
           "      --groups default --ablation-order caches,window\n";
}

void ShapleyCommand::declare(CLI::App& app) {
    app.add_option("--db", db_, "the feature database (with a model, or see --model-from)")
        ->type_name("DB")
        ->required();
    programs_.addTo(app);
    app.add_option("--baseline", baseline_, "preset name or JSON file")->type_name("B")->required();
    app.add_option("--target", target_, "preset name or JSON file")->type_name("T")->required();
    app.add_option("--groups", groups_, "'default' or a grouping JSON file")
        ->type_name("G")
        ->default_str("parameters");
    app.add_option("--permutations", options_.permutations, "permutations in sampling mode")
        ->type_name("K")
        ->check(wholeNumber(4, 100'000'000))
        ->capture_default_str();
    addSeedOption(app, options_.seed, "seed of the permutations");
    app.add_option("--ablation-order", ablation_,
                   "comma-separated players for the ordered ablation")
        ->type_name("L");
    addJobsOption(app, jobs_);
    model_.addTo(app);
    CLI::Option* json = app.add_flag("--json", json_, "JSON instead of the table");
    app.add_flag("--csv", csv_, "CSV instead of the table")->excludes(json);
}

int ShapleyCommand::run(std::ostream& out, std::ostream& err) {
    const std::vector<std::string> requested = programs_.requested();
    options_.threads = jobs_;
    const NamedConfig baseline = resolveConfig("--baseline", baseline_);
    const NamedConfig target = resolveConfig("--target", target_);
    PlayerSet players = !groups_                ? PlayerSet::individual()
                        : *groups_ == "default" ? PlayerSet::defaultGroups()
                                                : PlayerSet::load(*groups_);
    const ShapleyAttributor attributor(players, baseline.config, target.config, options_);
    std::vector<std::size_t> order;
    if (ablation_)
        order = ablationOrder(*ablation_, players, baseline.config, target.config);

    FeatureDatabase db = FeatureDatabase::openReadOnly(db_);
    const ParameterGrid grid(db.buildSettings().grid);
    requireOnGrid("--baseline", baseline, grid, db_);
    requireOnGrid("--target", target, grid, db_);
    CpiModel model = model_.load(db_);
    const std::string modelName = model.name;

    JobRunner runner(err, "shapley");
    std::vector<OrderedAblation::Result> ablations;
    std::shared_ptr<const DatabasePredictor> predictor; // kept for the programs' bands
    const AttributionReport report = runner.run([&](const JobControl& job) {
        ShapleyJob::Request request;
        request.predictor =
            std::make_shared<const DatabasePredictor>(db, std::move(model), requested, job);
        predictor = request.predictor;
        if (!request.predictor->damaged().empty()) // skipped, not fatal: say which
            err << "shapley: warning: " << request.predictor->catalog().damageSummary() << "\n";
        request.baseline = baseline.config;
        request.target = target.config;
        request.players = players;
        request.options = options_;
        std::size_t regions = 0;
        for (const std::string& name : request.predictor->programs())
            regions += request.predictor->regionsOf(name).size();
        runner.line(std::string(methodName(attributor.method())) + " over " +
                    std::to_string(attributor.activePlayers().size()) + " players that differ, " +
                    std::to_string(attributor.evaluationsPerRegion()) +
                    " evaluations per region, " + std::to_string(regions) + " regions");
        // The same job as the explorer's Shapley view, so both give the same numbers.
        AttributionReport result = ShapleyJob::run(request, job);
        if (ablation_)
            for (const std::string& name : request.predictor->programs())
                ablations.push_back(OrderedAblation::run(
                    ProgramValueFunction(
                        RegionValueFunction::programValue(request.predictor, name)),
                    players, baseline.config, target.config, std::span<const std::size_t>(order)));
        return result;
    });

    // Every prediction carries its band (issue 17, item 6): the programs' CPIs at the baseline
    // and the target, as `predict` gives them. A single model's band is its CPI.
    std::vector<std::pair<CpiBand, CpiBand>> bands;
    for (const ProgramAttribution& program : report.programs)
        bands.emplace_back(predictor->programBand(program.program, baseline.config),
                           predictor->programBand(program.program, target.config));

    if (csv_) {
        AttributionCsvWriter::write(out, report);
        for (std::size_t p = 0; p < ablations.size(); ++p)
            for (const auto& step : ablations[p].steps)
                out << AttributionCsvWriter::field(report.programs[p].program) << ",ablation,"
                    << AttributionCsvWriter::field(step.player) << ","
                    << AttributionCsvWriter::number(step.delta()) << ",0\n";
    } else if (json_) {
        nlohmann::json result = report.toJson();
        result["baseline_name"] = baseline.name;
        result["target_name"] = target.name;
        result["model"] = modelName;
        result["database"] = db_;
        for (std::size_t p = 0; p < report.programs.size(); ++p) {
            nlohmann::json& entry = result["programs"][p];
            entry["baseline_cpi"] = report.programs[p].total.baselineCpi;
            entry["target_cpi"] = report.programs[p].total.targetCpi;
            entry["baseline_cpi_low"] = bands[p].first.low;
            entry["baseline_cpi_high"] = bands[p].first.high;
            entry["target_cpi_low"] = bands[p].second.low;
            entry["target_cpi_high"] = bands[p].second.high;
            if (p < ablations.size()) {
                nlohmann::json steps = ablations[p].toJson();
                nlohmann::json names = nlohmann::json::array();
                for (const auto& step : ablations[p].steps)
                    names.push_back(step.player);
                steps["order"] = names;
                entry["ablation"] = steps;
            }
        }
        out << result.dump(2) << "\n";
    } else {
        for (std::size_t p = 0; p < report.programs.size(); ++p)
            printProgram(out, report.programs[p], bands[p], report, baseline, target,
                         programs_.program.has_value(),
                         p < ablations.size() ? &ablations[p] : nullptr);
        out << "model " << modelName << "; " << (report.players.size()) << " players ("
            << report.players.nameList() << ")";
        if (report.method == AttributionMethod::Sampling)
            out << "; seed " << report.seed;
        out << "\n";
    }
    return 0;
}

} // namespace concorde::cli
