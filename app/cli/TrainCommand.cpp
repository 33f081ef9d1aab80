#include "TrainCommand.h"

#include "CommonOptions.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "pipeline/ModelTraining.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string TrainCommand::description() const {
    return "Trains the CPI model (an MLP with ReLU hidden layers, AdamW on the\n"
           "relative error, mini-batches, early stopping on a validation part of the train\n"
           "split; deterministic for a seed) and the linear baseline on the dataset's 'train'\n"
           "split, measures both and the min-of-bounds baseline on the 'test' split (regions\n"
           "never trained on) and the 'held_out' split (programs never trained on), and stores\n"
           "the model with those numbers in the database (replacing a model of the same name).\n"
           "Progress goes to stderr, one line per epoch.\n";
}

void TrainCommand::declare(CLI::App& app) {
    app.add_option("--dataset", datasets_, "made by concorde dataset (datasets given are pooled)")
        ->type_name("FILE")
        ->allow_extra_args(false)
        ->required();
    app.add_option("--db", db_, "the feature database that receives the model")
        ->type_name("DB")
        ->required();
    app.add_option("--name", name_, "model name")->type_name("NAME")->capture_default_str();
    app.add_option("--hidden", options_.hidden, "hidden layer sizes, separated by commas")
        ->type_name("A,B")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->check(wholeNumber(1, 4096))
        ->default_str("256,128");
    app.add_option("--epochs", options_.maxEpochs, "at most N epochs")
        ->type_name("N")
        ->check(wholeNumber(1, 100'000))
        ->capture_default_str();
    app.add_option("--batch", options_.batchSize, "mini-batch size")
        ->type_name("N")
        ->check(wholeNumber(1, 1 << 20))
        ->capture_default_str();
    app.add_option("--lr", options_.learningRate, "AdamW learning rate")
        ->type_name("X")
        ->check(realNumber(1e-7, 1.0))
        ->capture_default_str();
    app.add_option("--weight-decay", options_.weightDecay, "decoupled weight decay")
        ->type_name("X")
        ->check(realNumber(0.0, 1.0))
        ->capture_default_str();
    app.add_option("--patience", options_.patience,
                   "stop after N epochs without validation improvement")
        ->type_name("N")
        ->check(wholeNumber(1, 100'000))
        ->capture_default_str();
    app.add_option("--plateau", options_.plateau,
                   "halve the learning rate after N epochs without validation improvement "
                   "(0: constant)")
        ->type_name("N")
        ->check(wholeNumber(0, 100'000))
        ->capture_default_str();
    app.add_option("--members", ensemble_.members,
                   "ensemble members, each on a bootstrap of the training programs; with 2 or "
                   "more, predictions carry a band calibrated on the test split")
        ->type_name("N")
        ->check(wholeNumber(1, 64))
        ->capture_default_str();
    app.add_option("--output", output_,
                   "what the networks predict: 'direct' (the CPI), 'bottleneck_anchored' (a "
                   "correction factor on the bottleneck resource's CPI) or 'min_bound_anchored' "
                   "(a factor on the min-of-bounds CPI; evaluated on datasets only, not yet "
                   "served from a database)")
        ->type_name("KIND")
        ->check(CLI::IsMember({"direct", "bottleneck_anchored", "min_bound_anchored"}))
        ->capture_default_str();
    app.add_option("--floor", floor_,
                   "'bottleneck': no member predicts a CPI below the bottleneck CPI (the CPI the "
                   "slowest resource alone gives, a lower bound of the simulated one); 'none'")
        ->type_name("KIND")
        ->check(CLI::IsMember({"bottleneck", "none"}))
        ->capture_default_str();
    app.add_flag("--first-member-centre", ensemble_.firstMemberCentre,
                 "member 0 trains on every program and is the prediction; the bootstrapped "
                 "members only set the band (default: the members' mean)");
    app.add_flag("--monotone", ensemble_.monotone,
                 "monotone networks: a larger resource or a lower bp_miss_pct never raises the "
                 "predicted CPI (sign-constrained weights, see docs/design.md)");
    app.add_option("--composed", composed_,
                   "composed networks, monotone by construction: each group of blocks that share "
                   "parameters gets a sub-network of UNITS hidden units and OUTPUTS outputs, "
                   "combined by a monotone network of the --hidden sizes (docs/design.md)")
        ->type_name("UNITS,OUTPUTS")
        ->delimiter(',')
        ->expected(2)
        ->check(wholeNumber(1, 4096))
        ->excludes("--monotone");
    app.add_option("--group-order-penalty", ensemble_.groupOrderPenalty,
                   "composed networks: weight of the penalty on group outputs that rise toward a "
                   "bigger core between two samples of one region, which keeps the monotone "
                   "repair from moving predictions (docs/design.md)")
        ->type_name("X")
        ->check(realNumber(0.0, 1000.0))
        ->capture_default_str();
    app.add_option(
           "--band-coverage", ensemble_.bandCoverage,
           "fraction of the test split the band is calibrated to hold, each sample predicted by "
           "the members that never saw its program")
        ->type_name("X")
        ->check(realNumber(0.05, 0.99))
        ->capture_default_str();
    addSeedOption(app, options_.seed,
                  "initialisation, shuffling and validation split (member k "
                  "uses seed + k)");
    app.add_flag("--json", json_, "print the model's metrics as JSON");
}

int TrainCommand::run(std::ostream& out, std::ostream& err) {
    std::vector<DatasetFile> datasets;
    std::vector<DatasetFile*> pointers;
    for (const auto& path : datasets_)
        datasets.push_back(DatasetFile::openReadOnly(path));
    for (auto& dataset : datasets)
        pointers.push_back(&dataset);
    FeatureDatabase::openReadOnly(db_); // check the target before spending minutes training
    const auto started = std::chrono::steady_clock::now();
    JobRunner runner(err, "train");
    ensemble_.output = CpiModel::parseOutput(output_, "--output");
    ensemble_.bottleneckFloor = floor_ == "bottleneck";
    if (composed_.size() == 2) {
        if (ensemble_.output == CpiOutput::BottleneckAnchored)
            throw usageError("--composed cannot be anchored on the bottleneck CPI (--output "
                             "direct or min_bound_anchored)");
        ensemble_.composedUnits = composed_[0];
        ensemble_.composedOutputs = composed_[1];
    }
    ModelTraining::Result result = runner.run([&](const JobControl& job) {
        return ModelTraining::train(pointers, options_, ensemble_, job);
    });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.model.name = name_;
    result.model.metrics["training"]["seconds"] = seconds;
    FeatureDatabase db = FeatureDatabase::openForWriting(db_);
    const std::int64_t id = db.writeModel(result.model);
    db.close();
    if (json_) {
        out << result.model.metrics.dump(2) << "\n";
        return 0;
    }
    char line[200];
    std::snprintf(line, sizeof line,
                  "model:      '%s' (id %lld) stored in %s\n"
                  "training:   %zu samples (%zu for validation), %d epochs (best %d), %.1f s\n",
                  name_.c_str(), static_cast<long long>(id), db_.c_str(),
                  result.report.trainSamples + result.report.validationSamples,
                  result.report.validationSamples, result.report.epochsRun, result.report.bestEpoch,
                  seconds);
    out << line;
    if (result.model.members.size() > 1) {
        std::snprintf(
            line, sizeof line,
            "ensemble:   %zu members (%s), band scale %.3f for %.0f %% of the test split\n",
            result.model.members.size(), CpiModel::outputName(result.model.output).c_str(),
            result.model.band.scale(), 100 * result.model.band.coverage());
        out << line;
    }
    out << result.test.toText("test split (unseen regions)");
    if (!result.outOfBag.empty())
        out << result.outOfBag.toText("test split, members that never saw the program");
    if (!result.heldOut.empty())
        out << result.heldOut.toText("held-out programs");
    const nlohmann::json& accuracy = result.model.metrics["accuracy"];
    for (const char* split : {"test", "held_out"})
        if (accuracy.contains(split) && accuracy[split].contains("band_coverage")) {
            std::snprintf(line, sizeof line, "band:       %.1f %% of the %s split inside\n",
                          100 * accuracy[split]["band_coverage"].get<double>(),
                          std::string(split) == "test" ? "test" : "held-out");
            out << line;
        }
    return 0;
}

} // namespace concorde::cli
