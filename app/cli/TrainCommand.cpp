#include "TrainCommand.h"

#include "ArgParser.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"
#include "pipeline/ModelTraining.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace concorde::cli {

std::string TrainCommand::help() const {
    return "Usage: concorde train --dataset FILE --db DB.sqlite [--name NAME]\n"
           "                      [--hidden 256,128] [--epochs N] [--batch N] [--lr X]\n"
           "                      [--weight-decay X] [--patience N] [--plateau N] [--seed S]\n"
           "                      [--json]\n\n"
           "Trains the CPI model (DESIGN §8: an MLP with ReLU hidden layers, AdamW on the\n"
           "relative error, mini-batches, early stopping on a validation part of the train\n"
           "split; deterministic for a seed) and the linear baseline on the dataset's 'train'\n"
           "split, measures both and the min-of-bounds baseline on the 'test' split (regions\n"
           "never trained on) and the 'held_out' split (programs never trained on), and stores\n"
           "the model with those numbers in the database (replacing a model of the same name).\n"
           "Progress goes to stderr, one line per epoch.\n\n"
           "Options:\n"
           "  --dataset FILE    made by concorde dataset (repeatable: datasets are pooled)\n"
           "  --db DB           the feature database that receives the model\n"
           "  --name NAME       model name (default cpi)\n"
           "  --hidden A,B      hidden layer sizes (default 256,128)\n"
           "  --epochs N        at most N epochs (default 200)\n"
           "  --batch N         mini-batch size (default 256)\n"
           "  --lr X            AdamW learning rate (default 0.001)\n"
           "  --weight-decay X  decoupled weight decay (default 0.0001)\n"
           "  --patience N      stop after N epochs without validation improvement (default 15)\n"
           "  --plateau N       halve the learning rate after N epochs without validation\n"
           "                    improvement (default 5; 0: constant)\n"
           "  --seed S          initialisation, shuffling and validation split (default 1)\n"
           "  --json            print the model's metrics as JSON\n";
}

int TrainCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    ArgParser parser(args);
    const auto datasetPaths = parser.takeValues("--dataset");
    const auto dbPath = parser.takeValue("--db");
    const std::string name = parser.takeValue("--name").value_or("cpi");
    TrainingOptions options;
    if (const auto hidden = parser.takeValue("--hidden")) {
        options.hidden.clear();
        std::stringstream list(*hidden);
        for (std::string item; std::getline(list, item, ',');) {
            int size = 0;
            try {
                size = std::stoi(item);
            } catch (const std::exception&) {
            }
            if (size < 1 || size > 4096)
                throw usageError("--hidden expects sizes 1–4096 separated by commas, got '" +
                                 *hidden + "'");
            options.hidden.push_back(size);
        }
        if (options.hidden.empty())
            throw usageError("--hidden needs at least one layer size");
    }
    options.maxEpochs = static_cast<int>(parser.takeUnsigned("--epochs", 200, 1, 100000));
    options.batchSize = static_cast<int>(parser.takeUnsigned("--batch", 256, 1, 1 << 20));
    options.learningRate = parser.takeDouble("--lr", 1e-3, 1e-7, 1.0);
    options.weightDecay = parser.takeDouble("--weight-decay", 1e-4, 0.0, 1.0);
    options.patience = static_cast<int>(parser.takeUnsigned("--patience", 15, 1, 100000));
    options.plateau = static_cast<int>(parser.takeUnsigned("--plateau", 5, 0, 100000));
    options.seed = parser.takeUnsigned("--seed", 1);
    const bool json = parser.takeFlag("--json");
    const auto rest = parser.finish();
    if (datasetPaths.empty() || !dbPath)
        throw usageError("train needs --dataset FILE and --db DB.sqlite");
    if (!rest.empty())
        throw usageError("unexpected argument '" + rest.front() + "'");

    std::vector<DatasetFile> datasets;
    std::vector<DatasetFile*> pointers;
    for (const auto& path : datasetPaths)
        datasets.push_back(DatasetFile::openReadOnly(path));
    for (auto& dataset : datasets)
        pointers.push_back(&dataset);
    FeatureDatabase::openReadOnly(*dbPath); // check the target before spending minutes training
    const auto started = std::chrono::steady_clock::now();
    JobRunner runner(err, "train");
    ModelTraining::Result result = runner.run(
        [&](const JobControl& job) { return ModelTraining::train(pointers, options, job); });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.model.name = name;
    result.model.metrics["training"]["seconds"] = seconds;
    FeatureDatabase db = FeatureDatabase::openForWriting(*dbPath);
    const std::int64_t id = db.writeModel(result.model);
    db.close();
    if (json) {
        out << result.model.metrics.dump(2) << "\n";
        return 0;
    }
    char line[200];
    std::snprintf(line, sizeof line,
                  "model:      '%s' (id %lld) stored in %s\n"
                  "training:   %zu samples (%zu for validation), %d epochs (best %d), %.1f s\n",
                  name.c_str(), static_cast<long long>(id), dbPath->c_str(),
                  result.report.trainSamples + result.report.validationSamples,
                  result.report.validationSamples, result.report.epochsRun, result.report.bestEpoch,
                  seconds);
    out << line;
    out << result.test.toText("test split (unseen regions)");
    if (!result.heldOut.empty())
        out << result.heldOut.toText("held-out programs");
    return 0;
}

} // namespace concorde::cli
