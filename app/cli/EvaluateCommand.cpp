#include "EvaluateCommand.h"

#include "common/ConcordeError.h"
#include "ml/ModelAccuracy.h"
#include "pipeline/LabelEvaluator.h"
#include "pipeline/ModelTraining.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {
namespace {

/// Stores a label evaluation, without its per-parameter part, as accuracy.KEY of `model` in
/// `modelDatabase` (one transaction: writeModel replaces the model of that name).
void storeAccuracy(const std::string& modelDatabase, const CpiModel& model, const char* key,
                   nlohmann::json evaluation) {
    evaluation.erase("per_parameter");
    FeatureDatabase target = FeatureDatabase::openForWriting(modelDatabase);
    CpiModel updated = model;
    updated.metrics["accuracy"][key] = std::move(evaluation);
    target.writeModel(updated);
    target.close();
}

/// Stores `result` (the evaluation of `labelled`'s labels) as accuracy.never_seen of `model` in
/// the database it came from. A program the model trained on would make the figure a claim it
/// is not, so any is refused by name, as is a model that does not list its training programs.
void recordNeverSeen(FeatureDatabase& labelled, const CpiModel& model, const nlohmann::json& result,
                     const std::string& modelDatabase) {
    const ModelAccuracy accuracy = ModelAccuracy::fromMetrics(model.metrics);
    if (accuracy.trainPrograms.empty())
        throw badInput(modelDatabase + ": model '" + model.name +
                       "' does not list its training programs, so nothing can be recorded as "
                       "never seen by it");
    for (const ProgramRow& program : labelled.programs())
        if (accuracy.trainPrograms.count(program.name))
            throw badInput("model '" + model.name + "' of " + modelDatabase + " trained on '" +
                           program.name +
                           "', so its labels are not of a never-seen program; nothing recorded");
    nlohmann::json stored = result;
    stored.erase("source");
    storeAccuracy(modelDatabase, model, "never_seen", std::move(stored));
}

} // namespace

std::string EvaluateCommand::description() const {
    return "Measures the CPI model against reference-simulator CPIs: the mean relative error,\n"
           "the fraction of samples over 10 % error, the error per program and per parameter\n"
           "value, and the same for two baselines: min of bounds (the analytical models\n"
           "without ML) and a linear model fitted on the same training data.\n\n"
           "With --dataset: the samples of the 'test' split (regions never trained on) are the\n"
           "headline numbers; 'held_out' programs are reported under \"held_out\". The model\n"
           "comes from --model-from, else from --db.\n"
           "Without --dataset: the labels stored in the database (concorde label), predicted\n"
           "from its stored series with the block-precomputed model, also reported per label\n"
           "source (random, preset:NAME). With --model-from, the model of another database is\n"
           "checked on this database's labels (e.g. the shipped model on your programs).\n"
           "--record stores the result in the model's metrics (its own model only).\n"
           "--record-never-seen stores it in the metrics of the --model-from model as its\n"
           "accuracy on programs it never saw (the explorer shows it, per preset beside the\n"
           "min-of-bounds CPI's); refused when the model trained on one of the programs.\n\n"
           "JSON output has top-level \"mean_rel_error\" and \"frac_over_10pct\".\n";
}

void EvaluateCommand::declare(CLI::App& app) {
    app.add_option("--dataset", dataset_, "a dataset made by concorde dataset")->type_name("FILE");
    app.add_option("--db", db_, "the feature database (labels, and the model by default)")
        ->type_name("DB");
    model_.addTo(app);
    app.add_flag("--json", json_, "JSON instead of a table");
    app.add_flag("--record", record_, "store the label evaluation in the model's metrics");
    app.add_flag("--record-never-seen", recordNeverSeen_,
                 "store it in the --model-from model's metrics as its accuracy on programs it "
                 "never saw");
}

int EvaluateCommand::run(std::ostream& out, std::ostream&) {
    if (!dataset_ && !db_)
        throw usageError("evaluate needs --dataset FILE or --db DB.sqlite");
    if (dataset_ && !db_ && !model_.modelFrom)
        throw usageError("with --dataset, say where the model is: --db DB or --model-from DB");
    if (record_ && (dataset_ || model_.modelFrom))
        throw usageError("--record stores a database's own label evaluation; it cannot be used "
                         "with --dataset or --model-from");
    if (recordNeverSeen_ && (dataset_ || !model_.modelFrom || !db_))
        throw usageError("--record-never-seen stores the evaluation of DB's labels in the model "
                         "of --model-from DB2: it needs --db and --model-from, not --dataset");

    const CpiModel model = model_.load(db_.value_or(""));
    nlohmann::json result;
    std::string text;
    if (dataset_) {
        DatasetFile dataset = DatasetFile::openReadOnly(*dataset_);
        AnalysisRevision features = AnalysisRevision::current();
        features.loadQueueThroughCommit = dataset.settings().loadQueueThroughCommit();
        model.checkAnalysis(features, *dataset_);
        const AccuracyReport test = ModelTraining::evaluate(model, dataset.samples({"test"}));
        const AccuracyReport heldOut =
            ModelTraining::evaluate(model, dataset.samples({"held_out"}));
        if (test.empty() && heldOut.empty())
            throw badInput(*dataset_ + " has no test or held-out samples to evaluate");
        result = test.empty() ? heldOut.toJson() : test.toJson();
        result["split"] = test.empty() ? "held_out" : "test";
        if (!heldOut.empty() && !test.empty())
            result["held_out"] = heldOut.toJson();
        text = test.empty() ? "" : test.toText("test split (regions never trained on)");
        if (!heldOut.empty())
            text += heldOut.toText("held-out programs");
        result["source"] = *dataset_;
    } else {
        FeatureDatabase db = FeatureDatabase::openReadOnly(*db_);
        const LabelEvaluator::Result evaluation = LabelEvaluator::evaluate(db, model);
        if (evaluation.all.empty())
            throw badInput(*db_ + ": none of its " + std::to_string(evaluation.offGrid) +
                           " labels has a configuration on the database's grid");
        result = evaluation.all.toJson();
        result["labels_off_grid"] = evaluation.offGrid;
        text = evaluation.all.toText("labels of " + *db_);
        for (const auto& [source, report] : evaluation.bySource) {
            nlohmann::json part = report.toJson();
            part.erase("per_parameter");
            result["per_source"][source] = part;
            if (evaluation.bySource.size() > 1 && source != "random")
                text += report.toText("  labels from " + source);
        }
        if (evaluation.offGrid)
            text += std::to_string(evaluation.offGrid) +
                    " labels skipped: their configuration is off the database's grid\n";
        result["source"] = *db_;
        if (record_)
            storeAccuracy(*db_, model, "labels", result);
        if (recordNeverSeen_)
            recordNeverSeen(db, model, result, *model_.modelFrom);
    }
    result["model"] = model.name;
    if (model_.modelFrom)
        result["model_from"] = *model_.modelFrom;
    if (json_)
        out << result.dump(2) << "\n";
    else
        out << text;
    return 0;
}

} // namespace concorde::cli
