#include "pipeline/ModelTraining.h"

#include "common/ConcordeError.h"
#include "store/DatasetFile.h"
#include "store/GridDescription.h"

#include <set>

namespace concorde {

Eigen::MatrixXf ModelTraining::featureMatrix(const std::vector<DatasetSample>& samples) {
    if (samples.empty())
        return {};
    const auto width = static_cast<Eigen::Index>(samples.front().features.size());
    Eigen::MatrixXf x(width, static_cast<Eigen::Index>(samples.size()));
    for (std::size_t j = 0; j < samples.size(); ++j)
        x.col(static_cast<Eigen::Index>(j)) =
            Eigen::Map<const Eigen::VectorXf>(samples[j].features.data(), width);
    return x;
}

AccuracyReport ModelTraining::evaluate(const CpiModel& model,
                                       const std::vector<DatasetSample>& samples) {
    AccuracyReport report;
    if (samples.empty())
        return report;
    const Eigen::MatrixXf raw = featureMatrix(samples);
    if (raw.rows() != static_cast<Eigen::Index>(model.layout.width()))
        throw badInput("the dataset's features are " + std::to_string(raw.rows()) +
                       " wide, the model expects " + std::to_string(model.layout.width()));
    const Eigen::MatrixXf normalised = model.normalizer.apply(raw);
    const Eigen::VectorXf mlp = model.mlp.predict(normalised);
    Eigen::VectorXf linear;
    if (!model.linear.empty())
        linear = model.linear.predict(normalised);
    for (std::size_t j = 0; j < samples.size(); ++j) {
        const auto i = static_cast<Eigen::Index>(j);
        report.add({samples[j].program, samples[j].config, samples[j].cpi, mlp(i),
                    samples[j].minBoundCpi, linear.size() ? double(linear(i)) : 0.0});
    }
    return report;
}

ModelTraining::Result
ModelTraining::train(const std::vector<DatasetFile*>& datasets, const TrainingOptions& options,
                     const JobControl& job) {
    if (datasets.empty())
        throw usageError("training needs at least one dataset");
    const FeatureLayout layout = datasets.front()->layout();
    std::vector<DatasetSample> trainSamples, testSamples, heldOutSamples;
    const auto append = [](std::vector<DatasetSample>& to, std::vector<DatasetSample> from) {
        to.insert(to.end(), std::make_move_iterator(from.begin()),
                  std::make_move_iterator(from.end()));
    };
    nlohmann::json files = nlohmann::json::array();
    for (DatasetFile* dataset : datasets) {
        if (!(dataset->layout() == layout))
            throw badInput(dataset->path().string() + " has another feature layout than " +
                           datasets.front()->path().string() + "; they cannot be pooled");
        append(trainSamples, dataset->samples({"train"}));
        append(testSamples, dataset->samples({"test"}));
        append(heldOutSamples, dataset->samples({"held_out"}));
        const DatasetSettings& settings = dataset->settings();
        nlohmann::json file = {{"file", dataset->path().string()},
                               {"seed", settings.seed},
                               {"hold_out", settings.holdOut}};
        try {
            file["grid"] = nlohmann::json::parse(settings.gridText);
        } catch (const nlohmann::json::exception&) {
            throw badInput(dataset->path().string() + ": malformed grid in meta");
        }
        files.push_back(std::move(file));
    }
    if (trainSamples.size() < 10)
        throw badInput("the datasets hold " + std::to_string(trainSamples.size()) +
                       " training samples; at least 10 are needed (draw more with concorde "
                       "dataset --samples N)");
    Result result;
    result.model.layout = layout;
    const Eigen::MatrixXf raw = featureMatrix(trainSamples);
    Eigen::VectorXf targets(raw.cols());
    for (std::size_t j = 0; j < trainSamples.size(); ++j)
        targets(static_cast<Eigen::Index>(j)) = static_cast<float>(trainSamples[j].cpi);
    result.model.normalizer = FeatureNormalizer::fit(raw);
    const Eigen::MatrixXf normalised = result.model.normalizer.apply(raw);
    result.model.linear = LinearBaseline::fit(normalised, targets);
    result.model.mlp = MlpTrainer(options).train(normalised, targets, result.report, job);

    result.test = evaluate(result.model, testSamples);
    result.heldOut = evaluate(result.model, heldOutSamples);
    nlohmann::json& m = result.model.metrics;
    m["training"] = result.report.toJson();
    m["training"]["hidden"] = options.hidden;
    m["training"]["batch_size"] = options.batchSize;
    m["training"]["learning_rate"] = options.learningRate;
    m["training"]["weight_decay"] = options.weightDecay;
    m["training"]["seed"] = options.seed;
    std::set<std::string> programs;
    for (const auto& sample : trainSamples)
        programs.insert(sample.program);
    m["dataset"] = {{"files", files},
                    {"train_samples", trainSamples.size()},
                    {"train_programs", programs},
                    {"grid", files.front()["grid"]}};
    m["accuracy"]["test"] = result.test.toJson();
    if (!result.heldOut.empty())
        m["accuracy"]["held_out"] = result.heldOut.toJson();
    return result;
}

} // namespace concorde
