#include "store/ModelTraining.h"

#include "common/ConcordeError.h"
#include "store/DatasetFile.h"
#include "store/GridDescription.h"

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

ModelTraining::Result ModelTraining::train(DatasetFile& dataset, const TrainingOptions& options,
                                           const std::function<bool(int, double, double)>& progress) {
    const std::vector<DatasetSample> trainSamples = dataset.samples({"train"});
    if (trainSamples.size() < 10)
        throw badInput(dataset.path().string() + " has " + std::to_string(trainSamples.size()) +
                       " training samples; at least 10 are needed (draw more with concorde "
                       "dataset --samples N)");
    Result result;
    result.model.layout = dataset.layout();
    const Eigen::MatrixXf raw = featureMatrix(trainSamples);
    Eigen::VectorXf targets(raw.cols());
    for (std::size_t j = 0; j < trainSamples.size(); ++j)
        targets(static_cast<Eigen::Index>(j)) = static_cast<float>(trainSamples[j].cpi);
    result.model.normalizer = FeatureNormalizer::fit(raw);
    const Eigen::MatrixXf normalised = result.model.normalizer.apply(raw);
    result.model.linear = LinearBaseline::fit(normalised, targets);
    result.model.mlp = MlpTrainer(options).train(normalised, targets, result.report, progress);

    result.test = evaluate(result.model, dataset.samples({"test"}));
    result.heldOut = evaluate(result.model, dataset.samples({"held_out"}));
    const DatasetSettings& settings = dataset.settings();
    nlohmann::json& m = result.model.metrics;
    m["training"] = result.report.toJson();
    m["training"]["hidden"] = options.hidden;
    m["training"]["batch_size"] = options.batchSize;
    m["training"]["learning_rate"] = options.learningRate;
    m["training"]["weight_decay"] = options.weightDecay;
    m["training"]["seed"] = options.seed;
    m["dataset"] = {{"file", dataset.path().string()},
                    {"train_samples", trainSamples.size()},
                    {"seed", settings.seed},
                    {"hold_out", settings.holdOut}};
    try {
        m["dataset"]["grid"] = nlohmann::json::parse(settings.gridText);
    } catch (const nlohmann::json::exception&) {
        throw badInput(dataset.path().string() + ": malformed grid in meta");
    }
    m["accuracy"]["test"] = result.test.toJson();
    if (!result.heldOut.empty())
        m["accuracy"]["held_out"] = result.heldOut.toJson();
    return result;
}

} // namespace concorde
