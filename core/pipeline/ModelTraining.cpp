#include "pipeline/ModelTraining.h"

#include "common/ConcordeError.h"
#include "ml/MonotoneConstraints.h"
#include "params/ParameterSpace.h"
#include "store/DatasetFile.h"
#include "store/GridDescription.h"

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tbb/parallel_for.h>

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

std::vector<double> ModelTraining::minBoundCpis(const std::vector<DatasetSample>& samples) {
    std::vector<double> out;
    out.reserve(samples.size());
    for (const DatasetSample& sample : samples)
        out.push_back(sample.minBoundCpi);
    return out;
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
    const std::vector<CpiBand> bands = model.predictBands(raw, minBoundCpis(samples));
    Eigen::VectorXf linear;
    if (!model.linear.empty())
        linear = model.linear.predict(normalised);
    for (std::size_t j = 0; j < samples.size(); ++j) {
        const auto i = static_cast<Eigen::Index>(j);
        report.add({samples[j].program, samples[j].config, samples[j].cpi, bands[j].cpi,
                    samples[j].minBoundCpi, linear.size() ? double(linear(i)) : 0.0, bands[j].low,
                    bands[j].high});
    }
    return report;
}

double ModelTraining::bandCoverage(const CpiModel& model,
                                   const std::vector<DatasetSample>& samples) {
    return evaluate(model, samples).bandCoverage();
}

namespace {

/// Member k's training columns: a bootstrap of the programs (drawn with replacement; a program
/// drawn twice contributes its samples twice), seeded by k. `drawn` receives the programs drawn.
std::vector<Eigen::Index> bootstrapColumns(const std::vector<DatasetSample>& samples,
                                           std::uint64_t seed, std::set<std::string>& drawn) {
    std::map<std::string, std::vector<Eigen::Index>> byProgram;
    for (std::size_t j = 0; j < samples.size(); ++j)
        byProgram[samples[j].program].push_back(static_cast<Eigen::Index>(j));
    std::vector<std::pair<const std::string*, const std::vector<Eigen::Index>*>> programs;
    for (const auto& [name, columns] : byProgram)
        programs.emplace_back(&name, &columns);
    std::mt19937_64 rng(seed ^ 0xb0075u);
    std::vector<Eigen::Index> columns;
    for (std::size_t draw = 0; draw < programs.size(); ++draw) {
        const auto& [name, picked] = programs[rng() % programs.size()];
        drawn.insert(*name);
        columns.insert(columns.end(), picked->begin(), picked->end());
    }
    return columns;
}

constexpr std::size_t kMinimumOutOfBagSamples = 100;

/// Regions, signed parameter positions and each group's parameters of the training samples, for
/// a composed network's group-order penalty.
GroupOrderContext groupOrderContext(const FeatureLayout& layout, const MlpComposition& composition,
                                    const std::vector<DatasetSample>& samples) {
    GroupOrderContext context;
    std::map<std::pair<std::string, std::uint32_t>, std::uint32_t> regions;
    context.position.resize(static_cast<Eigen::Index>(kParamCount),
                            static_cast<Eigen::Index>(samples.size()));
    for (std::size_t j = 0; j < samples.size(); ++j) {
        const DatasetSample& s = samples[j];
        const auto key = std::make_pair(s.program, s.regionIndex);
        const auto found = regions.try_emplace(key, static_cast<std::uint32_t>(regions.size()));
        context.region.push_back(found.first->second);
        for (std::size_t p = 0; p < kParamCount; ++p) {
            const auto id = static_cast<ParamId>(p);
            const int direction = ParameterSpace::betterDirection(id);
            const double value = s.config.value(id);
            context.position(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(j)) =
                static_cast<float>(direction == 0 ? value : direction * value);
        }
    }
    for (std::size_t p = 0; p < kParamCount; ++p)
        context.ordered.push_back(ParameterSpace::betterDirection(static_cast<ParamId>(p)) != 0);
    std::vector<std::set<int>> params(composition.groups());
    for (const FeatureBlock& block : layout.blocks())
        for (const ParamId id : block.params)
            params[composition.inputGroup[block.offset]].insert(static_cast<int>(id));
    for (const std::set<int>& set : params)
        context.groupParams.emplace_back(set.begin(), set.end());
    return context;
}

} // namespace

ModelTraining::BandCalibrationSet ModelTraining::bandCalibrationSet(
    const Eigen::MatrixXf& memberCpis, const std::vector<DatasetSample>& samples,
    const std::vector<std::set<std::string>>& seen, std::size_t minimum) {
    if (memberCpis.cols() != static_cast<Eigen::Index>(samples.size()) ||
        memberCpis.rows() != static_cast<Eigen::Index>(seen.size()))
        throw usageError("band calibration set: one row per member and one column per sample");
    BandCalibrationSet outOfBag, everyMember;
    outOfBag.outOfBag = true;
    for (std::size_t j = 0; j < samples.size(); ++j) {
        const auto column = static_cast<Eigen::Index>(j);
        std::vector<double> unseen, every;
        for (Eigen::Index k = 0; k < memberCpis.rows(); ++k) {
            every.push_back(memberCpis(k, column));
            if (!seen[static_cast<std::size_t>(k)].contains(samples[j].program))
                unseen.push_back(memberCpis(k, column));
        }
        everyMember.memberCpis.push_back(std::move(every));
        everyMember.simulated.push_back(samples[j].cpi);
        everyMember.sampleIndex.push_back(j);
        if (unseen.size() >= 2) {
            outOfBag.memberCpis.push_back(std::move(unseen));
            outOfBag.simulated.push_back(samples[j].cpi);
            outOfBag.sampleIndex.push_back(j);
        }
    }
    return outOfBag.simulated.size() >= minimum ? outOfBag : everyMember;
}

AccuracyReport ModelTraining::outOfBagAccuracy(const BandCalibrationSet& set,
                                               const std::vector<DatasetSample>& samples) {
    AccuracyReport report;
    if (!set.outOfBag)
        return report;
    for (std::size_t i = 0; i < set.sampleIndex.size(); ++i) {
        const DatasetSample& sample = samples.at(set.sampleIndex[i]);
        // The linear baseline saw every program, so it has no out-of-bag figure (0: none).
        report.add({sample.program, sample.config, sample.cpi,
                    BandCalibration{}.centre(set.memberCpis[i]), sample.minBoundCpi});
    }
    return report;
}

ModelTraining::Result ModelTraining::train(const std::vector<DatasetFile*>& datasets,
                                           const TrainingOptions& options, const JobControl& job) {
    return train(datasets, options, EnsembleOptions{}, job);
}

ModelTraining::Result ModelTraining::train(const std::vector<DatasetFile*>& datasets,
                                           const TrainingOptions& options,
                                           const EnsembleOptions& ensemble, const JobControl& job) {
    if (ensemble.members < 1 || ensemble.members > 64)
        throw usageError("an ensemble has 1 to 64 members, not " +
                         std::to_string(ensemble.members));
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
        if (dataset->settings().loadQueueThroughCommit() !=
            datasets.front()->settings().loadQueueThroughCommit())
            throw badInput(dataset->path().string() + " has features of another LQ bound than " +
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
    result.model.output = ensemble.output;
    result.model.bottleneckFloor = ensemble.bottleneckFloor;
    result.model.loadQueueThroughCommit = datasets.front()->settings().loadQueueThroughCommit();
    const Eigen::MatrixXf raw = featureMatrix(trainSamples);
    Eigen::VectorXf targets(raw.cols());
    for (std::size_t j = 0; j < trainSamples.size(); ++j)
        targets(static_cast<Eigen::Index>(j)) = static_cast<float>(trainSamples[j].cpi);
    result.model.normalizer = FeatureNormalizer::fit(raw);
    const Eigen::MatrixXf normalised = result.model.normalizer.apply(raw);
    result.model.linear = LinearBaseline::fit(normalised, targets);
    {
        std::vector<std::string> programs;
        std::vector<std::uint32_t> regions;
        for (const DatasetSample& s : trainSamples) {
            programs.push_back(s.program);
            regions.push_back(s.regionIndex);
        }
        result.model.ood = OutOfDistributionScore::fit(layout, normalised, programs, regions);
    }
    // An anchored network learns the factor CPI / bottleneck CPI. Its loss on the factor is the
    // relative error of the CPI: |a·f − y| / y = |f − y/a| / (y/a).
    Eigen::VectorXf memberTargets = targets;
    if (ensemble.output == CpiOutput::BottleneckAnchored) {
        const std::vector<std::size_t> anchors = result.model.anchorColumns();
        if (anchors.empty())
            throw badInput("the datasets' feature layout has no resource block to anchor on");
        for (Eigen::Index j = 0; j < raw.cols(); ++j)
            memberTargets(j) /= static_cast<float>(CpiModel::anchorCpi(
                std::span<const float>(raw.col(j).data(), static_cast<std::size_t>(raw.rows())),
                anchors));
    }
    if (ensemble.output == CpiOutput::MinBoundAnchored)
        for (std::size_t j = 0; j < trainSamples.size(); ++j) {
            const double bound = trainSamples[j].minBoundCpi;
            if (!std::isfinite(bound) || !(bound > 0))
                throw badInput("a training sample of " + trainSamples[j].program +
                               " has min-of-bounds CPI " + std::to_string(bound) +
                               "; a model anchored on it needs a positive one");
            memberTargets(static_cast<Eigen::Index>(j)) /= static_cast<float>(bound);
        }
    // Every member of a composed ensemble has the same groups.
    const MlpComposition composition =
        ensemble.composedUnits > 0
            ? MlpComposition::forLayout(layout, ensemble.composedUnits, ensemble.composedOutputs)
            : MlpComposition{};
    const GroupOrderContext orderContext =
        !composition.empty() && ensemble.groupOrderPenalty > 0
            ? groupOrderContext(layout, composition, trainSamples)
            : GroupOrderContext{};
    const auto members = static_cast<std::size_t>(ensemble.members);
    result.model.members.resize(members);
    std::vector<TrainingReport> reports(members);
    std::set<std::string> trainPrograms;
    for (const auto& sample : trainSamples)
        trainPrograms.insert(sample.program);
    // The programs each member trained on (all of them without a bootstrap).
    std::vector<std::set<std::string>> seen(members, trainPrograms);
    tbb::parallel_for(std::size_t(0), members, [&](std::size_t k) {
        TrainingOptions memberOptions = options;
        memberOptions.seed = options.seed + k;
        if (ensemble.monotone)
            memberOptions.inputConstraints = MonotoneConstraints::forLayout(layout);
        memberOptions.composition = composition;
        memberOptions.groupOrderPenalty = ensemble.groupOrderPenalty;
        const JobControl memberJob =
            members == 1 ? job : job.nested([&job, k](const JobProgress& progress) {
                JobProgress p = progress;
                p.item = "member " + std::to_string(k + 1) + ": " + progress.item;
                p.log = p.log.empty() ? "" : "member " + std::to_string(k + 1) + ": " + p.log;
                job.report(p);
            });
        // With a first-member centre, member 0 sees every program; the others' bootstraps give
        // the spread.
        if (members == 1 || (k == 0 && ensemble.firstMemberCentre)) {
            result.model.members[k] =
                MlpTrainer(memberOptions)
                    .train(normalised, memberTargets, orderContext, reports[k], memberJob);
            return;
        }
        seen[k].clear();
        const std::vector<Eigen::Index> columns =
            bootstrapColumns(trainSamples, memberOptions.seed, seen[k]);
        Eigen::MatrixXf x(normalised.rows(), static_cast<Eigen::Index>(columns.size()));
        Eigen::VectorXf y(static_cast<Eigen::Index>(columns.size()));
        for (std::size_t c = 0; c < columns.size(); ++c) {
            x.col(static_cast<Eigen::Index>(c)) = normalised.col(columns[c]);
            y(static_cast<Eigen::Index>(c)) = memberTargets(columns[c]);
        }
        const GroupOrderContext memberContext =
            orderContext.empty()
                ? GroupOrderContext{}
                : orderContext.select(std::vector<std::size_t>(columns.begin(), columns.end()));
        result.model.members[k] =
            MlpTrainer(memberOptions).train(x, y, memberContext, reports[k], memberJob);
    });
    result.report = reports.front();

    // The band: calibrated on regions never trained on (the "test" split), predicted by the
    // members that never saw their program (bandCalibrationSet); never on the held-out
    // programs, which only measure it.
    nlohmann::json bandSet = "none";
    if (members > 1 && !testSamples.empty()) {
        const BandCalibrationSet set = bandCalibrationSet(
            result.model.memberPredictions(featureMatrix(testSamples), minBoundCpis(testSamples)),
            testSamples, seen, kMinimumOutOfBagSamples);
        // Out of bag, the centre is the unseen members' mean whatever the model's centre is.
        result.model.band = BandCalibration::fit(
            set.memberCpis, set.simulated, ensemble.bandCoverage, BandCalibration::kDefaultFloor,
            set.outOfBag ? false : ensemble.firstMemberCentre, set.outOfBag ? members : 0);
        result.model.band =
            BandCalibration(result.model.band.scale(), result.model.band.floor(),
                            result.model.band.coverage(), ensemble.firstMemberCentre);
        bandSet = {{"kind", set.outOfBag ? "test split, out-of-bag members" : "test split"},
                   {"samples", set.simulated.size()}};
        // The same members' mean scores the ensemble on programs it did not see without
        // touching the held-out programs: what choices between ensembles are made on.
        result.outOfBag = outOfBagAccuracy(set, testSamples);
    }

    result.test = evaluate(result.model, testSamples);
    result.heldOut = evaluate(result.model, heldOutSamples);
    nlohmann::json& m = result.model.metrics;
    m["training"] = result.report.toJson();
    if (members > 1) {
        m["training"]["members"] = nlohmann::json::array();
        for (const TrainingReport& r : reports)
            m["training"]["members"].push_back(r.toJson());
    }
    m["ensemble"] = {
        {"members", members},
        {"output", CpiModel::outputName(ensemble.output)},
        {"floor", ensemble.bottleneckFloor ? "bottleneck" : "none"},
        {"bootstrap", members == 1                 ? "none"
                      : ensemble.firstMemberCentre ? "programs (member 0: all, the centre)"
                                                   : "programs"},
        {"monotone", ensemble.monotone},
        {"composed", ensemble.composedUnits > 0
                         ? nlohmann::json{{"units_per_group", ensemble.composedUnits},
                                          {"outputs_per_group", ensemble.composedOutputs},
                                          {"group_order_penalty", ensemble.groupOrderPenalty}}
                         : nlohmann::json(false)},
        {"band", result.model.band.toJson()},
        {"band_calibration_set", bandSet}};
    m["training"]["hidden"] = options.hidden;
    m["training"]["batch_size"] = options.batchSize;
    m["training"]["learning_rate"] = options.learningRate;
    m["training"]["weight_decay"] = options.weightDecay;
    m["training"]["seed"] = options.seed;
    m["dataset"] = {{"files", files},
                    {"train_samples", trainSamples.size()},
                    {"train_programs", trainPrograms},
                    {"grid", files.front()["grid"]}};
    m["accuracy"]["test"] = result.test.toJson();
    if (!result.heldOut.empty())
        m["accuracy"]["held_out"] = result.heldOut.toJson();
    if (!result.outOfBag.empty())
        m["accuracy"]["out_of_bag"] = result.outOfBag.toJson();

    return result;
}

} // namespace concorde
