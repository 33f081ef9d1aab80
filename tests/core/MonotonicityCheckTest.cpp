// MonotonicityCheck: one-parameter sweeps of every region at random base configurations, on the
// shipped database — the counts, determinism, and each reported violation against the
// predictor — and known answers from hand-set models that are monotone or not by construction.
#include "explore/MonotonicityCheck.h"

#include "../support/OneParameterModel.h"
#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

using namespace concorde;

namespace {

const char* const kShipped = CONCORDE_SOURCE_DIR "/data/default.sqlite";

/// The result without its timing, which is all that may differ between two runs.
nlohmann::json withoutTime(const MonotonicityCheck::Result& result) {
    nlohmann::json json = result.toJson();
    json.erase("seconds");
    return json;
}

const MonotonicityCheck::ParameterTally& tallyOf(const MonotonicityCheck::Result& result,
                                                 ParamId id) {
    const auto it = std::find_if(
        result.parameters.begin(), result.parameters.end(),
        [&](const MonotonicityCheck::ParameterTally& t) { return t.parameter.id == id; });
    if (it == result.parameters.end())
        throw std::logic_error("parameter not checked");
    return *it;
}

} // namespace

class MonotonicityCheckTest : public QObject {
    Q_OBJECT
    FeatureDatabase db_ = FeatureDatabase::openReadOnly(kShipped);
    std::unique_ptr<DatabasePredictor> shipped_;

    std::unique_ptr<DatabasePredictor> predictorWith(CpiModel model,
                                                     const std::vector<std::string>& programs) {
        return std::make_unique<DatabasePredictor>(db_, std::move(model), programs);
    }

private slots:
    void initTestCase() {
        auto model = db_.readModel();
        QVERIFY2(model, "data/default.sqlite has no model");
        shipped_ = predictorWith(std::move(*model), {});
    }

    // Every numeric parameter is checked, bp_miss_pct the other way round, bp not at all.
    void checksEveryNumericParameter() {
        const auto checked = MonotonicityCheck::checkedParameters();
        QCOMPARE(checked.size(), kParamCount - 1);
        for (const auto& p : checked) {
            QVERIFY(p.id != ParamId::BranchPredictor);
            QCOMPARE(p.shrinksToGrow, p.id == ParamId::BpMissPct);
        }
    }

    // Base configurations lie on the grid, depend only on (seed, draw), and vary.
    void baseConfigurationsAreSeededDrawsOnTheGrid() {
        const ParameterGrid& grid = shipped_->grid();
        const auto five = MonotonicityCheck::baseConfigs(grid, 7, 5);
        const auto three = MonotonicityCheck::baseConfigs(grid, 7, 3);
        QCOMPARE(five.size(), std::size_t(5));
        QVERIFY(std::equal(three.begin(), three.end(), five.begin()));
        QVERIFY(MonotonicityCheck::baseConfigs(grid, 8, 5) != five);
        QVERIFY(five[0] != five[1]);
        for (const CoreConfig& config : five)
            for (const ParameterSpec& spec : ParameterSpace::all())
                QVERIFY(grid.find(spec.id, config.value(spec.id)));
    }

    // The shipped model at a few bases: every region swept over every checked parameter's grid
    // at every base, and the same numbers twice for a seed.
    void shippedDatabaseSweepsEveryRegionDeterministically() {
        MonotonicityCheck::Options options;
        options.bases = 3;
        options.seed = 11;
        options.tolerance = 0.0;
        const auto result = MonotonicityCheck::run(*shipped_, options);

        std::size_t gridPoints = 0;
        for (const auto& p : MonotonicityCheck::checkedParameters())
            gridPoints += shipped_->grid().size(p.id);
        const std::size_t regions = shipped_->regions().size();
        QVERIFY(regions >= 96); // the shipped database's 122 (96 before issue 17's rebuild)
        QCOMPARE(result.regions, regions);
        QCOMPARE(result.programs, shipped_->programs().size());
        QCOMPARE(result.evaluations, regions * options.bases * gridPoints);
        QCOMPARE(result.sweeps, regions * options.bases * (kParamCount - 1));
        for (const auto& t : result.parameters) {
            QCOMPARE(t.sweeps, regions * options.bases);
            QVERIFY(t.violations <= t.sweeps * (shipped_->grid().size(t.parameter.id) - 1));
            QVERIFY(t.maxRise >= 0 && t.maxProgramRise >= 0);
        }

        const auto again = MonotonicityCheck::run(*shipped_, options);
        QCOMPARE(withoutTime(again), withoutTime(result));
        options.seed = 12;
        QVERIFY(withoutTime(MonotonicityCheck::run(*shipped_, options)) != withoutTime(result));
    }

    // Issue 17 item 5, on the shipped model: over one-parameter sweeps of every region at 200
    // random base configurations, growing a resource (or lowering bp_miss_pct) never raises a
    // region's or a program's predicted CPI by more than 0.5 %. The shipped model is a composed
    // network, monotone by construction (docs/design.md section 8); this verifies it end to end.
    void shippedModelIsMonotone() {
        MonotonicityCheck::Options options;
        options.bases = 200;
        options.tolerance = 0.005;
        const auto result = MonotonicityCheck::run(*shipped_, options);
        QCOMPARE(result.regions, shipped_->regions().size());
        for (const auto& t : result.parameters)
            QVERIFY2(t.violations == 0 && t.programViolations == 0,
                     qPrintable(
                         QString("%1: %2 region and %3 program steps rise, up to %4 %")
                             .arg(QString::fromStdString(ParameterSpace::spec(t.parameter.id).key))
                             .arg(t.violations)
                             .arg(t.programViolations)
                             .arg(100 * t.maxRise)));
        QVERIFY(result.monotone());
    }

    // Each reported violation is what the predictor says: one grid step in the growing
    // direction, above the tolerance, at the base and region named. A hand-set model whose CPI
    // rises with ROB, over the shipped database's regions, fills the worst lists.
    void reportedViolationsAreWhatThePredictorSays() {
        const auto rising =
            predictorWith(testing::oneParameterModel(ParamId::Rob, 1.0f, "rising"), {});
        MonotonicityCheck::Options options;
        options.bases = 3;
        options.seed = 11;
        options.tolerance = 0.0;
        const auto result = MonotonicityCheck::run(*rising, options);
        QCOMPARE(result.worst.size(), std::size_t(10));
        QVERIFY(!result.worstPrograms.empty());
        const auto bases = MonotonicityCheck::baseConfigs(rising->grid(), 11, 3);
        for (std::size_t i = 0; i < result.worst.size(); ++i) {
            const auto& v = result.worst[i];
            QVERIFY(v.rise() > 0);
            QVERIFY(i == 0 || result.worst[i - 1].rise() >= v.rise());
            QVERIFY(v.region);
            QVERIFY(v.base < 3);
            QVERIFY(v.config == bases[v.base]);
            QVERIFY(v.rise() <= tallyOf(result, v.parameter).maxRise + 1e-12);
            const auto& values = rising->grid().values(v.parameter);
            const auto from = *rising->grid().find(v.parameter, v.from);
            const auto to = *rising->grid().find(v.parameter, v.to);
            QCOMPARE(to, from + 1);
            QVERIFY(to < values.size());
            // The region named, at the base with the parameter at each end of the step.
            const auto& regionsOf = rising->regionsOf(v.program);
            const auto region = *std::find_if(regionsOf.begin(), regionsOf.end(), [&](auto r) {
                return rising->regions()[r].regionIndex == *v.region;
            });
            CoreConfig config = v.config;
            config.set(v.parameter, v.from);
            QVERIFY(std::abs(rising->regionCpi(region, config) - v.fromCpi) <= 1e-5 * v.fromCpi);
            config.set(v.parameter, v.to);
            QVERIFY(std::abs(rising->regionCpi(region, config) - v.toCpi) <= 1e-5 * v.toCpi);
        }
        for (const auto& v : result.worstPrograms) {
            QVERIFY(!v.region);
            CoreConfig config = v.config;
            config.set(v.parameter, v.to);
            QVERIFY(std::abs(rising->programCpi(v.program, config) - v.toCpi) <= 1e-5 * v.toCpi);
        }
    }

    // A larger tolerance can only find fewer violations.
    void toleranceOnlyRemovesViolations() {
        MonotonicityCheck::Options options;
        options.bases = 2;
        options.programs = {"gzip", "python"};
        options.tolerance = 0.0;
        const auto strict = MonotonicityCheck::run(*shipped_, options);
        QCOMPARE(strict.regions,
                 shipped_->regionsOf("gzip").size() + shipped_->regionsOf("python").size());
        QCOMPARE(strict.programs, std::size_t(2));
        options.tolerance = 0.005;
        const auto loose = MonotonicityCheck::run(*shipped_, options);
        QVERIFY(loose.violations <= strict.violations);
        for (std::size_t p = 0; p < loose.parameters.size(); ++p) {
            QVERIFY(loose.parameters[p].violations <= strict.parameters[p].violations);
            QCOMPARE(loose.parameters[p].maxRise, strict.parameters[p].maxRise);
        }
        for (const auto& v : loose.worst)
            QVERIFY(v.rise() > 0.005);
    }

    // Known answers: CPI falling as ROB grows, or rising with the miss rate, is monotone;
    // CPI rising with ROB, or falling with the miss rate, violates on that parameter alone, at
    // every step of every sweep, for regions and the program alike.
    void handSetModelsGiveKnownAnswers() {
        const struct {
            ParamId parameter;
            float weight;
            bool monotone;
        } cases[] = {
            {ParamId::Rob, -1.0f, true},
            {ParamId::Rob, 1.0f, false},
            {ParamId::BpMissPct, 1.0f, true},
            {ParamId::BpMissPct, -1.0f, false},
        };
        for (const auto& c : cases) {
            const auto predictor =
                predictorWith(testing::oneParameterModel(c.parameter, c.weight, "hand"), {"gzip"});
            MonotonicityCheck::Options options;
            options.bases = 5;
            const auto result = MonotonicityCheck::run(*predictor, options);
            const std::size_t regions = predictor->regions().size();
            const std::size_t steps = predictor->grid().size(c.parameter) - 1;
            QCOMPARE(result.monotone(), c.monotone);
            for (const auto& t : result.parameters) {
                const bool violating = !c.monotone && t.parameter.id == c.parameter;
                QCOMPARE(t.violations, violating ? regions * options.bases * steps : 0);
                QCOMPARE(t.sweepsOverTolerance, violating ? regions * options.bases : 0);
                QCOMPARE(t.programViolations, violating ? options.bases * steps : 0);
                if (!violating) {
                    QCOMPARE(t.maxRise, 0.0);
                    QCOMPARE(t.maxProgramRise, 0.0);
                }
            }
            QCOMPARE(result.worst.size(), c.monotone ? 0 : std::size_t(10));
            QCOMPARE(result.worstPrograms.size(), c.monotone ? 0 : std::size_t(10));
            for (const auto& v : result.worst) {
                QVERIFY(v.parameter == c.parameter);
                QCOMPARE(v.program, std::string("gzip"));
                QVERIFY(v.rise() > options.tolerance);
            }
        }
    }

    void refusesBadOptions() {
        MonotonicityCheck::Options options;
        options.bases = 0;
        const auto kindOf = [&](const MonotonicityCheck::Options& o) {
            try {
                MonotonicityCheck::run(*shipped_, o);
            } catch (const ConcordeError& e) {
                return e.kind();
            }
            return ErrorKind::Runtime;
        };
        QCOMPARE(kindOf(options), ErrorKind::Usage);
        options.bases = 1;
        options.tolerance = -0.01;
        QCOMPARE(kindOf(options), ErrorKind::Usage);
        options.tolerance = 0.005;
        options.programs = {"no-such-program"};
        QCOMPARE(kindOf(options), ErrorKind::Usage);
    }

    // A cancelled job stops with jobCancelled.
    void cancels() {
        JobControl job;
        job.cancel();
        MonotonicityCheck::Options options;
        options.bases = 1;
        try {
            MonotonicityCheck::run(*shipped_, options, job);
            QFAIL("not cancelled");
        } catch (const ConcordeError& e) {
            QCOMPARE(e.kind(), ErrorKind::Cancelled);
        }
    }
};

QTEST_GUILESS_MAIN(MonotonicityCheckTest)
#include "MonotonicityCheckTest.moc"
