#include "ml/MlpTrainer.h"

#include "common/ConcordeError.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <span>

namespace concorde {

namespace {

/// One batch's group-order penalty (GroupOrderContext): pairs each sample with a random sample of
/// its region, and for every varying group where one of the two is no bigger a core in all the
/// group's parameters, charges the bigger core's outputs that exceed the smaller's.
class GroupOrderPenalty {
public:
    explicit GroupOrderPenalty(float weight) : weight_(weight) {}

    /// The penalty's gradient with respect to the batch's group outputs (activations.post[2]);
    /// the partners' own gradient is kept for addPartnerGradients.
    Mlp::Matrix pair(const Mlp& model, const Mlp::Activations& activations,
                     const Eigen::MatrixXf& inputs, const GroupOrderContext& context,
                     const std::map<std::uint32_t, std::vector<Eigen::Index>>& byRegion,
                     std::span<const std::size_t> batch, std::mt19937_64& rng) {
        const auto n = static_cast<Eigen::Index>(batch.size());
        const MlpComposition& composition = model.composition();
        const Eigen::Index outputs = composition.outputsPerGroup;
        std::vector<Eigen::Index> partner(batch.size());
        partnerInputs_.resize(inputs.rows(), n);
        for (std::size_t j = 0; j < batch.size(); ++j) {
            const std::vector<Eigen::Index>& same = byRegion.at(context.region[batch[j]]);
            partner[j] = same[rng() % same.size()];
            partnerInputs_.col(static_cast<Eigen::Index>(j)) = inputs.col(partner[j]);
        }
        partnerPre_ = model.weights()[0] * partnerInputs_;
        partnerPre_.colwise() += model.biases()[0];
        partnerHidden_ = partnerPre_.cwiseMax(0.0f);
        Mlp::Matrix partnerOutputs = model.weights()[1] * partnerHidden_;
        partnerOutputs.colwise() += model.biases()[1];
        const Mlp::Matrix& outputsOfBatch = activations.post[2];
        Mlp::Matrix injected = Mlp::Matrix::Zero(outputsOfBatch.rows(), n);
        partnerGradient_ = Mlp::Matrix::Zero(outputsOfBatch.rows(), n);
        const float w = weight_ / static_cast<float>(n);
        for (Eigen::Index j = 0; j < n; ++j) {
            const auto self = static_cast<Eigen::Index>(batch[static_cast<std::size_t>(j)]);
            const Eigen::Index other = partner[static_cast<std::size_t>(j)];
            for (std::size_t g = 0; g < composition.groups(); ++g) {
                bool selfSmaller = true, otherSmaller = true;
                for (const int p : context.groupParams[g]) {
                    const float a = context.position(p, self), b = context.position(p, other);
                    if (context.ordered[static_cast<std::size_t>(p)]) {
                        selfSmaller = selfSmaller && a <= b;
                        otherSmaller = otherSmaller && b <= a;
                    } else if (a != b) {
                        selfSmaller = otherSmaller = false;
                    }
                }
                if (selfSmaller == otherSmaller) // the same core for this group, or incomparable
                    continue;
                for (Eigen::Index o = 0; o < outputs; ++o) {
                    const Eigen::Index row = static_cast<Eigen::Index>(g) * outputs + o;
                    const float mine = outputsOfBatch(row, j), theirs = partnerOutputs(row, j);
                    // The bigger core's output may not exceed the smaller core's.
                    const float excess = selfSmaller ? theirs - mine : mine - theirs;
                    if (excess <= 0)
                        continue;
                    const float sign = selfSmaller ? 1.0f : -1.0f;
                    partnerGradient_(row, j) += sign * w;
                    injected(row, j) -= sign * w;
                    excess_ += excess;
                }
            }
        }
        samples_ += static_cast<std::size_t>(n);
        return injected;
    }

    /// Adds the partners' share of the penalty's gradient (through the group layers 0 and 1).
    void addPartnerGradients(const Mlp& model, Mlp::Gradients& gradients) const {
        gradients.weights[1] += partnerGradient_ * partnerHidden_.transpose();
        gradients.biases[1] += partnerGradient_.rowwise().sum();
        const Mlp::Matrix hidden =
            (model.weights()[1].transpose() * partnerGradient_)
                .cwiseProduct(partnerPre_.unaryExpr([](float z) { return z > 0 ? 1.0f : 0.0f; }));
        gradients.weights[0] += hidden * partnerInputs_.transpose();
        gradients.biases[0] += hidden.rowwise().sum();
    }

    /// Mean hinge excess per sample since the last call, then resets it.
    double takeMeanExcess() {
        const double mean = samples_ ? excess_ / double(samples_) : 0.0;
        excess_ = 0;
        samples_ = 0;
        return mean;
    }

private:
    float weight_;
    Mlp::Matrix partnerInputs_, partnerPre_, partnerHidden_, partnerGradient_;
    double excess_ = 0;
    std::size_t samples_ = 0;
};

} // namespace

nlohmann::json TrainingReport::toJson() const {
    return {{"epochs_run", epochsRun},
            {"best_epoch", bestEpoch},
            {"train_mean_rel_error", trainLoss},
            {"validation_mean_rel_error", validationLoss},
            {"train_samples", trainSamples},
            {"validation_samples", validationSamples},
            {"final_learning_rate", finalLearningRate},
            {"validation_history", validationHistory},
            {"group_order_history", groupOrderHistory}};
}

GroupOrderContext GroupOrderContext::select(const std::vector<std::size_t>& columns) const {
    GroupOrderContext out;
    out.ordered = ordered;
    out.groupParams = groupParams;
    out.position.resize(position.rows(), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t j = 0; j < columns.size(); ++j) {
        out.region.push_back(region.at(columns[j]));
        out.position.col(static_cast<Eigen::Index>(j)) =
            position.col(static_cast<Eigen::Index>(columns[j]));
    }
    return out;
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
                      TrainingReport& report, const JobControl& job) const {
    return train(inputs, targets, GroupOrderContext{}, report, job);
}

Mlp MlpTrainer::train(const Eigen::MatrixXf& inputs, const Eigen::VectorXf& targets,
                      const GroupOrderContext& context, TrainingReport& report,
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

    const MlpComposition& composition = options_.composition;
    if (!composition.empty() && !options_.inputConstraints.empty())
        throw usageError("a network is either composed or monotone on its inputs, not both");
    std::vector<int> sizes{static_cast<int>(inputs.rows())};
    if (!composition.empty()) {
        const auto groups = static_cast<int>(composition.groups());
        sizes.push_back(groups * composition.unitsPerGroup);
        sizes.push_back(groups * composition.outputsPerGroup);
    }
    sizes.insert(sizes.end(), options_.hidden.begin(), options_.hidden.end());
    sizes.push_back(1);
    Mlp model(sizes, options_.seed);
    if (!options_.inputConstraints.empty())
        model.makeMonotone(options_.inputConstraints);
    if (!composition.empty())
        model.makeComposed(composition);
    const bool penalise = options_.groupOrderPenalty > 0 && model.composed() && !context.empty();
    if (penalise &&
        (context.region.size() != samples || context.groupParams.size() != composition.groups() ||
         context.position.cols() != static_cast<Eigen::Index>(samples)))
        throw usageError("the group-order context must describe every sample and group");
    // Pairs are drawn among the training part's samples of the same region.
    GroupOrderContext trainContext;
    std::map<std::uint32_t, std::vector<Eigen::Index>> byRegion;
    if (penalise) {
        trainContext = context.select(train);
        for (std::size_t j = 0; j < train.size(); ++j)
            byRegion[trainContext.region[j]].push_back(static_cast<Eigen::Index>(j));
    }
    std::mt19937_64 pairRng(options_.seed ^ 0x9a125u);
    GroupOrderPenalty penalty(static_cast<float>(options_.groupOrderPenalty));
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
            Mlp::Matrix injected;
            if (penalise)
                injected = penalty.pair(
                    model, activations, trainX, trainContext, byRegion,
                    std::span<const std::size_t>(batchOrder).subspan(start, end - start), pairRng);
            auto gradients = model.backward(activations, lossGradient(predictions, y), 2,
                                            penalise ? &injected : nullptr);
            if (penalise)
                penalty.addPartnerGradients(model, gradients);
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
        if (penalise)
            report.groupOrderHistory.push_back(penalty.takeMeanExcess());
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
            const int written = std::snprintf(
                line, sizeof line, "epoch %3d  train error %6.3f %%  validation error %6.3f %%",
                epoch, 100 * meanRelativeError(model, trainX, trainY), 100 * validationLoss);
            if (penalise && written > 0 && written < static_cast<int>(sizeof line))
                std::snprintf(line + written, sizeof line - static_cast<std::size_t>(written),
                              "  group-order excess %.4f", report.groupOrderHistory.back());
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
