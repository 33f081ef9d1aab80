#include "EvaluateCommand.h"

#include "ArgParser.h"
#include "ModelOption.h"
#include "common/ConcordeError.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"
#include "pipeline/LabelEvaluator.h"
#include "pipeline/ModelTraining.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string EvaluateCommand::help() const {
    return std::string(
               "Usage: concorde evaluate --dataset FILE [--db DB.sqlite | --model-from DB2]\n"
               "                         [--json]\n"
               "       concorde evaluate --db DB.sqlite [--model-from DB2] [--json] [--record]\n\n"
               "Measures the CPI model against reference-simulator CPIs: the mean relative error,\n"
               "the fraction of samples over 10 % error, the error per program and per parameter\n"
               "value, and the same for two baselines: min of bounds (the analytical models\n"
               "without ML) and a linear model fitted on the same training data.\n\n"
               "With --dataset: the samples of the 'test' split (regions never trained on) are "
               "the\n"
               "headline numbers; 'held_out' programs are reported under \"held_out\". The model\n"
               "comes from --model-from, else from --db.\n"
               "Without --dataset: the labels stored in the database (concorde label), predicted\n"
               "from its stored series with the block-precomputed model, also reported per label\n"
               "source (random, preset:NAME). With --model-from, the model of another database is\n"
               "checked on this database's labels (e.g. the shipped model on your programs).\n"
               "--record stores the result in the model's metrics (its own model only).\n\n"
               "JSON output has top-level \"mean_rel_error\" and \"frac_over_10pct\".\n\n"
               "Options:\n"
               "  --dataset FILE    a dataset made by concorde dataset\n"
               "  --db DB           the feature database (labels, and the model by default)\n") +
           ModelOption::helpText() +
           "  --json            JSON instead of a table\n"
           "  --record          store the label evaluation in the model's metrics\n";
}

int EvaluateCommand::run(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err) {
    (void)err;
    ArgParser parser(args);
    const auto datasetPath = parser.takeValue("--dataset");
    const auto dbPath = parser.takeValue("--db");
    const ModelOption modelOption = ModelOption::take(parser);
    const bool json = parser.takeFlag("--json");
    const bool record = parser.takeFlag("--record");
    const auto rest = parser.finish();
    if (!rest.empty())
        throw usageError("unexpected argument '" + rest.front() + "'");
    if (!datasetPath && !dbPath)
        throw usageError("evaluate needs --dataset FILE or --db DB.sqlite");
    if (datasetPath && !dbPath && !modelOption.modelFrom)
        throw usageError("with --dataset, say where the model is: --db DB or --model-from DB");
    if (record && (datasetPath || modelOption.modelFrom))
        throw usageError("--record stores a database's own label evaluation; it cannot be used "
                         "with --dataset or --model-from");

    const CpiModel model = modelOption.load(dbPath.value_or(""));
    nlohmann::json result;
    std::string text;
    if (datasetPath) {
        DatasetFile dataset = DatasetFile::openReadOnly(*datasetPath);
        const AccuracyReport test = ModelTraining::evaluate(model, dataset.samples({"test"}));
        const AccuracyReport heldOut =
            ModelTraining::evaluate(model, dataset.samples({"held_out"}));
        if (test.empty() && heldOut.empty())
            throw badInput(*datasetPath + " has no test or held-out samples to evaluate");
        result = test.empty() ? heldOut.toJson() : test.toJson();
        result["split"] = test.empty() ? "held_out" : "test";
        if (!heldOut.empty() && !test.empty())
            result["held_out"] = heldOut.toJson();
        text = test.empty() ? "" : test.toText("test split (regions never trained on)");
        if (!heldOut.empty())
            text += heldOut.toText("held-out programs");
        result["source"] = *datasetPath;
    } else {
        FeatureDatabase db = FeatureDatabase::openReadOnly(*dbPath);
        const LabelEvaluator::Result evaluation = LabelEvaluator::evaluate(db, model);
        if (evaluation.all.empty())
            throw badInput(*dbPath + ": none of its " + std::to_string(evaluation.offGrid) +
                           " labels has a configuration on the database's grid");
        result = evaluation.all.toJson();
        result["labels_off_grid"] = evaluation.offGrid;
        text = evaluation.all.toText("labels of " + *dbPath);
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
        result["source"] = *dbPath;
        if (record) {
            db = FeatureDatabase::openForWriting(*dbPath);
            CpiModel updated = model;
            nlohmann::json stored = result;
            stored.erase("per_parameter");
            updated.metrics["accuracy"]["labels"] = stored;
            db.writeModel(updated);
            db.close();
        }
    }
    result["model"] = model.name;
    if (modelOption.modelFrom)
        result["model_from"] = *modelOption.modelFrom;
    if (json)
        out << result.dump(2) << "\n";
    else
        out << text;
    return 0;
}

} // namespace concorde::cli
