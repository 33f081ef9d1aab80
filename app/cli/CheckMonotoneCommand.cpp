#include "CheckMonotoneCommand.h"

#include "CommonOptions.h"
#include "JobRunner.h"
#include "TextFormat.h"
#include "explore/DatabasePredictor.h"
#include "explore/MonotonicityCheck.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {
namespace {

std::string worstList(const std::vector<MonotonicityCheck::Violation>& violations,
                      const std::string& heading) {
    if (violations.empty())
        return {};
    std::string text = "\n" + heading + "\n";
    for (const auto& v : violations) {
        const ParameterSpec& spec = ParameterSpace::spec(v.parameter);
        const std::string where =
            v.region ? v.program + " region " + std::to_string(*v.region) : v.program;
        char line[256];
        std::snprintf(line, sizeof line,
                      "  %9s  %-22s %-13s %6s -> %-6s CPI %.4f -> %.4f  base %zu\n",
                      TextFormat::signedPercent(v.rise()).c_str(), where.c_str(), spec.key.c_str(),
                      spec.formatValue(v.from).c_str(), spec.formatValue(v.to).c_str(), v.fromCpi,
                      v.toCpi, v.base);
        text += line;
        text += "             " + v.config.toAssignments() + "\n";
    }
    return text;
}

std::string summaryText(const MonotonicityCheck::Result& r, const std::string& model) {
    char line[256];
    std::string text;
    std::snprintf(line, sizeof line,
                  "model:        %s\n"
                  "checked:      %zu regions of %zu programs at %zu base configurations "
                  "(seed %llu), tolerance %.3g %% per grid step\n"
                  "evaluations:  %zu region CPIs, %zu region sweeps, in %.1f s\n\n",
                  model.c_str(), r.regions, r.programs, r.options.bases,
                  static_cast<unsigned long long>(r.options.seed), 100.0 * r.options.tolerance,
                  r.evaluations, r.sweeps, r.seconds);
    text += line;
    text += "parameter      grows  violations  sweeps over  max rise   program viol.  max prog. "
            "rise\n";
    for (const auto& t : r.parameters) {
        std::snprintf(line, sizeof line, "%-14s %-5s  %10zu  %11zu  %9s  %13zu  %14s\n",
                      ParameterSpace::spec(t.parameter.id).key.c_str(),
                      t.parameter.shrinksToGrow ? "down" : "up", t.violations,
                      t.sweepsOverTolerance, TextFormat::signedPercent(t.maxRise).c_str(),
                      t.programViolations, TextFormat::signedPercent(t.maxProgramRise).c_str());
        text += line;
    }
    std::snprintf(line, sizeof line, "%-14s %-5s  %10zu  %11s  %9s  %13zu\n", "total", "",
                  r.violations, "", "", r.programViolations);
    text += line;
    text += worstList(r.worst, "worst steps of region CPIs:");
    text += worstList(r.worstPrograms, "worst steps of program CPIs:");
    return text;
}

} // namespace

std::string CheckMonotoneCommand::description() const {
    return "Checks that the CPI model is monotone: growing a resource (every numeric\n"
           "parameter: rob, widths, queues, issue, pipes, buffers, fills, cache sizes,\n"
           "prefetch degree) never raises a region's predicted CPI by more than the\n"
           "tolerance per grid step, and neither does lowering bp_miss_pct (bp is not\n"
           "checked). For every region and every random base configuration on the\n"
           "database's grid (drawn from the seed), each parameter is swept over its whole\n"
           "grid with the others at the base; programs' CPIs (instruction-weighted means)\n"
           "are checked the same way. Prints the violations per parameter, each sweep's\n"
           "largest rise over any distance, and the worst steps with their base\n"
           "configurations.\n\n"
           "Exits 0 when no step rises by more than the tolerance, 1 when one does.\n"
           "JSON: {\"monotone\", \"violations\", \"program_violations\", \"per_parameter\",\n"
           "\"worst\", \"worst_programs\", \"evaluations\", \"seconds\", ...}.\n";
}

void CheckMonotoneCommand::declare(CLI::App& app) {
    app.add_option("--db", db_, "the feature database (regions, and the model by default)")
        ->type_name("DB")
        ->required();
    model_.addTo(app);
    app.add_option("--bases", bases_, "random base configurations")
        ->type_name("N")
        ->check(wholeNumber(1, 1'000'000))
        ->capture_default_str();
    addSeedOption(app, seed_, "seed of the base configurations");
    app.add_option("--tolerance", tolerancePct_,
                   "largest CPI rise allowed per grid step, in percent")
        ->type_name("PCT")
        ->check(realNumber(0.0, 100.0))
        ->capture_default_str();
    app.add_option("--program", programs_, "only program P (repeat it, or P1,P2)")
        ->type_name("P")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_flag("--json", json_, "JSON instead of a table");
}

int CheckMonotoneCommand::run(std::ostream& out, std::ostream& err) {
    FeatureDatabase db = FeatureDatabase::openReadOnly(db_);
    CpiModel model = model_.load(db_);
    const std::string modelName = model.name + " (" + model_.modelFrom.value_or(db_) + ")";
    MonotonicityCheck::Options options;
    options.bases = bases_;
    options.seed = seed_;
    options.tolerance = tolerancePct_ / 100.0;
    std::vector<std::string> programs;
    for (const auto& program : programs_)
        if (!program.empty()) // "--program a,,b" and a trailing comma name no program
            programs.push_back(program);
    JobRunner runner(err, "check-monotone");
    const auto predictor = runner.run([&](const JobControl& job) {
        return std::make_unique<const DatabasePredictor>(db, std::move(model), programs, job);
    });
    if (!predictor->damaged().empty()) // skipped, not fatal: say which
        err << "check-monotone: warning: " << predictor->catalog().damageSummary() << "\n";
    const MonotonicityCheck::Result result = runner.run(
        [&](const JobControl& job) { return MonotonicityCheck::run(*predictor, options, job); });
    if (json_) {
        nlohmann::json json = result.toJson();
        json["model"] = predictor->model().name;
        json["db"] = db_;
        if (model_.modelFrom)
            json["model_from"] = *model_.modelFrom;
        out << json.dump(2) << "\n";
    } else {
        out << summaryText(result, modelName);
    }
    if (result.monotone())
        return 0;
    err << "concorde check-monotone: the model is not monotone: " << result.violations
        << " grid steps of region CPIs and " << result.programViolations
        << " of program CPIs raise the predicted CPI by more than " << tolerancePct_
        << " % toward a bigger core\n";
    return 1;
}

} // namespace concorde::cli
