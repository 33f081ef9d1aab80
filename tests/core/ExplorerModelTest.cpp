// ExplorerModel: opening a database for the explorer, batched predictions for every program, the
// selected program's regions, the model's measured accuracy and warnings about configurations
// off the database grid or outside the training data. ModelAccuracy and ConfigChecker too.
#include "explore/ExplorerModel.h"

#include "../support/ErrorCapture.h"
#include "../support/TinyExplorerDatabase.h"
#include "common/ConcordeError.h"
#include "explore/ConfigChecker.h"
#include "explore/DatabasePredictor.h"
#include "explore/ModelValidation.h"
#include "explore/ParameterSweep.h"
#include "explore/SensitivityRanking.h"
#include "ml/ModelAccuracy.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace concorde;
using concorde::testing::errorOf;

namespace {

/// A configuration on the tiny grid: the default moved to the nearest tiny-grid value.
CoreConfig onTinyGrid() {
    const ConfigChecker checker(ParameterGrid(testing::tinyExplorerGrid()), {});
    return checker.snap(CoreConfig{});
}

bool close(double a, double b, double tolerance = 1e-9) {
    return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

} // namespace

class ExplorerModelTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::filesystem::path file(const char* name) const {
        return dir_.filePath(QString::fromLatin1(name)).toStdString();
    }

    std::filesystem::path database() {
        const auto path = file("explorer.sqlite");
        if (!std::filesystem::exists(path))
            testing::buildTinyExplorerDatabase(path);
        return path;
    }

private slots:
    void opensWithProgressAndPredictsLikeDatabasePredictor() {
        std::atomic<std::size_t> calls{0};
        std::atomic<std::size_t> lastTotal{0};
        const auto model =
            ExplorerModel::open(database(), {}, JobControl([&](const JobProgress& p) {
                                    ++calls;
                                    lastTotal = p.total;
                                }));
        QCOMPARE(calls.load(), std::size_t(5));
        QCOMPARE(lastTotal.load(), std::size_t(5));
        QVERIFY(model->programs() == std::vector<std::string>({"alpha", "beta"}));
        QCOMPARE(model->regionCount("alpha"), std::size_t(3));
        QCOMPARE(model->regionCount("beta"), std::size_t(2));
        QVERIFY(model->hasProgram("beta"));
        QVERIFY(!model->hasProgram("gamma"));
        QCOMPARE(model->model().name, std::string("tiny"));
        QVERIFY(model->grid() == ParameterGrid(testing::tinyExplorerGrid()));

        // Every program's CPI, single and batched, equals DatabasePredictor's.
        const CoreConfig a = onTinyGrid();
        CoreConfig b = a;
        b.set(ParamId::Rob, 128);
        b.set(ParamId::LoadQueue, 16);
        const std::vector<double> single = model->programCpis(a);
        const std::vector<CoreConfig> both = {a, b};
        const auto batched = model->programCpis(both);
        QCOMPARE(batched.size(), std::size_t(2));
        for (std::size_t p = 0; p < 2; ++p) {
            const std::string& name = model->programs()[p];
            QVERIFY(single[p] > 0);
            QVERIFY(close(single[p], model->predictor().programCpi(name, a)));
            QVERIFY(close(batched[0][p], single[p], 1e-6));
            QVERIFY(close(batched[1][p], model->predictor().programCpi(name, b), 1e-6));
        }
        QVERIFY(batched[0] != batched[1]); // the configuration matters

        // One program's regions, in order, weighted into the program's CPI.
        const auto regions = model->regionCpis("alpha", b);
        QCOMPARE(regions.size(), std::size_t(3));
        double weighted = 0, total = 0;
        for (std::size_t i = 0; i < regions.size(); ++i) {
            QCOMPARE(regions[i].index, std::uint32_t(i));
            QVERIFY(regions[i].instructions > 0);
            QVERIFY(regions[i].targetCpi > 0);
            weighted += double(regions[i].instructions) * regions[i].targetCpi;
            total += double(regions[i].instructions);
        }
        QVERIFY(close(weighted / total, batched[1][0], 1e-6));
        QVERIFY(!errorOf([&] { model->regionCpis("gamma", a); }).isEmpty());
    }

    void predictGivesTheWholeSnapshot() {
        const auto model = ExplorerModel::open(database());
        const CoreConfig target = onTinyGrid();
        CoreConfig baseline = target;
        baseline.set(ParamId::AluIssue, baseline.aluIssue() == 2 ? 4 : 2);
        baseline.set(ParamId::L1dKb, baseline.l1dKb() == 32 ? 64 : 32);

        const ExplorerPrediction p = model->predict(target, baseline, "beta");
        QVERIFY(p.programs == model->programs());
        QCOMPARE(p.program, std::string("beta"));
        QCOMPARE(p.programIndex, std::size_t(1));
        QVERIFY(p.hasProgram());
        const auto cpis = model->programCpis(std::vector<CoreConfig>{target, baseline});
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(close(p.targetCpi[i], cpis[0][i], 1e-6));
            QVERIFY(close(p.baselineCpi[i], cpis[1][i], 1e-6));
        }
        QCOMPARE(p.selectedCpi(), p.targetCpi[1]);
        QCOMPARE(p.selectedBaselineCpi(), p.baselineCpi[1]);
        QVERIFY(close(p.selectedDelta(), p.targetCpi[1] / p.baselineCpi[1] - 1));
        QCOMPARE(p.regions.size(), std::size_t(2));
        const auto regions = model->regionCpis("beta", target);
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(close(p.regions[i].targetCpi, regions[i].targetCpi, 1e-6));
            QVERIFY(p.regions[i].baselineCpi > 0);
        }
        QCOMPARE(p.modelName, std::string("tiny"));
        QVERIFY(p.accuracy.unseenRegions.has_value());
        // Every program carries predict's band (issue 17, item 6) at the target and the baseline.
        for (std::size_t i = 0; i < p.programs.size(); ++i) {
            const CpiBand t = model->predictor().programBand(p.programs[i], p.targetOnGrid);
            const CpiBand b = model->predictor().programBand(p.programs[i], p.baselineOnGrid);
            QVERIFY(close(p.targetCpiLow[i], t.low, 1e-9) &&
                    close(p.targetCpiHigh[i], t.high, 1e-9));
            QVERIFY(close(p.baselineCpiLow[i], b.low, 1e-9) &&
                    close(p.baselineCpiHigh[i], b.high, 1e-9));
            QVERIFY(p.targetCpiLow[i] <= p.targetCpi[i] && p.targetCpi[i] <= p.targetCpiHigh[i]);
        }
        QCOMPARE(p.selectedCpiLow, p.targetCpiLow[1]);

        // A later prediction with the same baseline reuses its CPIs and predicts the same.
        CoreConfig moved = target;
        moved.set(ParamId::Rob, target.rob() == 64 ? 128 : 64);
        const ExplorerPrediction reused = model->predict(moved, baseline, "beta", &p);
        QCOMPARE(reused.baselineRegionBands.get(),
                 p.baselineRegionBands.get()); // shared, not copied
        const ExplorerPrediction fresh = model->predict(moved, baseline, "beta");
        QVERIFY(fresh.baselineRegionBands != p.baselineRegionBands);
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(close(reused.targetCpi[i], fresh.targetCpi[i], 1e-12));
            QVERIFY(close(reused.baselineCpi[i], fresh.baselineCpi[i], 1e-6));
        }
        for (std::size_t i = 0; i < reused.regions.size(); ++i)
            QVERIFY(close(reused.regions[i].baselineCpi, fresh.regions[i].baselineCpi, 1e-6));
        // A different baseline is evaluated afresh.
        const ExplorerPrediction rebased = model->predict(moved, moved, "beta", &p);
        QVERIFY(rebased.baselineRegionBands != p.baselineRegionBands);
        QVERIFY(rebased.targetCpi == rebased.baselineCpi);

        // Same target and baseline: one evaluation, identical numbers.
        const ExplorerPrediction same = model->predict(target, target, "alpha");
        QVERIFY(same.targetCpi == same.baselineCpi);
        QCOMPARE(same.selectedDelta(), 0.0);

        // No (or an unknown) program: every program's CPI, no selection, no error.
        const ExplorerPrediction none = model->predict(target, baseline, "gamma");
        QVERIFY(!none.hasProgram());
        QVERIFY(none.regions.empty());
        QCOMPARE(none.targetCpi.size(), std::size_t(2));
        QVERIFY(std::isnan(none.selectedCpi()));
    }

    // Issue 17: an ensemble's band and the out-of-distribution score reach the snapshot the
    // header shows: the selected program's band is the predictor's, and a program far from
    // every training centroid scores above 1.
    void snapshotCarriesTheBandAndTheOutOfDistributionScore() {
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        CpiModel model = *db.readModel();
        const int width = static_cast<int>(model.layout.width());
        model.members.push_back(Mlp({width, 8, 1}, 24));
        model.members.push_back(Mlp({width, 8, 1}, 25));
        model.band = BandCalibration(2.0, 0.01, 0.8);
        nlohmann::json ood = {{"threshold", 1.0},
                              {"features", {0, 1, 2}},
                              {"centroids", {{"far", {500.0, 500.0, 500.0}}}}};
        model.ood = OutOfDistributionScore::fromJson(ood, model.layout.width(), "test");
        const ExplorerModel explorer(std::move(db), std::move(model));
        const CoreConfig target = onTinyGrid();
        const ExplorerPrediction p = explorer.predict(target, target, "beta");
        QVERIFY(p.banded);
        QVERIFY(p.selectedCpiLow < p.selectedCpi() && p.selectedCpi() < p.selectedCpiHigh);
        const CpiBand band = explorer.predictor().programBand("beta", target);
        QVERIFY(close(band.cpi, p.selectedCpi(), 1e-9));
        QCOMPARE(band.low, p.selectedCpiLow);
        QCOMPARE(band.high, p.selectedCpiHigh);
        QVERIFY(p.selectedOodScore > 1);
        // The sweep carries the selected program's band at every grid value.
        const ParameterSweep sweep =
            ParameterSweep::compute(explorer, target, ParamId::Rob, "beta");
        QCOMPARE(sweep.bandProgram, std::string("beta"));
        QCOMPARE(sweep.bandLow.size(), sweep.values.size());
        for (std::size_t v = 0; v < sweep.values.size(); ++v) {
            QVERIFY(sweep.bandLow[v] < sweep.cpi[v][1] && sweep.cpi[v][1] < sweep.bandHigh[v]);
            CoreConfig at = target;
            at.set(ParamId::Rob, sweep.values[v]);
            QCOMPARE(sweep.bandHigh[v], explorer.predictor().programBand("beta", at).high);
        }
        QVERIFY(ParameterSweep::compute(explorer, target, ParamId::Rob).bandLow.empty());
        QCOMPARE(explorer.programOodScores().size(), explorer.programs().size());
        QCOMPARE(explorer.programOodScores()[1], p.selectedOodScore);
        // The shipped single model of the tiny database: no band, no score.
        const auto single = ExplorerModel::open(database());
        const ExplorerPrediction q = single->predict(target, target, "beta");
        QVERIFY(!q.banded);
        QVERIFY(close(q.selectedCpiLow, q.selectedCpi(), 1e-6));
        QCOMPARE(q.selectedOodScore, 0.0);
    }

    void offGridConfigurationsArePredictedAtTheNearestGridValue() {
        const auto model = ExplorerModel::open(database());
        CoreConfig config = onTinyGrid();
        config.set(ParamId::Rob, 64);
        CoreConfig off = config;
        off.set(ParamId::Rob, 80); // between 64 and 128: nearest is 64
        off.set(ParamId::CommitWidth, 8);
        QCOMPARE(model->snap(off), config);

        const ExplorerPrediction p = model->predict(off, config, "alpha");
        QCOMPARE(p.targetOnGrid, config);
        QVERIFY(p.targetCpi == p.baselineCpi);
        QCOMPARE(p.warnings.size(), std::size_t(2));
        QCOMPARE(p.warnings[0].id, ParamId::Rob);
        QCOMPARE(p.warnings[0].kind, ParameterWarning::Kind::OffGrid);
        QCOMPARE(p.warnings[0].value, 80.0);
        QCOMPARE(p.warnings[0].usedValue, 64.0);
        QVERIFY2(QString::fromStdString(p.warnings[0].message)
                     .contains("ROB 80 entries is not a value the database holds; predicted at "
                               "64 entries"),
                 p.warnings[0].message.c_str());
        QCOMPARE(p.warnings[1].id, ParamId::CommitWidth);
        QVERIFY(p.baselineWarnings.empty());
    }

    // The sweep view's data: every grid value of one parameter, every program, each equal to a
    // prediction of that configuration alone; the current value marked; the geometric mean.
    void sweepPredictsEveryGridValue() {
        const auto model = ExplorerModel::open(database());
        CoreConfig config = onTinyGrid();
        config.set(ParamId::Rob, 100); // off the grid: snapped first
        const ParameterSweep sweep = ParameterSweep::compute(*model, config, ParamId::Rob);
        const std::vector<double>& grid = model->grid().values(ParamId::Rob);
        QVERIFY(grid.size() >= 2);
        QVERIFY(sweep.values == grid);
        QCOMPARE(sweep.values[sweep.current], model->snap(config).value(ParamId::Rob));
        QCOMPARE(sweep.programs, model->programs());
        QCOMPARE(sweep.cpi.size(), grid.size());
        for (std::size_t v = 0; v < grid.size(); ++v) {
            CoreConfig at = model->snap(config);
            at.set(ParamId::Rob, grid[v]);
            const std::vector<double> expected = model->programCpis(at);
            QCOMPARE(sweep.cpi[v].size(), expected.size());
            double logSum = 0;
            for (std::size_t p = 0; p < expected.size(); ++p) {
                QVERIFY(close(sweep.cpi[v][p], expected[p]));
                logSum += std::log(expected[p]);
            }
            QVERIFY(close(sweep.geometricMeanCpi[v], std::exp(logSum / double(expected.size()))));
        }
    }

    // One program's CPIs, evaluating only its regions, are exactly the batch's column.
    void oneProgramsCpisEqualTheBatchColumn() {
        const auto model = ExplorerModel::open(database());
        std::vector<CoreConfig> configs{onTinyGrid()};
        for (const double rob : model->grid().values(ParamId::Rob)) {
            CoreConfig c = onTinyGrid();
            c.set(ParamId::Rob, rob);
            configs.push_back(c);
        }
        const auto all = model->programCpis(configs);
        for (std::size_t p = 0; p < model->programs().size(); ++p) {
            const std::vector<double> one = model->programCpiAt(p, configs);
            QCOMPARE(one.size(), configs.size());
            for (std::size_t c = 0; c < configs.size(); ++c)
                QCOMPARE(one[c], all[c][p]);
        }
        QVERIFY_THROWS_EXCEPTION(std::out_of_range,
                                 model->programCpiAt(model->programs().size(), configs));
    }

    // The tornado chart's data: one grid step down and up of every parameter with a choice,
    // each equal to a direct prediction, sorted by the larger change; grid ends have no step;
    // one program or the geometric mean; an unknown program is refused.
    void sensitivityRankingStepsEveryParameter() {
        const auto model = ExplorerModel::open(database());
        const CoreConfig config = onTinyGrid();
        for (const std::string& program : {std::string(), std::string("beta")}) {
            const auto ranking = SensitivityRanking::rank(*model, config, program);
            std::size_t varying = 0;
            for (const ParameterSpec& spec : ParameterSpace::all())
                varying += model->grid().values(spec.id).size() >= 2;
            QCOMPARE(ranking.size(), varying);
            QVERIFY(varying >= 2);
            const auto cpiOf = [&](const CoreConfig& c) {
                const std::vector<double> cpis = model->programCpis(c);
                if (program.empty())
                    return ParameterSweep::geometricMean(cpis);
                const auto& names = model->programs();
                return cpis[std::find(names.begin(), names.end(), program) - names.begin()];
            };
            const double base = cpiOf(config);
            bool sawEnd = false;
            for (std::size_t k = 0; k < ranking.size(); ++k) {
                const ParameterSensitivity& s = ranking[k];
                QVERIFY(close(s.cpi, base));
                QCOMPARE(s.value, config.value(s.parameter));
                const std::vector<double>& values = model->grid().values(s.parameter);
                const auto at = std::find(values.begin(), values.end(), s.value) - values.begin();
                QCOMPARE(s.lowerValue.has_value(), at > 0);
                QCOMPARE(s.upperValue.has_value(), at + 1 < std::ptrdiff_t(values.size()));
                sawEnd = sawEnd || !s.lowerValue || !s.upperValue;
                for (const auto& [value, cpi] :
                     {std::pair{s.lowerValue, s.lowerCpi}, std::pair{s.upperValue, s.upperCpi}}) {
                    if (!value)
                        continue;
                    CoreConfig stepped = config;
                    stepped.set(s.parameter, *value);
                    QVERIFY(close(cpi, cpiOf(stepped)));
                }
                if (k > 0)
                    QVERIFY(ranking[k - 1].magnitude() >= s.magnitude());
            }
            QVERIFY(sawEnd); // the tiny grid's defaults sit at some grid ends
            QVERIFY(ranking.front().magnitude() > 0);
        }
        QVERIFY(errorOf([&] {
                    SensitivityRanking::rank(*model, config, "nobody");
                }).contains("no program 'nobody'"));
    }

    // The validation chart's data: every label on the grid with the live predictor's CPI beside
    // the simulated one, held-out programs marked, off-grid labels counted apart, and summaries
    // computed from the points.
    void validationPredictsEveryLabel() {
        const auto path = file("validation.sqlite");
        std::filesystem::copy_file(database(), path,
                                   std::filesystem::copy_options::overwrite_existing);
        CoreConfig on = onTinyGrid();
        CoreConfig off = on;
        off.set(ParamId::Rob, 80); // not on the tiny grid
        const auto written = testing::addTinyLabels(path, on, off);
        const auto model = ExplorerModel::open(path);
        const ModelValidation validation = ModelValidation::compute(*model);
        QCOMPARE(validation.points.size(), written.size());
        QCOMPARE(validation.offGrid, written.size());
        double sum = 0;
        std::size_t heldOut = 0;
        for (std::size_t k = 0; k < validation.points.size(); ++k) {
            const ModelValidation::Point& p = validation.points[k];
            QCOMPARE(p.program, written[k].first);
            QCOMPARE(p.simulatedCpi, written[k].second);
            QCOMPARE(p.source, std::string("preset:test"));
            const auto& regions = model->regionCpis(p.program, on);
            bool found = false;
            for (const auto& r : regions)
                if (r.index == p.regionIndex) {
                    QVERIFY(close(p.predictedCpi, r.targetCpi));
                    found = true;
                }
            QVERIFY(found);
            QCOMPARE(p.heldOut, p.program == "beta"); // the tiny model held beta out
            heldOut += p.heldOut;
            sum += std::abs(p.predictedCpi / p.simulatedCpi - 1.0);
        }
        QVERIFY(heldOut > 0 && heldOut < validation.points.size());
        const auto all = validation.summary();
        QCOMPARE(all.count, validation.points.size());
        QVERIFY(close(all.meanAbsError, sum / double(validation.points.size())));
        QCOMPARE(validation.summary(ModelValidation::Subset::HeldOut).count, heldOut);
        QCOMPARE(validation.summary(ModelValidation::Subset::Trained).count,
                 validation.points.size() - heldOut);
        QVERIFY(ModelValidation::compute(*ExplorerModel::open(database())).points.empty());
    }

    void warnsOutsideTheTrainingData() {
        const auto model = ExplorerModel::open(database());
        CoreConfig config = onTinyGrid();
        config.set(ParamId::Rob, 128); // on the database grid, but trained on 64 only
        const auto warnings = model->warnings(config);
        QCOMPARE(warnings.size(), std::size_t(1));
        QCOMPARE(warnings[0].kind, ParameterWarning::Kind::OutsideTraining);
        QVERIFY2(QString::fromStdString(warnings[0].message)
                     .contains("ROB 128 entries is outside what the model was trained on "
                               "(64–64 entries)"),
                 warnings[0].message.c_str());
        config.set(ParamId::Rob, 64);
        QVERIFY(model->warnings(config).empty());
    }

    void checkerClassifiesEveryCase() {
        ConfigChecker::TrainedValues trained;
        trained[index(ParamId::Rob)] = {32, 128, 64};
        trained[index(ParamId::BranchPredictor)] = {1};
        const ConfigChecker checker(ParameterGrid{}, trained); // the default grid
        QVERIFY(checker.trainedValues(ParamId::Rob) == std::vector<double>({32, 64, 128}));

        CoreConfig config;
        config.set(ParamId::Rob, 96); // on the default grid, between trained values
        config.set(ParamId::BranchPredictor, 0);
        auto warnings = checker.check(config);
        QCOMPARE(warnings.size(), std::size_t(2));
        QCOMPARE(warnings[0].kind, ParameterWarning::Kind::BetweenTrained);
        QVERIFY(QString::fromStdString(warnings[0].message).contains("(32, 64, 128)"));
        QCOMPARE(warnings[1].id, ParamId::BranchPredictor);
        QCOMPARE(warnings[1].kind, ParameterWarning::Kind::OutsideTraining);
        QVERIFY2(QString::fromStdString(warnings[1].message)
                     .contains("Branch predictor simple is outside what the model was trained "
                               "on (tage)"),
                 warnings[1].message.c_str());

        config.set(ParamId::Rob, 100); // off grid: predicted at 96, which is between trained
        warnings = checker.check(config);
        QCOMPARE(warnings.size(), std::size_t(3));
        QCOMPARE(warnings[0].kind, ParameterWarning::Kind::OffGrid);
        QCOMPARE(warnings[0].usedValue, 96.0);
        QCOMPARE(warnings[1].kind, ParameterWarning::Kind::BetweenTrained);
        QCOMPARE(warnings[1].value, 100.0);
        QCOMPARE(warnings[1].usedValue, 96.0);

        config.set(ParamId::Rob, 1024); // beyond the grid: predicted at 512, beyond training
        warnings = checker.check(config);
        QCOMPARE(warnings[0].usedValue, 512.0);
        QCOMPARE(warnings[1].kind, ParameterWarning::Kind::OutsideTraining);

        // Ties go to the smaller grid value (as the sliders do).
        config.set(ParamId::Rob, 80);
        QCOMPARE(checker.snap(config).rob(), 64);
    }

    void trainedValuesFromMetrics() {
        // Current training writes dataset.grid with choice names; older models list files.
        nlohmann::json metrics = {
            {"dataset", {{"grid", {{"rob", {512, 16, 64}}, {"bp", {"tage"}}, {"nonsense", {1}}}}}}};
        auto trained = ConfigChecker::trainedValuesFromMetrics(metrics);
        QVERIFY(trained[index(ParamId::Rob)] == std::vector<double>({16, 64, 512}));
        QVERIFY(trained[index(ParamId::BranchPredictor)] == std::vector<double>({1}));
        QVERIFY(trained[index(ParamId::LoadQueue)].empty());

        metrics = {{"dataset", {{"files", {{{"grid", {{"lq", {8, "bad", 16}}}}}}}}}};
        trained = ConfigChecker::trainedValuesFromMetrics(metrics);
        QVERIFY(trained[index(ParamId::LoadQueue)] == std::vector<double>({8, 16}));

        for (const nlohmann::json& junk :
             {nlohmann::json(), nlohmann::json::array(), nlohmann::json{{"dataset", 3}},
              nlohmann::json{{"dataset", {{"grid", "x"}}}}})
            for (const auto& values : ConfigChecker::trainedValuesFromMetrics(junk))
                QVERIFY(values.empty());
    }

    void accuracyFromMetrics() {
        const ModelAccuracy accuracy = ModelAccuracy::fromMetrics(testing::tinyModelMetrics());
        QVERIFY(accuracy.known());
        QCOMPARE(accuracy.unseenRegions->meanRelError, 0.0398);
        QCOMPARE(accuracy.unseenRegions->samples, std::uint64_t(640));
        QCOMPARE(accuracy.unseenPrograms->fracOver10Pct, 0.5);
        QVERIFY(!accuracy.labels.has_value());
        QCOMPARE(accuracy.summary(),
                 std::string("model error 4.0 % on unseen regions, 13.5 % on held-out programs"));
        QCOMPARE(accuracy.programSummary("alpha"), std::string("alpha: 7.8 % (unseen regions)"));
        QCOMPARE(accuracy.programSummary("beta"), std::string("beta: 13.5 %, never trained on"));
        QVERIFY(accuracy.isHeldOut("beta"));
        QVERIFY(!accuracy.isHeldOut("alpha"));
        QVERIFY(accuracy.isHeldOut("gamma")); // not among the training programs
        QCOMPARE(accuracy.programSummary("gamma"), std::string("gamma: never trained on"));

        // Older metrics: hold_out lists, labels recorded by evaluate --record.
        const nlohmann::json older = {
            {"accuracy",
             {{"test", {{"mean_rel_error", 0.05}}}, {"labels", {{"mean_rel_error", 0.061}}}}},
            {"dataset", {{"hold_out", {"bzip2"}}}}};
        const ModelAccuracy old = ModelAccuracy::fromMetrics(older);
        QCOMPARE(old.summary(),
                 std::string("model error 5.0 % on unseen regions, 6.1 % on this database's "
                             "labels"));
        QVERIFY(old.isHeldOut("bzip2"));
        QVERIFY(!old.isHeldOut("gcc")); // no training list: only the hold-out list says

        // Programs no step saw (evaluate --record-never-seen): in the summary with their count,
        // and per preset beside the min-of-bounds CPI's error; random labels are not a preset,
        // and a preset without a baseline or with a malformed figure is shown as far as known.
        nlohmann::json withNeverSeen = older;
        withNeverSeen["accuracy"]["never_seen"] = {
            {"mean_rel_error", 0.0466},
            {"samples", 396},
            {"per_program",
             {{"luajit", {{"mean_rel_error", 0.03}}}, {"x265", {{"mean_rel_error", 0.06}}}}},
            {"per_source",
             {{"random", {{"mean_rel_error", 0.05}}},
              {"preset:big",
               {{"mean_rel_error", 0.0418},
                {"baselines", {{"min_of_bounds", {{"mean_rel_error", 0.0437}}}}}}},
              {"preset:n1-like", {{"mean_rel_error", 0.053}}},
              {"preset:little", {{"mean_rel_error", "broken"}}}}}};
        const ModelAccuracy seen = ModelAccuracy::fromMetrics(withNeverSeen);
        QCOMPARE(seen.summary(),
                 std::string("model error 5.0 % on unseen regions, 4.7 % on 2 never-seen "
                             "programs, 6.1 % on this database's labels"));
        QCOMPARE(seen.neverSeenPresetLines(),
                 (std::vector<std::string>{"big: 4.2 % (min of bounds 4.4 %)", "n1-like: 5.3 %"}));
        QCOMPARE(seen.neverSeen->samples, std::uint64_t(396));
        QVERIFY(old.neverSeenPresetLines().empty());

        for (const nlohmann::json& junk :
             {nlohmann::json(), nlohmann::json{{"accuracy", {{"test", {{"mean_rel_error", "x"}}}}}},
              nlohmann::json{{"accuracy", 1}}}) {
            const ModelAccuracy none = ModelAccuracy::fromMetrics(junk);
            QVERIFY(!none.known());
            QCOMPARE(none.summary(), std::string("model accuracy not recorded"));
        }
    }

    void cancellingStopsTheOpen() {
        ErrorKind kind = ErrorKind::Usage;
        const QString error = errorOf(
            [&] {
                JobControl job;
                job = JobControl([&](const JobProgress&) { job.cancel(); });
                ExplorerModel::open(database(), {}, job);
            },
            &kind);
        QVERIFY2(error.contains("cancelled"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::Cancelled);
    }

    void refusesWhatItCannotUse() {
        ErrorKind kind = ErrorKind::Usage;
        QString error = errorOf([&] { ExplorerModel::open(file("missing.sqlite")); }, &kind);
        QVERIFY2(error.contains("missing.sqlite"), qPrintable(error));

        const auto text = file("notes.sqlite");
        std::ofstream(text) << "these are not the droids you are looking for\n";
        error = errorOf([&] { ExplorerModel::open(text); }, &kind);
        QVERIFY2(error.contains("notes.sqlite") && !error.isEmpty(), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);

        const auto noModel = file("nomodel/db.sqlite");
        std::filesystem::create_directories(noModel.parent_path());
        testing::buildTinyExplorerDatabase(noModel, false);
        error = errorOf([&] { ExplorerModel::open(noModel); }, &kind);
        QVERIFY2(error.contains("has no trained CPI model"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
        error = errorOf([&] { ExplorerModel::open(database(), "nonexistent"); });
        QVERIFY2(error.contains("no CPI model called 'nonexistent'"), qPrintable(error));
    }

    void databaseIsReadableUnderTheLock() {
        const auto model = ExplorerModel::open(database());
        const std::size_t regions =
            model->withDatabase([](FeatureDatabase& db) { return db.regions().size(); });
        QCOMPARE(regions, std::size_t(5));
        QVERIFY(model->withDatabase([](FeatureDatabase& db) { return db.readOnly(); }));
    }
};

QTEST_GUILESS_MAIN(ExplorerModelTest)
#include "ExplorerModelTest.moc"
