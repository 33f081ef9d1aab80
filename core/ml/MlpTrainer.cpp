#include "ml/MlpTrainer.h"

#include "common/ConcordeError.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

namespace concorde {

nlohmann::json TrainingReport::toJson() const {
    return {{"epochs_run", epochsRun},
            {"best_epoch", bestEpoch},
            {"train_mean_rel_error", trainLoss},
            {"validation_mean_rel_error", validationLoss},
            {"train_samples", trainSamples},
            {"validation_samples", validationSamples},
            {"final_learning_rate", finalLearningRate},
            {"validation_history", validationHistory}};
}

double MlpTrainer::meanRelativeError(const Mlp& model, const Eigen::MatrixXf& inputs,
                                     const Eigen::VectorXf& targets) {
    if (targets.size() == 0)
        return 0.0;
    const Eigen::VectorXf predictions = model.predict(inputs);
    return ((predictions - targets).array().abs() / targets.array()).cast<double>().mean();
}

Eigen::RowVectorXf MlpTrainer::lossGradient(const Eigen::VectorXf& predictions,
                                            const Eigen::VectorXf& targets) {
    const float n = static_cast<float>(targets.size());
    Eigen::RowVectorXf g(targets.size());
    for (Eigen::Index i = 0; i < targets.size(); ++i) {
        const float diff = predictions(i) - targets(i);
        g(i) = (diff > 0 ? 1.0f : diff < 0 ? -1.0f : 0.0f) / (targets(i) * n);
    }
    return g;
}

Mlp MlpTrainer::train(const Eigen::MatrixXf& inputs, const Eigen::VectorXf& targets,
                      TrainingReport& report,
                      const JobControl& job) const {
    const auto samples = static_cast<std::size_t>(inputs.cols());
    if (samples < 2 || static_cast<std::size_t>(targets.size()) != samples)
        throw badInput("training needs at least 2 samples with one target each");
    for (Eigen::Index i = 0; i < targets.size(); ++i)
        if (!(targets(i) > 0) || !std::isfinite(targets(i)))
            throw badInput("training target " + std::to_string(i) + " is not a positive CPI");

    // A seeded shuffle (Fisher–Yates on the raw engine) splits training and validation.
    std::mt19937_64 rng(options_.seed);
    const auto shuffle = [&](std::vector<std::size_t>& v) {
        for (std::size_t i = v.size(); i > 1; --i)
            std::swap(v[i - 1], v[rng() % i]);
    };
    std::vector<std::size_t> order(samples);
    std::iota(order.begin(), order.end(), 0);
    shuffle(order);
    auto validationCount = static_cast<std::size_t>(options_.validationFraction * double(samples));
    validationCount = std::min(validationCount, samples - 1);
    std::vector<std::size_t> train(order.begin(), order.end() - static_cast<long>(validationCount));
    const std::vector<std::size_t> validation(order.end() - static_cast<long>(validationCount),
                                              order.end());
    const auto gather = [&](const std::vector<std::size_t>& idx, Eigen::MatrixXf& x,
                            Eigen::VectorXf& y) {
        x.resize(inputs.rows(), static_cast<Eigen::Index>(idx.size()));
        y.resize(static_cast<Eigen::Index>(idx.size()));
        for (std::size_t j = 0; j < idx.size(); ++j) {
            x.col(static_cast<Eigen::Index>(j)) = inputs.col(static_cast<Eigen::Index>(idx[j]));
            y(static_cast<Eigen::Index>(j)) = targets(static_cast<Eigen::Index>(idx[j]));
        }
    };
    Eigen::MatrixXf trainX, validX;
    Eigen::VectorXf trainY, validY;
    gather(train, trainX, trainY);
    gather(validation, validX, validY);
    report = TrainingReport{};
    report.trainSamples = train.size();
    report.validationSamples = validation.size();

    std::vector<int> sizes{static_cast<int>(inputs.rows())};
    sizes.insert(sizes.end(), options_.hidden.begin(), options_.hidden.end());
    sizes.push_back(1);
    Mlp model(sizes, options_.seed);
    if (!options_.inputConstraints.empty())
        model.makeMonotone(options_.inputConstraints);
    // Start the output near the mean CPI so that early relative errors are sensible.
    const float meanCpi = trainY.mean();
    model.biases().back()(0) = std::log(std::expm1(std::max(meanCpi, 1e-3f)));

    // AdamW state.
    std::vector<Mlp::Matrix> mW, vW;
    std::vector<Mlp::Vector> mB, vB;
    for (std::size_t l = 0; l < model.weights().size(); ++l) {
        mW.push_back(Mlp::Matrix::Zero(model.weights()[l].rows(), model.weights()[l].cols()));
        vW.push_back(mW.back());
        mB.push_back(Mlp::Vector::Zero(model.biases()[l].size()));
        vB.push_back(mB.back());
    }
    long step = 0;
    double learningRate = options_.learningRate;
    int sinceDecay = 0;
    Mlp best = model;
    double bestValidation = std::numeric_limits<double>::infinity();
    int sinceBest = 0;
    std::vector<std::size_t> batchOrder(train.size());
    std::iota(batchOrder.begin(), batchOrder.end(), 0);
    Mlp::Activations activations;
    const auto batchSize = static_cast<std::size_t>(std::max(1, options_.batchSize));
    for (int epoch = 1; epoch <= options_.maxEpochs; ++epoch) {
        shuffle(batchOrder);
        for (std::size_t start = 0; start < batchOrder.size(); start += batchSize) {
            const std::size_t end = std::min(batchOrder.size(), start + batchSize);
            Eigen::MatrixXf x(trainX.rows(), static_cast<Eigen::Index>(end - start));
            Eigen::VectorXf y(static_cast<Eigen::Index>(end - start));
            for (std::size_t j = start; j < end; ++j) {
                x.col(static_cast<Eigen::Index>(j - start)) =
                    trainX.col(static_cast<Eigen::Index>(batchOrder[j]));
                y(static_cast<Eigen::Index>(j - start)) =
                    trainY(static_cast<Eigen::Index>(batchOrder[j]));
            }
            const Eigen::VectorXf predictions = model.forward(x, activations);
            const auto gradients = model.backward(activations, lossGradient(predictions, y));
            ++step;
            const double correction1 = 1.0 - std::pow(options_.beta1, double(step));
            const double correction2 = 1.0 - std::pow(options_.beta2, double(step));
            const auto b1 = static_cast<float>(options_.beta1);
            const auto b2 = static_cast<float>(options_.beta2);
            const auto lr = static_cast<float>(learningRate);
            const auto decay = static_cast<float>(learningRate * options_.weightDecay);
            const auto eps = static_cast<float>(options_.epsilon);
            const auto c1 = static_cast<float>(correction1);
            const auto c2 = static_cast<float>(correction2);
            for (std::size_t l = 0; l < model.weights().size(); ++l) {
                mW[l] = b1 * mW[l] + (1 - b1) * gradients.weights[l];
                vW[l] =
                    b2 * vW[l] + (1 - b2) * gradients.weights[l].cwiseProduct(gradients.weights[l]);
                model.weights()[l] *= (1 - decay);
                model.weights()[l].array() -=
                    lr * (mW[l].array() / c1) / ((vW[l].array() / c2).sqrt() + eps);
                mB[l] = b1 * mB[l] + (1 - b1) * gradients.biases[l];
                vB[l] =
                    b2 * vB[l] + (1 - b2) * gradients.biases[l].cwiseProduct(gradients.biases[l]);
                model.biases()[l].array() -=
                    lr * (mB[l].array() / c1) / ((vB[l].array() / c2).sqrt() + eps);
            }
            model.project(); // projected AdamW: a monotone network stays monotone
        }
        const double validationLoss = validY.size() > 0 ? meanRelativeError(model, validX, validY)
                                                        : meanRelativeError(model, trainX, trainY);
        report.validationHistory.push_back(validationLoss);
        report.epochsRun = epoch;
        if (validationLoss < bestValidation) {
            bestValidation = validationLoss;
            best = model;
            report.bestEpoch = epoch;
            sinceBest = 0;
            sinceDecay = 0;
        } else if (++sinceBest >= options_.patience) {
            break;
        } else if (options_.plateau > 0 && ++sinceDecay >= options_.plateau) {
            // Reduce on plateau: a smaller step settles into the minimum the larger one jumps
            // around; relative-error gradients do not shrink near the optimum (L1-like).
            learningRate *= options_.decayFactor;
            sinceDecay = 0;
        }
        if (job.reporting()) {
            char line[160];
            std::snprintf(line, sizeof line,
                          "epoch %3d  train error %6.3f %%  validation error %6.3f %%", epoch,
                          100 * meanRelativeError(model, trainX, trainY), 100 * validationLoss);
            JobProgress progress;
            progress.done = static_cast<std::size_t>(epoch);
            progress.total = static_cast<std::size_t>(options_.maxEpochs);
            progress.item = line;
            progress.log = line;
            job.report(progress);
        }
        job.throwIfCancelled("training");
    }
    report.finalLearningRate = learningRate;
    report.trainLoss = meanRelativeError(best, trainX, trainY);
    report.validationLoss = bestValidation;
    return best;
}

} // namespace concorde
