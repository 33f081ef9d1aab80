// Shapley attribution (docs/design.md §9): player sets and grouping files, exact and sampled
// Shapley values against closed forms, efficiency, symmetry and null players, the paper's cache ×
// load queue interaction, ordered ablation, per-region and per-program aggregation, determinism,
// cancellation, progress, CSV and JSON output.
#include "../support/ErrorCapture.h"
#include "attribution/AttributionCsvWriter.h"
#include "attribution/CallableValueFunction.h"
#include "attribution/OrderedAblation.h"
#include "attribution/PlayerSet.h"
#include "attribution/ProgramValueFunction.h"
#include "attribution/ShapleyAttributor.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

using namespace concorde;

namespace {

using Mode = ShapleyAttributor::Mode;

/// The message of the ConcordeError `action` throws, or empty if it throws none.
using concorde::testing::errorOf;

CoreConfig configFrom(const std::string& assignments) {
    CoreConfig config;
    std::istringstream in(assignments);
    std::string assignment;
    while (in >> assignment)
        config.applyAssignment(assignment);
    return config;
}

/// A little core and a big one that differ in every one of the twenty parameters.
CoreConfig littleCore() {
    return configFrom("rob=16 commit_width=2 lq=8 sq=8 alu_issue=2 fp_issue=1 ls_issue=1 "
                      "ls_pipes=1 load_pipes=0 fetch_width=2 decode_width=2 rename_width=2 "
                      "fetch_buffers=2 icache_fills=1 bp=tage bp_miss_pct=5 l1d_kb=32 l1i_kb=32 "
                      "l2_kb=512 pf_degree=0");
}
CoreConfig bigCore() {
    return configFrom("rob=512 commit_width=12 lq=128 sq=128 alu_issue=8 fp_issue=8 ls_issue=8 "
                      "ls_pipes=4 load_pipes=4 fetch_width=16 decode_width=16 rename_width=16 "
                      "fetch_buffers=32 icache_fills=32 bp=simple bp_miss_pct=0 l1d_kb=128 "
                      "l1i_kb=128 l2_kb=2048 pf_degree=2");
}
/// `base` with the listed parameters taken from `other`.
CoreConfig with(CoreConfig base, const CoreConfig& other, std::initializer_list<ParamId> ids) {
    for (ParamId id : ids)
        base.set(id, other.value(id));
    return base;
}

/// A unanimity game: CPI = base + Σ_T c_T · [every parameter of T is at its target value].
/// Any set function is such a sum (Harsanyi dividends), and its Shapley values are known in
/// closed form: each term's coefficient is split equally among the players it involves.
class UnanimityValue : public ValueFunction {
public:
    struct Term {
        std::vector<ParamId> params;
        double coefficient;
    };

    UnanimityValue(CoreConfig target, double base, std::vector<Term> terms)
        : target_(target), base_(base), terms_(std::move(terms)) {}

    void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const override {
        calls_ += 1;
        for (std::size_t i = 0; i < configs.size(); ++i) {
            double cpi = base_;
            for (const Term& term : terms_) {
                bool all = true;
                for (ParamId id : term.params)
                    all = all && configs[i].value(id) == target_.value(id);
                if (all)
                    cpi += term.coefficient;
            }
            out[i] = cpi;
        }
        evaluations_ += configs.size();
    }

    /// Closed-form Shapley value of each player of `players`: c_T / (number of players that
    /// hold a parameter of T), for every term whose parameters differ from the baseline.
    std::vector<double> shapley(const PlayerSet& players, const CoreConfig& baseline) const {
        std::vector<double> phi(players.size(), 0.0);
        for (const Term& term : terms_) {
            std::set<std::size_t> involved;
            for (ParamId id : term.params)
                if (baseline.value(id) != target_.value(id))
                    involved.insert(players.playerOf(id));
            if (involved.empty())
                continue; // a constant: part of both CPIs, attributed to nobody
            for (std::size_t p : involved)
                phi[p] += term.coefficient / static_cast<double>(involved.size());
        }
        return phi;
    }

    std::size_t evaluations() const { return evaluations_; }
    std::size_t calls() const { return calls_; }

private:
    CoreConfig target_;
    double base_;
    std::vector<Term> terms_;
    mutable std::atomic<std::size_t> evaluations_{0};
    mutable std::atomic<std::size_t> calls_{0};
};

/// Additive terms for every parameter, `pairs` pairwise and `triples` three-way interactions,
/// with seeded random coefficients.
std::shared_ptr<UnanimityValue> randomGame(unsigned seed, std::size_t pairs, std::size_t triples,
                                           double base = 2.0) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coefficient(-0.3, 0.1);
    std::uniform_int_distribution<std::size_t> param(0, kParamCount - 1);
    std::vector<UnanimityValue::Term> terms;
    for (std::size_t p = 0; p < kParamCount; ++p)
        terms.push_back({{static_cast<ParamId>(p)}, coefficient(rng)});
    const auto distinct = [&](std::size_t count) {
        std::set<std::size_t> chosen;
        while (chosen.size() < count)
            chosen.insert(param(rng));
        std::vector<ParamId> ids;
        for (std::size_t p : chosen)
            ids.push_back(static_cast<ParamId>(p));
        return ids;
    };
    for (std::size_t i = 0; i < pairs; ++i)
        terms.push_back({distinct(2), coefficient(rng)});
    for (std::size_t i = 0; i < triples; ++i)
        terms.push_back({distinct(3), coefficient(rng)});
    return std::make_shared<UnanimityValue>(bigCore(), base, std::move(terms));
}

double relativeGap(double a, double b) {
    return std::abs(a - b) / std::max({1.0, std::abs(a), std::abs(b)});
}

/// The paper's interaction, multiplicative form: memory stall = misses × latency / MLP, where a
/// big L1d cuts misses 5× and a big load queue raises memory-level parallelism 4×. A big LQ only
/// helps while the cache misses, so the two parameters interact.
double cacheTimesQueue(const CoreConfig& c) {
    const double missesPerInstruction = c.l1dKb() >= 128 ? 0.01 : 0.05;
    const double mlp = c.loadQueue() >= 64 ? 8.0 : 2.0;
    return 0.5 + missesPerInstruction * 200.0 / mlp;
}

ProgramValue programOf(std::string name, std::vector<std::shared_ptr<UnanimityValue>> regions,
                       std::vector<std::uint64_t> instructions) {
    ProgramValue program{std::move(name), {}};
    for (std::size_t r = 0; r < regions.size(); ++r)
        program.regions.push_back({std::to_string(r), instructions[r], regions[r]});
    return program;
}

} // namespace

class AttributionTest : public QObject {
    Q_OBJECT

private slots:
    // --- Players -----------------------------------------------------------------------------

    void individualAndDefaultPlayers() {
        const PlayerSet individual = PlayerSet::individual();
        QCOMPARE(individual.size(), kParamCount);
        for (std::size_t p = 0; p < kParamCount; ++p) {
            QCOMPARE(individual[p].name, ParameterSpace::all()[p].key);
            QCOMPARE(individual.playerOf(static_cast<ParamId>(p)), p);
        }
        QVERIFY(individual == PlayerSet());

        const PlayerSet groups = PlayerSet::defaultGroups();
        QCOMPARE(groups.size(), std::size_t(10));
        // Canonical order: by first parameter in the docs/design.md §3 table.
        QCOMPARE(QString::fromStdString(groups.nameList()),
                 QStringLiteral("window, commit, ldst_queues, issue, ldst_pipes, frontend_width, "
                                "fetch, branch_prediction, caches, prefetcher"));
        const std::size_t caches = groups.require("caches");
        QCOMPARE(groups[caches].params,
                 (std::vector<ParamId>{ParamId::L1dKb, ParamId::L1iKb, ParamId::L2Kb}));
        QCOMPARE(groups.playerOf(ParamId::L2Kb), caches);
        QCOMPARE(groups.playerOf(ParamId::DecodeWidth), groups.require("frontend_width"));
        QVERIFY(!groups.find("rob"));
        std::size_t covered = 0;
        for (const Player& player : groups.players())
            covered += player.params.size();
        QCOMPARE(covered, kParamCount);
        // JSON round trip.
        QVERIFY(PlayerSet::fromJson(groups.toJson()) == groups);
        QVERIFY(PlayerSet::fromJson(individual.toJson()) == individual);
    }

    void groupingFileWithSingletons() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("groups.json").toStdString();
        std::ofstream(path) << R"({"groups": {"queues": ["sq", "lq"],
                                              "caches": ["l1d_kb", "l1i_kb", "l2_kb"]}})";
        const PlayerSet set = PlayerSet::load(path);
        // 2 groups + the 15 parameters in no group as singletons.
        QCOMPARE(set.size(), std::size_t(17));
        QCOMPARE(set[set.require("queues")].params,
                 (std::vector<ParamId>{ParamId::LoadQueue, ParamId::StoreQueue}));
        QCOMPARE(set[set.playerOf(ParamId::Rob)].name, std::string("rob"));
        QCOMPARE(set.playerOf(ParamId::StoreQueue), set.require("queues"));
        // "queues" sits where lq (its first parameter) sits in the table: after commit_width.
        QCOMPARE(set[2].name, std::string("queues"));
        QCOMPARE(set[3].name, std::string("alu_issue"));

        // Strict mode wants every parameter.
        ErrorKind kind = ErrorKind::Usage;
        const QString strict =
            errorOf([&] { PlayerSet::load(path, PlayerSet::Ungrouped::Error); }, &kind);
        QVERIFY2(strict.contains("missing: rob, commit_width, alu_issue"), qPrintable(strict));
        QVERIFY(strict.contains(QString::fromStdString(path)));
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    void groupingErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown parameter") << R"({"groups": {"caches": ["l1d_kb", "l3_kb"]}})"
                                           << "unknown parameter 'l3_kb'";
        QTest::newRow("in two groups") << R"({"groups": {"a": ["rob", "lq"], "b": ["lq"]}})"
                                       << "parameter 'lq' is in group 'a' and in group 'b'";
        QTest::newRow("twice in one group") << R"({"groups": {"a": ["rob", "rob"]}})"
                                            << "group 'a' lists parameter 'rob' twice";
        QTest::newRow("empty group") << R"({"groups": {"a": []}})"
                                     << "group 'a' lists no parameter";
        QTest::newRow("empty name") << R"({"groups": {"": ["rob"]}})"
                                    << "empty name";
        QTest::newRow("no groups key") << R"({"caches": ["l1d_kb"]})"
                                       << "expected a JSON object";
        QTest::newRow("extra key") << R"({"groups": {"a": ["rob"]}, "group": {}})"
                                   << "unknown key 'group'";
        QTest::newRow("groups not an object") << R"({"groups": ["rob"]})"
                                              << "must be an object";
        QTest::newRow("members not an array") << R"({"groups": {"a": "rob"}})"
                                              << "group 'a' must be an array";
        QTest::newRow("member not a string") << R"({"groups": {"a": [3]}})"
                                             << "holds 3";
        QTest::newRow("name clashes with a singleton") << R"({"groups": {"rob": ["lq"]}})"
                                                       << "player name 'rob' is used twice";
    }

    void groupingErrors() {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        ErrorKind kind = ErrorKind::Usage;
        const QString message = errorOf(
            [&] {
                PlayerSet::fromJson(nlohmann::json::parse(json.toStdString()),
                                    PlayerSet::Ungrouped::Singletons, "groups.json");
            },
            &kind);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(message.startsWith("groups.json: "));
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    void groupingFileErrors() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("broken.json").toStdString();
        std::ofstream(path) << R"({"groups": {"a": ["rob",]}})";
        QVERIFY(errorOf([&] { PlayerSet::load(path); }).contains("is not valid JSON"));
        QVERIFY(errorOf([&] {
                    PlayerSet::load(dir.filePath("none.json").toStdString());
                }).contains("cannot open player groups file"));
        QVERIFY(errorOf([] {
                    PlayerSet::individual().require("caches");
                }).contains("unknown player 'caches'; players: rob, commit_width"));
    }

    // --- Exact mode --------------------------------------------------------------------------

    void exactMatchesClosedFormAndIsEfficient() {
        const auto game = randomGame(7, 40, 15);
        const PlayerSet players = PlayerSet::defaultGroups();
        const ShapleyAttributor attributor(players, littleCore(), bigCore());
        QCOMPARE(attributor.method(), AttributionMethod::Exact);
        QCOMPARE(attributor.activePlayers().size(), std::size_t(10));
        const Attribution a = attributor.attribute(*game);
        QCOMPARE(a.method, AttributionMethod::Exact);
        QCOMPARE(a.evaluations, std::uint64_t(1024));
        QCOMPARE(game->evaluations(), std::size_t(1024)); // every coalition exactly once
        QCOMPARE(a.baselineCpi, (*game)(littleCore()));
        QCOMPARE(a.targetCpi, (*game)(bigCore()));
        const std::vector<double> expected = game->shapley(players, littleCore());
        for (std::size_t p = 0; p < players.size(); ++p) {
            QCOMPARE(a.players[p].player, players[p].name);
            QVERIFY(a.players[p].active);
            QCOMPARE(a.players[p].standardError, 0.0);
            QVERIFY2(std::abs(a.players[p].value - expected[p]) <= 1e-12,
                     qPrintable(QString("%1: %2 vs %3")
                                    .arg(QString::fromStdString(players[p].name))
                                    .arg(a.players[p].value, 0, 'g', 17)
                                    .arg(expected[p], 0, 'g', 17)));
        }
        // Efficiency: exact up to the rounding of the final doubles.
        QVERIFY2(relativeGap(a.sum(), a.delta()) <= 1e-12,
                 qPrintable(QString::number(a.sum() - a.delta(), 'g', 17)));
        QVERIFY(std::abs(a.delta()) > 0.1); // a real CPI change is being split
    }

    void exactWithManyPlayersBuildsCoalitionsPerBatch() {
        // 16 active players and Mode::Exact: 65,536 coalitions, built batch by batch.
        const auto game = randomGame(11, 30, 10);
        const CoreConfig baseline =
            with(littleCore(), bigCore(),
                 {ParamId::Rob, ParamId::CommitWidth, ParamId::LoadQueue, ParamId::StoreQueue});
        ShapleyAttributor::Options options;
        options.mode = Mode::Exact;
        const ShapleyAttributor attributor(PlayerSet::individual(), baseline, bigCore(), options);
        QCOMPARE(attributor.activePlayers().size(), std::size_t(16));
        QCOMPARE(attributor.method(), AttributionMethod::Exact);
        const Attribution a = attributor.attribute(*game);
        QCOMPARE(a.evaluations, std::uint64_t(65536));
        const std::vector<double> expected = game->shapley(PlayerSet::individual(), baseline);
        for (std::size_t p = 0; p < kParamCount; ++p)
            QVERIFY(std::abs(a.players[p].value - expected[p]) <= 1e-12);
        QVERIFY(relativeGap(a.sum(), a.delta()) <= 1e-12);
        // The four equal parameters are inactive and exactly 0.
        QCOMPARE(a.at("rob").value, 0.0);
        QVERIFY(!a.at("rob").active);
        QVERIFY(a.at("lq").value == 0.0 && a.at("sq").value == 0.0);
    }

    void symmetryAndNullPlayer() {
        // rob and lq play identical roles; sq, alu_issue and fp_issue change but are ignored.
        const CallableValueFunction value([](const CoreConfig& c) {
            const double a = c.rob() == 512 ? 1.0 : 0.0;
            const double b = c.loadQueue() == 128 ? 1.0 : 0.0;
            const double l2 = c.l2Kb() == 2048 ? 1.0 : 0.0;
            return 3.0 - 0.3 * a - 0.3 * b - 0.5 * a * b - 0.2 * l2 + 0.1 * a * l2 + 0.1 * b * l2;
        });
        const CoreConfig target = with(littleCore(), bigCore(),
                                       {ParamId::Rob, ParamId::LoadQueue, ParamId::L2Kb,
                                        ParamId::StoreQueue, ParamId::AluIssue, ParamId::FpIssue});
        const ShapleyAttributor exact(PlayerSet::individual(), littleCore(), target);
        const Attribution a = exact.attribute(value);
        QCOMPARE(a.method, AttributionMethod::Exact);
        QCOMPARE(exact.activePlayers().size(), std::size_t(6));
        QVERIFY(std::abs(a.at("rob").value - a.at("lq").value) <= 1e-14);
        QVERIFY(std::abs(a.at("rob").value - (-0.3 - 0.25 + 0.05)) <= 1e-14);
        for (const char* ignored : {"sq", "alu_issue", "fp_issue"}) {
            QCOMPARE(a.at(ignored).value, 0.0); // exactly, not approximately
            QVERIFY(a.at(ignored).active);
        }
        QVERIFY(a.at("l2_kb").value != 0.0);

        // The null player is exactly 0 in sampling mode too.
        ShapleyAttributor::Options options;
        options.mode = Mode::Sampling;
        options.permutations = 20;
        const Attribution s =
            ShapleyAttributor(PlayerSet::individual(), littleCore(), target, options)
                .attribute(value);
        QCOMPARE(s.method, AttributionMethod::Sampling);
        for (const char* ignored : {"sq", "alu_issue", "fp_issue"}) {
            QCOMPARE(s.at(ignored).value, 0.0);
            QCOMPARE(s.at(ignored).standardError, 0.0);
        }
    }

    // --- Sampling mode -----------------------------------------------------------------------

    void samplingTwentyPlayersWithinStandardErrors() {
        const auto game = randomGame(3, 40, 25);
        ShapleyAttributor::Options options;
        options.permutations = 400;
        options.seed = 42;
        const PlayerSet players = PlayerSet::individual();
        const ShapleyAttributor attributor(players, littleCore(), bigCore(), options);
        QCOMPARE(attributor.method(), AttributionMethod::Sampling); // 20 > 12 active players
        QCOMPARE(attributor.permutations(), std::size_t(400));
        const Attribution a = attributor.attribute(*game);
        QCOMPARE(a.evaluations, std::uint64_t(2 + 400 * 19));
        QCOMPARE(game->evaluations(), std::size_t(2 + 400 * 19));
        const std::vector<double> expected = game->shapley(players, littleCore());
        std::size_t uncertain = 0;
        double worst = 0;
        for (std::size_t p = 0; p < players.size(); ++p) {
            const PlayerAttribution& e = a.players[p];
            QVERIFY2(std::abs(e.value - expected[p]) <= 4.0 * e.standardError + 1e-12,
                     qPrintable(QString("%1: %2 vs %3 ± %4")
                                    .arg(QString::fromStdString(e.player))
                                    .arg(e.value)
                                    .arg(expected[p])
                                    .arg(e.standardError)));
            if (e.standardError > 1e-6)
                ++uncertain;
            if (e.standardError > 0)
                worst = std::max(worst, std::abs(e.value - expected[p]) / e.standardError);
        }
        // Three-way terms make the estimate genuinely random, so the check above has teeth.
        QVERIFY(uncertain >= 10);
        qInfo("largest |estimate - exact| / stderr over 20 players: %.2f", worst);
        // Efficiency: every permutation telescopes, so the mean does (to rounding).
        QVERIFY2(relativeGap(a.sum(), a.delta()) <= 1e-9,
                 qPrintable(QString::number(a.sum() - a.delta(), 'g', 17)));
    }

    void antitheticPairsAreExactForPairwiseInteractions() {
        // Additive + pairwise terms: a permutation gives each pair's interaction to its later
        // member, the reverse to the other, so every antithetic pair averages to the exact split.
        const auto game = randomGame(5, 60, 0);
        ShapleyAttributor::Options options;
        options.permutations = 8;
        const Attribution a =
            ShapleyAttributor(PlayerSet::individual(), littleCore(), bigCore(), options)
                .attribute(*game);
        const std::vector<double> expected = game->shapley(PlayerSet::individual(), littleCore());
        for (std::size_t p = 0; p < kParamCount; ++p) {
            QVERIFY(std::abs(a.players[p].value - expected[p]) <= 1e-12);
            QVERIFY(a.players[p].standardError <= 1e-12);
        }
    }

    void samplingOptions() {
        ShapleyAttributor::Options options;
        options.permutations = 201;
        const ShapleyAttributor odd(PlayerSet::individual(), littleCore(), bigCore(), options);
        QCOMPARE(odd.permutations(), std::size_t(202)); // whole antithetic pairs
        options.permutations = 2;
        ErrorKind kind = ErrorKind::BadInput;
        QVERIFY(errorOf(
                    [&] {
                        ShapleyAttributor(PlayerSet::individual(), littleCore(), bigCore(),
                                          options);
                    },
                    &kind)
                    .contains("at least 4 permutations"));
        QCOMPARE(kind, ErrorKind::Usage);
        // Forced sampling with one active player is exact (every order is the same).
        options.mode = Mode::Sampling;
        const ShapleyAttributor single(PlayerSet::individual(), littleCore(),
                                       with(littleCore(), bigCore(), {ParamId::Rob}), options);
        QCOMPARE(single.method(), AttributionMethod::Exact);
        QCOMPARE(single.permutations(), std::size_t(0));
        // Nothing differs: everything is 0 and the CPIs agree.
        const Attribution none =
            ShapleyAttributor(PlayerSet::defaultGroups(), littleCore(), littleCore())
                .attribute(CallableValueFunction(cacheTimesQueue));
        QCOMPARE(none.baselineCpi, none.targetCpi);
        QCOMPARE(none.sum(), 0.0);
        QCOMPARE(none.evaluations, std::uint64_t(1));
    }

    // --- The paper's interaction -------------------------------------------------------------

    void cacheTimesLoadQueueInteraction() {
        const CallableValueFunction value(cacheTimesQueue);
        const CoreConfig baseline = littleCore(); // 32 kB L1d, 8-entry LQ: CPI 5.5
        const CoreConfig target =
            with(baseline, bigCore(), {ParamId::L1dKb, ParamId::LoadQueue}); // CPI 0.75
        const PlayerSet players = PlayerSet::individual();

        const std::vector<std::string> cacheFirst{"l1d_kb", "lq"}, queueFirst{"lq", "l1d_kb"};
        const auto a = OrderedAblation::run(value, players, baseline, target, cacheFirst);
        const auto b = OrderedAblation::run(value, players, baseline, target, queueFirst);
        QCOMPARE(a.baselineCpi, 5.5);
        QCOMPARE(a.targetCpi, 0.75);
        QCOMPARE(a.steps[0].player, std::string("l1d_kb"));
        QCOMPARE(a.steps[0].delta(), -4.0);  // the cache first: 5.5 → 1.5
        QCOMPARE(a.steps[1].delta(), -0.75); // then the LQ gains little: 1.5 → 0.75
        QCOMPARE(b.steps[0].delta(), -3.75); // the LQ first: 5.5 → 1.75
        QCOMPARE(b.steps[1].delta(), -1.0);  // then the cache: 1.75 → 0.75
        // The orders disagree on both parameters...
        QVERIFY(std::abs(a.steps[0].delta() - b.steps[1].delta()) > 1.0);
        QVERIFY(std::abs(a.steps[1].delta() - b.steps[0].delta()) > 1.0);
        // ...although each adds up to the whole change.
        QCOMPARE(a.steps[0].delta() + a.steps[1].delta(), -4.75);
        QCOMPARE(b.steps[0].delta() + b.steps[1].delta(), -4.75);

        // Shapley: each gets its own effect plus half the interaction, independent of order.
        const Attribution s = ShapleyAttributor(players, baseline, target).attribute(value);
        const double interaction = value(target) - value(with(baseline, target, {ParamId::L1dKb})) -
                                   value(with(baseline, target, {ParamId::LoadQueue})) +
                                   value(baseline);
        QCOMPARE(interaction, 3.0);
        QCOMPARE(s.at("l1d_kb").value, -4.0 + interaction / 2); // -2.5
        QCOMPARE(s.at("lq").value, -3.75 + interaction / 2);    // -2.25
        QCOMPARE(s.sum(), -4.75);
        // For two players Shapley is the mean of the two orders.
        QCOMPARE(s.at("l1d_kb").value, (a.steps[0].delta() + b.steps[1].delta()) / 2);

        // As a group "caches" (with l1i and l2 changing too, ignored by the function) the cache
        // player gets the same share.
        const CoreConfig bigCaches = with(target, bigCore(), {ParamId::L1iKb, ParamId::L2Kb});
        const Attribution g =
            ShapleyAttributor(PlayerSet::defaultGroups(), baseline, bigCaches).attribute(value);
        QCOMPARE(g.at("caches").value, -2.5);
        QCOMPARE(g.at("ldst_queues").value, -2.25);
        QCOMPARE(g.at("window").value, 0.0);
        QVERIFY(!g.at("window").active);
    }

    void ablationErrorsAndJson() {
        const CallableValueFunction value(cacheTimesQueue);
        const CoreConfig target =
            with(littleCore(), bigCore(), {ParamId::L1dKb, ParamId::LoadQueue});
        const PlayerSet players = PlayerSet::individual();
        const auto run = [&](std::vector<std::string> order) {
            return OrderedAblation::run(value, players, littleCore(), target, order);
        };
        QVERIFY(errorOf([&] {
                    run({"l1d_kb"});
                }).contains("differ between baseline and target but are not in the order: lq"));
        QVERIFY(errorOf([&] { run({"lq", "l1d_kb", "lq"}); }).contains("'lq' appears twice"));
        QVERIFY(errorOf([&] { run({"lq", "l3"}); }).contains("unknown player 'l3'"));
        // An unchanged player may take part and contributes exactly 0.
        const auto withRob = run({"rob", "lq", "l1d_kb"});
        QCOMPARE(withRob.steps[0].delta(), 0.0);
        QCOMPARE(withRob.targetCpi, 0.75);
        const nlohmann::json j = withRob.toJson();
        QCOMPARE(j["steps"].size(), std::size_t(3));
        QCOMPARE(j["steps"][1]["delta"].get<double>(), -3.75);
        QCOMPARE(j["baseline_cpi"].get<double>(), 5.5);
    }

    // --- Regions and programs ----------------------------------------------------------------

    void programIsWeightedMeanOfRegionsInBothModes() {
        const std::vector<std::shared_ptr<UnanimityValue>> games{
            randomGame(21, 30, 10, 1.5), randomGame(22, 30, 10, 2.5), randomGame(23, 30, 10, 0.9)};
        const std::vector<std::uint64_t> instructions{100000, 300000, 50000};
        const ProgramValue program = programOf("gcc", games, instructions);
        const ProgramValueFunction whole(program);
        QCOMPARE(whole.weights().size(), std::size_t(3));

        for (const bool sampling : {false, true}) {
            ShapleyAttributor::Options options;
            options.mode = sampling ? Mode::Sampling : Mode::Auto;
            options.permutations = 60;
            const PlayerSet players =
                sampling ? PlayerSet::individual() : PlayerSet::defaultGroups();
            const ShapleyAttributor attributor(players, littleCore(), bigCore(), options);
            QCOMPARE(attributor.method(),
                     sampling ? AttributionMethod::Sampling : AttributionMethod::Exact);
            const ProgramAttribution pa = attributor.attribute(program);
            QCOMPARE(pa.program, std::string("gcc"));
            QCOMPARE(pa.instructions, std::uint64_t(450000));
            QCOMPARE(pa.regions.size(), std::size_t(3));
            // Program CPIs are the weighted means of region CPIs (bit for bit, same order).
            QCOMPARE(pa.total.baselineCpi, whole(littleCore()));
            QCOMPARE(pa.total.targetCpi, whole(bigCore()));
            QVERIFY(relativeGap(pa.total.sum(), pa.total.delta()) <= 1e-9);

            // The program-level attribution is the attribution of the program's CPI function,
            // and the instruction-weighted mean of the region attributions.
            const Attribution direct = attributor.attribute(whole);
            for (std::size_t p = 0; p < players.size(); ++p) {
                double weighted = 0;
                for (std::size_t r = 0; r < 3; ++r)
                    weighted += whole.weights()[r] * pa.regions[r].attribution.players[p].value;
                const double total = pa.total.players[p].value;
                QVERIFY(std::abs(total - weighted) <= 1e-12);
                QVERIFY(std::abs(total - direct.players[p].value) <= 1e-12);
                QVERIFY(std::abs(pa.total.players[p].standardError -
                                 direct.players[p].standardError) <= 1e-12);
            }
            // Each region's attribution is what attributing that region alone gives.
            for (std::size_t r = 0; r < 3; ++r) {
                const Attribution alone = attributor.attribute(*games[r]);
                const Attribution& inProgram = pa.regions[r].attribution;
                QCOMPARE(pa.regions[r].region, std::to_string(r));
                QCOMPARE(pa.regions[r].instructions, instructions[r]);
                QCOMPARE(inProgram.baselineCpi, alone.baselineCpi);
                for (std::size_t p = 0; p < players.size(); ++p) {
                    QCOMPARE(inProgram.players[p].value, alone.players[p].value);
                    QCOMPARE(inProgram.players[p].standardError, alone.players[p].standardError);
                }
                QVERIFY(relativeGap(inProgram.sum(), inProgram.delta()) <= 1e-9);
            }
            if (!sampling) {
                // Exact: the closed form of the weighted game.
                for (std::size_t p = 0; p < players.size(); ++p) {
                    double expected = 0;
                    for (std::size_t r = 0; r < 3; ++r)
                        expected +=
                            whole.weights()[r] * games[r]->shapley(players, littleCore())[p];
                    QVERIFY(std::abs(pa.total.players[p].value - expected) <= 1e-12);
                }
            }
        }
    }

    void programValidation() {
        const auto game = randomGame(1, 0, 0);
        const ShapleyAttributor attributor(PlayerSet::defaultGroups(), littleCore(), bigCore());
        const auto errorFor = [&](std::vector<ProgramValue> programs) {
            return errorOf([&] { attributor.attribute(programs); });
        };
        QVERIFY(errorFor({{"p", {}}}).contains("program 'p' has no region"));
        QVERIFY(errorFor({{"p", {{"0", 0, game}}}}).contains("region '0' has no instructions"));
        QVERIFY(errorFor({{"p", {{"0", 5, nullptr}}}}).contains("has no value function"));
        QVERIFY(errorFor({{"p", {{"all", 5, game}}}}).contains("'all' is reserved"));
        QVERIFY(errorFor({{"p", {{"0", 5, game}, {"0", 5, game}}}}).contains("two regions"));
        QVERIFY(errorFor({{"p", {{"0", 5, game}}}, {"p", {{"0", 5, game}}}})
                    .contains("two programs are called 'p'"));
    }

    // --- Determinism, cancellation, progress, errors -----------------------------------------

    void deterministicForSeedWhateverTheThreads() {
        std::vector<ProgramValue> programs;
        for (unsigned p = 0; p < 3; ++p) {
            std::vector<std::shared_ptr<UnanimityValue>> games;
            std::vector<std::uint64_t> instructions;
            for (unsigned r = 0; r < 7 + 12 * p; ++r) {
                games.push_back(randomGame(100 * p + r, 20, 8));
                instructions.push_back(1000 + 37 * r);
            }
            programs.push_back(programOf("p" + std::to_string(p), games, instructions));
        }
        const auto run = [&](std::size_t threads, std::uint64_t seed) {
            ShapleyAttributor::Options options;
            options.permutations = 70;
            options.threads = threads;
            options.seed = seed;
            return ShapleyAttributor(PlayerSet::individual(), littleCore(), bigCore(), options)
                .attribute(programs);
        };
        const AttributionReport one = run(1, 9), two = run(2, 9), all = run(0, 9),
                                other = run(2, 10);
        const auto values = [](const AttributionReport& report) {
            std::vector<double> v;
            for (const auto& program : report.programs) {
                for (const auto& p : program.total.players)
                    v.insert(v.end(), {p.value, p.standardError});
                for (const auto& region : program.regions)
                    for (const auto& p : region.attribution.players)
                        v.insert(v.end(), {p.value, p.standardError});
            }
            return v;
        };
        QCOMPARE(values(one).size(), std::size_t((3 + 7 + 19 + 31) * 20 * 2));
        QVERIFY(values(one) == values(two)); // bit-identical
        QVERIFY(values(one) == values(all));
        QVERIFY(values(one) != values(other)); // the seed matters
        QCOMPARE(one.seed, std::uint64_t(9));
        QCOMPARE(one.toJson()["seed"].get<std::string>(), std::string("9"));
    }

    void cancellation() {
        const auto game = randomGame(2, 20, 5);
        ShapleyAttributor::Options options;
        options.permutations = 2000;
        const ShapleyAttributor sampling(PlayerSet::individual(), littleCore(), bigCore(), options);
        const ShapleyAttributor exact(PlayerSet::defaultGroups(), littleCore(), bigCore());

        for (const ShapleyAttributor* attributor : {&sampling, &exact}) {
            // A flag raised before the run: nothing is evaluated.
            const auto before = game->evaluations();
            std::atomic<bool> cancel{true};
            const JobControl control({}, &cancel);
            ErrorKind kind = ErrorKind::Usage;
            const QString message = errorOf([&] { attributor->attribute(*game, control); }, &kind);
            QCOMPARE(message, QStringLiteral("Shapley attribution was cancelled"));
            QCOMPARE(kind, ErrorKind::Cancelled);
            QCOMPARE(ConcordeError(kind, "").exitCode(), 130);
            QCOMPARE(game->evaluations(), before);

            // The progress handler cancels at its first report: the run ends early.
            JobControl stop;
            stop = JobControl([&](const JobProgress&) { stop.cancel(); });
            const auto start = game->evaluations();
            QVERIFY(
                errorOf([&] { attributor->attribute(*game, stop); }, &kind).contains("cancelled"));
            QCOMPARE(kind, ErrorKind::Cancelled);
            QVERIFY(game->evaluations() - start < attributor->evaluationsPerRegion());
        }

        // A flag raised by another thread mid-run (here: by the value function itself).
        std::atomic<bool> cancel{false};
        std::atomic<int> batches{0};
        const CallableValueFunction slow([&](const CoreConfig& c) {
            if (++batches == 500)
                cancel = true;
            return cacheTimesQueue(c);
        });
        const JobControl control({}, &cancel);
        QVERIFY(errorOf([&] { sampling.attribute(slow, control); }).contains("cancelled"));
        QVERIFY(batches < 2 + 2000 * 19);
    }

    void progressIsMonotonicAndComplete() {
        const auto game = randomGame(4, 20, 5);
        for (const bool sampling : {false, true}) {
            ShapleyAttributor::Options options;
            options.mode = sampling ? Mode::Sampling : Mode::Auto;
            options.permutations = 300;
            const ShapleyAttributor attributor(PlayerSet::defaultGroups(), littleCore(), bigCore(),
                                               options);
            std::vector<double> fractions;
            const JobControl control([&](const JobProgress& p) {
                fractions.push_back(p.fraction()); // reports never overlap, so no lock is needed
            });
            const ProgramValue program = programOf("p", {game, game, game}, {100, 200, 300});
            attributor.attribute(program, control);
            QVERIFY(fractions.size() > 3);
            QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
            QVERIFY(fractions.front() > 0.0);
            QCOMPARE(fractions.back(), 1.0);
        }
    }

    void valueFunctionErrorsPropagate() {
        const CallableValueFunction failing([](const CoreConfig& c) -> double {
            if (c.rob() == 512)
                throw badInput("rob = 512 is not on the model's grid");
            return 1.0;
        });
        for (const Mode mode : {Mode::Exact, Mode::Sampling}) {
            ShapleyAttributor::Options options;
            options.mode = mode;
            ErrorKind kind = ErrorKind::Usage;
            QVERIFY(errorOf(
                        [&] {
                            ShapleyAttributor(PlayerSet::defaultGroups(), littleCore(), bigCore(),
                                              options)
                                .attribute(failing);
                        },
                        &kind)
                        .contains("not on the model's grid"));
            QCOMPARE(kind, ErrorKind::BadInput);
        }
        QVERIFY(errorOf([] { CallableValueFunction(nullptr); }).contains("needs a callable"));
    }

    void coalitionConfigurations() {
        const ShapleyAttributor attributor(PlayerSet::defaultGroups(), littleCore(), bigCore());
        std::vector<bool> members(10, false);
        QVERIFY(attributor.coalition(members) == littleCore());
        members[PlayerSet::defaultGroups().require("caches")] = true;
        const CoreConfig caches = attributor.coalition(members);
        QVERIFY(caches ==
                with(littleCore(), bigCore(), {ParamId::L1dKb, ParamId::L1iKb, ParamId::L2Kb}));
        QVERIFY(attributor.coalition(std::vector<bool>(10, true)) == bigCore());
        QVERIFY(errorOf([&] {
                    attributor.coalition(std::vector<bool>(3, true));
                }).contains("one membership flag per player (10), got 3"));
    }

    // --- Output ------------------------------------------------------------------------------

    void csvAndJson() {
        const auto g1 = randomGame(31, 10, 3), g2 = randomGame(32, 10, 3);
        std::vector<ProgramValue> programs{programOf("gzip", {g1, g2}, {10, 30}),
                                           programOf("perl, regex \"x\"", {g2}, {5})};
        const ShapleyAttributor attributor(PlayerSet::defaultGroups(), littleCore(), bigCore());
        const AttributionReport report = attributor.attribute(programs);

        std::ostringstream csv;
        AttributionCsvWriter::write(csv, report);
        std::istringstream lines(csv.str());
        std::vector<std::string> rows;
        for (std::string line; std::getline(lines, line);)
            rows.push_back(line);
        QCOMPARE(rows.front(), std::string("program,region,player,attribution,stderr"));
        // Per program: "all" then each region, ten players each.
        QCOMPARE(rows.size(), std::size_t(1 + (1 + 2) * 10 + (1 + 1) * 10));
        const double windowAll = report.programs[0].total.at("window").value;
        QCOMPARE(rows[1], "gzip,all,window," + AttributionCsvWriter::number(windowAll) + ",0");
        QCOMPARE(std::stod(rows[1].substr(rows[1].find("window,") + 7)), windowAll);
        QVERIFY(QString::fromStdString(rows[11]).startsWith("gzip,0,window,"));
        QVERIFY(QString::fromStdString(rows[21]).startsWith("gzip,1,window,"));
        QVERIFY(QString::fromStdString(rows[31]).startsWith(R"("perl, regex ""x""",all,window,)"));
        QCOMPARE(AttributionCsvWriter::number(-2.5), std::string("-2.5"));
        QCOMPARE(AttributionCsvWriter::number(0.1), std::string("0.1"));
        QCOMPARE(AttributionCsvWriter::field("a\nb"), std::string("\"a\nb\""));

        QTemporaryDir dir;
        const std::string path = dir.filePath("shapley.csv").toStdString();
        AttributionCsvWriter::writeFile(path, report);
        std::ifstream in(path);
        std::ostringstream fileText;
        fileText << in.rdbuf();
        QCOMPARE(fileText.str(), csv.str());

        const nlohmann::json j = report.toJson();
        QCOMPARE(j["method"].get<std::string>(), std::string("exact"));
        QCOMPARE(j["baseline"]["rob"].get<int>(), 16);
        QCOMPARE(j["target"]["bp"].get<std::string>(), std::string("simple"));
        QCOMPARE(j["players"]["groups"]["caches"].size(), std::size_t(3));
        const auto& gzip = j["programs"][0];
        QCOMPARE(gzip["program"].get<std::string>(), std::string("gzip"));
        QCOMPARE(gzip["instructions"].get<int>(), 40);
        QCOMPARE(gzip["all"]["baseline_cpi"].get<double>(), report.programs[0].total.baselineCpi);
        QCOMPARE(gzip["all"]["target_cpi"].get<double>(), report.programs[0].total.targetCpi);
        QCOMPARE(gzip["all"]["players"].size(), std::size_t(10));
        QCOMPARE(gzip["regions"][1]["region"].get<std::string>(), std::string("1"));
        QCOMPARE(gzip["regions"][1]["target_cpi"].get<double>(), (*g2)(bigCore()));
        QCOMPARE(gzip["regions"][1]["players"][8]["player"].get<std::string>(),
                 std::string("caches"));
    }
};

QTEST_APPLESS_MAIN(AttributionTest)
#include "AttributionTest.moc"
