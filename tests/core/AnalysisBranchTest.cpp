// Trace analysis, branch prediction: the multi-table TAGE and the deterministic simple predictor.
#include "analysis/SimplePredictor.h"
#include "analysis/TageLanes.h"
#include "analysis/TagePredictor.h"
#include "common/ConcordeError.h"

#include <QtTest>
#include <algorithm>
#include <functional>
#include <iterator>
#include <random>
#include <vector>

using namespace concorde;

namespace {
TraceRecord conditional(std::uint64_t pc, bool taken) {
    TraceRecord r;
    r.pc = pc;
    r.size = 2;
    r.instrClass = InstrClass::Branch;
    r.branchKind = BranchKind::DirectConditional;
    r.taken = taken;
    r.branchTarget = pc - 0x40;
    return r;
}

TraceRecord branch(std::uint64_t pc, BranchKind kind, std::uint64_t target) {
    TraceRecord r;
    r.pc = pc;
    r.size = 5;
    r.instrClass = InstrClass::Branch;
    r.branchKind = kind;
    r.taken = true;
    r.branchTarget = target;
    return r;
}

/// A reproducible "random" bit (splitmix64 of i).
bool randomBit(std::uint64_t i, std::uint64_t salt = 0) {
    std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ salt;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return ((x ^ (x >> 31)) >> 17) & 1u;
}

/// Runs `predictor` over `iterations` steps of `step` (which returns the records of one step);
/// returns the misprediction rate of the records for which `counted` is true, over the steps
/// from `measureFrom` on.
double missRate(BranchPredictor& predictor, int iterations, int measureFrom,
                const std::function<std::vector<TraceRecord>(int)>& step,
                const std::function<bool(const TraceRecord&)>& counted) {
    std::uint64_t misses = 0, total = 0;
    for (int it = 0; it < iterations; ++it) {
        for (const TraceRecord& r : step(it)) {
            const bool miss = predictor.predictAndUpdate(r);
            if (it >= measureFrom && counted(r)) {
                ++total;
                misses += miss ? 1 : 0;
            }
        }
    }
    return total ? static_cast<double>(misses) / total : 0.0;
}

bool all(const TraceRecord&) {
    return true;
}

TageGeometry bimodalOnly() {
    TageGeometry g;
    g.tableCount = 0;
    return g;
}
} // namespace

class AnalysisBranchTest : public QObject {
    Q_OBJECT

private slots:
    void tageGeometryIsGeometric() {
        TagePredictor tage;
        QCOMPARE(tage.geometry().tableCount, 12);
        const std::vector<int> expected{4, 6, 10, 16, 25, 40, 64, 101, 160, 254, 403, 640};
        for (int i = 0; i < 12; ++i) {
            QCOMPARE(tage.historyLength(i), expected[i]);
            QCOMPARE(tage.tagBits(i), 8 + i / 2);
        }
        TageGeometry bad;
        bad.maxHistory = 5000;
        QVERIFY_THROWS_EXCEPTION(ConcordeError, TagePredictor{bad});
        bad = TageGeometry{};
        bad.tableCount = 17;
        QVERIFY_THROWS_EXCEPTION(ConcordeError, TagePredictor{bad});
    }

    void tageLearnsAlwaysTaken() {
        TagePredictor tage;
        const double rate = missRate(
            tage, 5000, 100, [](int) { return std::vector{conditional(0x401000, true)}; }, all);
        QCOMPARE(rate, 0.0);
        // Always not taken, at another PC, against the weakly-taken initial state.
        const double notTaken = missRate(
            tage, 5000, 100, [](int) { return std::vector{conditional(0x402000, false)}; }, all);
        QCOMPARE(notTaken, 0.0);
    }

    void tageLearnsAlternatingPattern() {
        auto step = [](int i) { return std::vector{conditional(0x401234, i % 2 == 0)}; };
        TagePredictor tage;
        const double rate = missRate(tage, 20000, 2000, step, all);
        QVERIFY2(rate < 0.005, qPrintable(QString::number(rate)));
        TagePredictor bimodal(bimodalOnly());
        const double base = missRate(bimodal, 20000, 2000, step, all);
        QVERIFY2(base > 0.4, qPrintable(QString::number(base)));
    }

    void tageLearnsLoopOfPeriodSeven() {
        // A loop branch taken 6 times then not taken: needs 7 bits of history.
        auto step = [](int i) { return std::vector{conditional(0x405550, i % 7 != 6)}; };
        TagePredictor tage;
        const double rate = missRate(tage, 70000, 7000, step, all);
        TagePredictor bimodal(bimodalOnly());
        const double base = missRate(bimodal, 70000, 7000, step, all);
        QVERIFY2(rate < 0.005, qPrintable(QString::number(rate)));
        QVERIFY2(std::abs(base - 1.0 / 7) < 0.01, qPrintable(QString::number(base)));
    }

    /// A lookup that is never trained leaves no trace: every lookup overwrites the tables'
    /// indices and tags, and an update must never use one left over from an earlier lookup. Two
    /// predictors see the same branches, one of them with an abandoned lookup of another branch
    /// before each; they predict alike throughout and end in byte-identical states.
    void tageLookupsThatAreNotTrainedLeaveNoTrace() {
        std::mt19937_64 random(5);
        TagePredictor plain;
        TagePredictor probed;
        TagePredictor bimodal(bimodalOnly());
        std::uint64_t tageMisses = 0, bimodalMisses = 0, divergences = 0;
        const auto execute = [&](std::uint64_t pc, bool taken) {
            probed.predictConditional(0x500000 + 0x10 * (random() % 512));
            const bool expected = plain.predictConditional(pc);
            divergences += probed.predictConditional(pc) != expected ? 1 : 0;
            plain.updateConditional(pc, taken);
            probed.updateConditional(pc, taken);
            tageMisses += expected != taken ? 1 : 0;
            bimodalMisses += bimodal.predictConditional(pc) != taken ? 1 : 0;
            bimodal.updateConditional(pc, taken);
        };
        // Sixteen inner loops of 2..9 iterations (learnt by short and middle histories), each
        // followed by a branch of random outcome, so that providers and alternates vary over
        // the tables.
        for (int outer = 0; outer < 2000; ++outer)
            for (std::uint64_t loop = 0; loop < 16; ++loop) {
                const std::uint64_t period = 2 + loop % 8;
                for (std::uint64_t i = 1; i <= period; ++i)
                    execute(0x400000 + 0x40 * loop, i < period);
                execute(0x400020 + 0x40 * loop, (random() & 1) != 0);
            }
        QCOMPARE(divergences, std::uint64_t(0));
        QVERIFY(probed.saveState() == plain.saveState());
        // The tagged tables took part: the loop exits are learnt, which the bimodal table
        // cannot do.
        QVERIFY2(tageMisses < bimodalMisses * 3 / 4,
                 qPrintable(QString("%1 against %2").arg(tageMisses).arg(bimodalMisses)));
    }

    /// TagePredictor::train() over a run of branches ends in exactly the state of
    /// predictAndUpdate() (trainBase() where trainPredictor is false) on each branch in turn,
    /// however the branches are cut into runs: conditional branches of loops and of random
    /// outcome, indirect jumps, calls, returns and jumps, with stretches of base-only training
    /// in between (which must not overtake the hashed-ahead group).
    void tageTrainingARunEqualsBranchByBranch() {
        std::mt19937_64 random(17);
        std::vector<BranchEvent> events;
        std::uint64_t sequence = 0;
        for (int outer = 0; outer < 1500; ++outer) {
            const bool full = outer % 10 != 3; // every tenth round trains the base only
            for (std::uint64_t loop = 0; loop < 12; ++loop) {
                const std::uint64_t period = 2 + loop % 9;
                for (std::uint64_t i = 1; i <= period; ++i)
                    events.push_back({0x400000 + 0x40 * loop, 0x3ff000 + 0x40 * loop, 2,
                                      BranchKind::DirectConditional, i < period, full});
                events.push_back({0x400020 + 0x40 * loop, 0x401000, 2,
                                  BranchKind::DirectConditional, randomBit(sequence++), full});
                if (loop % 4 == 0) {
                    const std::uint64_t target = 0x600000 + 0x100 * (random() % 5);
                    events.push_back(
                        {0x500000 + loop, target, 3, BranchKind::Indirect, true, full});
                    events.push_back({0x500100 + loop, 0x700000, 5, BranchKind::Call, true, full});
                    events.push_back(
                        {0x700040, 0x500105 + loop, 1, BranchKind::Return, true, full});
                    events.push_back({0x500200 + loop, 0x500300, 5, BranchKind::DirectUnconditional,
                                      true, full});
                }
            }
        }
        TagePredictor oneByOne;
        TagePredictor bimodal(bimodalOnly());
        std::uint64_t tageMisses = 0, bimodalMisses = 0;
        TraceRecord r;
        for (const BranchEvent& e : events) {
            e.toRecord(r);
            if (!e.trainPredictor) {
                oneByOne.trainBase(r);
                continue;
            }
            const bool miss = oneByOne.predictAndUpdate(r);
            if (e.kind == BranchKind::DirectConditional) {
                tageMisses += miss ? 1 : 0;
                bimodalMisses += bimodal.predictAndUpdate(r) ? 1 : 0;
            }
        }
        // The tagged tables took part (the loop exits are learnt).
        QVERIFY2(tageMisses < bimodalMisses * 3 / 4,
                 qPrintable(QString("%1 against %2").arg(tageMisses).arg(bimodalMisses)));
        for (const std::size_t runLength : {std::size_t{1}, std::size_t{7}, std::size_t{32},
                                            std::size_t{33}, std::size_t{5000}, events.size()}) {
            TagePredictor inRuns;
            for (std::size_t at = 0; at < events.size(); at += runLength)
                inRuns.train(
                    std::span(events).subspan(at, std::min(runLength, events.size() - at)));
            QVERIFY2(inRuns.saveState() == oneByOne.saveState(),
                     qPrintable(QString("runs of %1").arg(runLength)));
        }
        // And random cuts, checked at every cut.
        TagePredictor inRuns, reference;
        std::size_t at = 0;
        while (at < events.size()) {
            const std::size_t length =
                std::min<std::size_t>(1 + random() % 100, events.size() - at);
            inRuns.train(std::span(events).subspan(at, length));
            for (std::size_t i = at; i < at + length; ++i) {
                events[i].toRecord(r);
                if (events[i].trainPredictor)
                    reference.predictAndUpdate(r);
                else
                    reference.trainBase(r);
            }
            at += length;
            if (at % 7 == 0 || at == events.size())
                QVERIFY(inRuns.saveState() == reference.saveState());
        }
    }

    /// The lane kernels give the same bits in their dispatched form (AVX2 code on a CPU that
    /// has AVX2) as in the portable code, over random inputs across the whole range the
    /// predictor may give them (index widths 2..20, tag widths 2..15, histories up to 2047),
    /// including the hit mask against a tag array where about half the lookups hit.
    void tageLanesDispatchedMatchPortable() {
        std::mt19937 random(11);
        const auto below = [&](std::uint32_t n) {
            return static_cast<std::uint32_t>(random() % n);
        };
        for (int round = 0; round < 200; ++round) {
            TageLanes lanes;
            const std::uint32_t logSize = 2 + below(19);
            lanes.logSize = logSize;
            const int used = static_cast<int>(below(kTageLanes + 1)); // the rest stay unused
            for (int i = 0; i < used; ++i) {
                const std::uint32_t tagBits = 2 + below(14);
                lanes.pathMask[i] = (1u << (1 + below(16))) - 1;
                lanes.rotate[i] = below(logSize);
                lanes.rotateBack[i] = logSize - lanes.rotate[i];
                lanes.indexShift[i] = 1 + below(logSize - 1);
                lanes.indexMask[i] = (1u << logSize) - 1;
                lanes.tagShift[i] = tagBits;
                lanes.tagMask[i] = (1u << tagBits) - 1;
                lanes.tableBase[i] = static_cast<std::uint32_t>(i) << logSize;
                lanes.length[i] = 1 + below(2047);
                lanes.usedTables |= 1u << i;
                const std::uint32_t widths[] = {logSize, tagBits, tagBits - 1};
                for (int k = 0; k < 3; ++k) {
                    lanes.width[k][i] = widths[k];
                    lanes.foldMask[k][i] = (1u << widths[k]) - 1;
                    lanes.outBit[k][i] = 1u << (lanes.length[i] % widths[k]);
                    lanes.fold[k][i] = below(1u << widths[k]);
                }
            }
            // A tag array (plus its one element of padding) of random tags.
            std::vector<std::uint16_t> tableTags((static_cast<std::size_t>(used) << logSize) + 1);
            for (std::uint16_t& tag : tableTags)
                tag = static_cast<std::uint16_t>(random());
            std::uint32_t hitsSeen = 0;
            for (int branch = 0; branch < 50; ++branch) {
                const std::uint32_t pIndex = random(), pTag = random(), path = random();
                TageLookup lookup, portable;
                hashTageTablesPortable(lanes, pIndex, pTag, path, portable);
                // Make about half of the used tables hit: store the tag the lookup will compute.
                for (int i = 0; i < used; ++i)
                    if (random() & 1)
                        tableTags[lanes.tableBase[i] + portable.indices[i]] =
                            static_cast<std::uint16_t>(portable.tags[i]);
                hashTageTables(lanes, pIndex, pTag, path, lookup);
                QVERIFY(std::equal(std::begin(lookup.indices), std::end(lookup.indices),
                                   std::begin(portable.indices)));
                QVERIFY(std::equal(std::begin(lookup.tags), std::end(lookup.tags),
                                   std::begin(portable.tags)));
                const std::uint32_t hits = matchTageTables(lanes, tableTags.data(), lookup);
                QCOMPARE(hits, matchTageTablesPortable(lanes, tableTags.data(), lookup));
                QCOMPARE(hits & ~lanes.usedTables, 0u);
                hitsSeen |= hits;
                for (int i = 0; i < kTageLanes; ++i) {
                    QVERIFY(lookup.indices[i] <= lanes.indexMask[i]);
                    QVERIFY(lookup.tags[i] <= lanes.tagMask[i]);
                    const bool hit =
                        i < used &&
                        tableTags[lanes.tableBase[i] + lookup.indices[i]] == lookup.tags[i];
                    QCOMPARE(((hits >> i) & 1u) != 0, hit);
                }
            }
            if (used > 0)
                QVERIFY(hitsSeen != 0);
            // Folds: the same pushes through both, from the same random history (2048 outcomes
            // and the 3 bytes of padding the kernels may read).
            std::array<std::uint8_t, 2048 + 3> history{};
            for (std::uint8_t& bit : history)
                bit = static_cast<std::uint8_t>(random() & 1);
            TageLanes portable = lanes;
            unsigned head = 0;
            for (int push = 0; push < 300; ++push) {
                const std::uint32_t in = random() & 1;
                head = (head - 1) & 2047u;
                history[head] = static_cast<std::uint8_t>(in);
                pushTageFolds(lanes, history.data(), head, 2047u, in);
                pushTageFoldsPortable(portable, history.data(), head, 2047u, in);
                for (int k = 0; k < 3; ++k)
                    QVERIFY(std::equal(std::begin(lanes.fold[k]), std::end(lanes.fold[k]),
                                       std::begin(portable.fold[k])));
            }
            // Outcomes read backwards: through both, at every place, wrapping or not.
            for (unsigned at = 0; at < 2048 + 40; at += 1 + below(5)) {
                const int count = static_cast<int>(below(33));
                const std::uint32_t bits = historyBitsBackwards(history.data(), 2047u, at, count);
                QCOMPARE(bits, historyBitsBackwardsPortable(history.data(), 2047u, at, count));
                for (int j = 0; j < 32; ++j)
                    QCOMPARE((bits >> j) & 1u,
                             j < count ? history[(at - static_cast<unsigned>(j)) & 2047u] & 1u
                                       : 0u);
            }
            // A run of branches: the same folds and lookups through both, and each lookup the
            // one hashTageTables gives from the folds before its branch.
            {
                TageLanes run = lanes, runPortable = lanes, stepped = lanes;
                const int count = 1 + static_cast<int>(below(32));
                std::vector<TageBranchHash> hashes(static_cast<std::size_t>(count));
                for (TageBranchHash& h : hashes)
                    h = {static_cast<std::uint32_t>(random()), static_cast<std::uint32_t>(random()),
                         static_cast<std::uint32_t>(random())};
                const auto outcomes = static_cast<std::uint32_t>(random());
                alignas(32) std::uint32_t leaving[kTageLanes];
                for (std::uint32_t& word : leaving)
                    word = static_cast<std::uint32_t>(random());
                std::vector<TageLookup> lookups(hashes.size()), portableLookups(hashes.size());
                hashAndPushTageRun(run, hashes.data(), count, outcomes, leaving, lookups.data());
                hashAndPushTageRunPortable(runPortable, hashes.data(), count, outcomes, leaving,
                                           portableLookups.data());
                for (int j = 0; j < count; ++j) {
                    TageLookup expected;
                    hashTageTablesPortable(stepped, hashes[j].pIndex, hashes[j].pTag,
                                           hashes[j].pathBits, expected);
                    for (const TageLookup* got : {&lookups[j], &portableLookups[j]}) {
                        QVERIFY(std::equal(std::begin(got->indices), std::end(got->indices),
                                           std::begin(expected.indices)));
                        QVERIFY(std::equal(std::begin(got->tags), std::end(got->tags),
                                           std::begin(expected.tags)));
                    }
                    // One push by hand, lane by lane, as pushTageFolds defines it.
                    const std::uint32_t in = (outcomes >> j) & 1u;
                    for (int i = 0; i < kTageLanes; ++i)
                        for (int k = 0; k < 3; ++k) {
                            std::uint32_t v = (stepped.fold[k][i] << 1) | in;
                            if ((leaving[i] >> j) & 1u)
                                v ^= stepped.outBit[k][i];
                            if (stepped.width[k][i] > 0 && (v >> stepped.width[k][i]) & 1u)
                                v ^= 1u;
                            stepped.fold[k][i] = v & stepped.foldMask[k][i];
                        }
                }
                for (int k = 0; k < 3; ++k) {
                    QVERIFY(std::equal(std::begin(run.fold[k]), std::end(run.fold[k]),
                                       std::begin(runPortable.fold[k])));
                    QVERIFY(std::equal(std::begin(run.fold[k]), std::end(run.fold[k]),
                                       std::begin(stepped.fold[k])));
                }
            }
            for (int k = 0; k < 3; ++k)
                for (int i = 0; i < kTageLanes; ++i) {
                    QVERIFY(lanes.fold[k][i] <= lanes.foldMask[k][i]); // stays within its width
                    if (i >= used)
                        QCOMPARE(lanes.fold[k][i], 0u); // an unused table's fold stays 0
                }
        }
    }

    void tageUsesLongHistory() {
        // Branch B repeats the random outcome of branch A, 100 always-taken branches later: only
        // tables with ≥ 101 bits of history can see A. Bimodal (and short tables) stay at 50 %.
        auto step = [](int i) {
            std::vector<TraceRecord> records;
            const bool a = randomBit(static_cast<std::uint64_t>(i));
            records.push_back(conditional(0x410000, a));
            for (int k = 0; k < 100; ++k)
                records.push_back(conditional(0x420000 + 16 * k, true));
            records.push_back(conditional(0x430000, a));
            return records;
        };
        auto isB = [](const TraceRecord& r) { return r.pc == 0x430000; };
        TagePredictor tage;
        const double rate = missRate(tage, 6000, 4000, step, isB);
        TagePredictor bimodal(bimodalOnly());
        const double base = missRate(bimodal, 6000, 4000, step, isB);
        QVERIFY2(rate < 0.05, qPrintable(QString::number(rate)));
        QVERIFY2(base > 0.4, qPrintable(QString::number(base)));
        // A history of 64 would not be enough: the geometry matters.
        TageGeometry shortHistory;
        shortHistory.maxHistory = 64;
        TagePredictor shortTage(shortHistory);
        const double shortRate = missRate(shortTage, 6000, 4000, step, isB);
        QVERIFY2(shortRate > 0.3, qPrintable(QString::number(shortRate)));
    }

    void tageRandomIsAboutHalf() {
        TagePredictor tage;
        const double rate = missRate(
            tage, 40000, 0,
            [](int i) { return std::vector{conditional(0x401000, randomBit(i, 77))}; }, all);
        QVERIFY2(rate > 0.45 && rate < 0.55, qPrintable(QString::number(rate)));
    }

    void tageIsDeterministicAndResettable() {
        auto run = [](TagePredictor& tage) {
            std::vector<bool> misses;
            for (int i = 0; i < 20000; ++i) {
                const std::uint64_t pc = 0x400000 + 4 * (i % 37);
                misses.push_back(
                    tage.predictAndUpdate(conditional(pc, randomBit(i / 3, pc) || i % 5 == 0)));
            }
            return misses;
        };
        TagePredictor a, b;
        const auto first = run(a);
        QCOMPARE(run(b), first);
        a.reset();
        QCOMPARE(run(a), first);
        QVERIFY(std::count(first.begin(), first.end(), true) > 0);
    }

    void unconditionalBranchesArePerfect() {
        TagePredictor tage;
        SimplePredictor simple(20.0);
        for (int i = 0; i < 1000; ++i) {
            const std::uint64_t target = 0x500000 + 64 * (i % 13);
            for (const TraceRecord& r : {branch(0x401000, BranchKind::DirectUnconditional, target),
                                         branch(0x401100 + i, BranchKind::Call, target),
                                         branch(0x401200, BranchKind::Return, target + i)}) {
                QVERIFY(!tage.predictAndUpdate(r));
                QVERIFY(!simple.predictAndUpdate(r));
            }
        }
        TraceRecord plain;
        QVERIFY(!tage.predictAndUpdate(plain));
        QCOMPARE(simple.conditionalBranches(), std::uint64_t(0));
    }

    void tagePredictsIndirectTargets() {
        TagePredictor tage;
        // One target: only the first occurrence misses.
        int misses = 0;
        for (int i = 0; i < 1000; ++i)
            misses += tage.predictAndUpdate(branch(0x401000, BranchKind::Indirect, 0x600000));
        QCOMPARE(misses, 1);
        QCOMPARE(tage.predictIndirect(0x401000), std::uint64_t(0x600000));
        QCOMPARE(tage.predictIndirect(0x499999), std::uint64_t(0));
        // Two targets chosen by the preceding conditional branch: learned through the
        // history-indexed target cache, which a last-target table alone would get ~always wrong.
        misses = 0;
        for (int i = 0; i < 4000; ++i) {
            const bool which = i % 2 == 0;
            tage.predictAndUpdate(conditional(0x402000, which));
            const bool miss = tage.predictAndUpdate(
                branch(0x402010, BranchKind::Indirect, which ? 0x610000 : 0x620000));
            if (i >= 1000)
                misses += miss;
        }
        QVERIFY2(misses < 30, qPrintable(QString::number(misses)));
    }

    void simpleRateIsAccurate() {
        SimplePredictor simple(5.0, 1234);
        int misses = 0;
        const int n = 100000;
        for (int i = 0; i < n; ++i)
            misses += simple.predictAndUpdate(conditional(0x401000 + (i % 64), i % 3 == 0));
        const double pct = 100.0 * misses / n;
        QVERIFY2(std::abs(pct - 5.0) <= 0.5, qPrintable(QString::number(pct)));
        QCOMPARE(simple.conditionalBranches(), std::uint64_t(n));
        // Other rates, other seeds.
        for (double rate : {1.0, 2.0, 10.0, 20.0}) {
            SimplePredictor p(rate, 99);
            int m = 0;
            for (int i = 0; i < n; ++i)
                m += p.mispredicts(static_cast<std::uint64_t>(i));
            QVERIFY2(std::abs(100.0 * m / n - rate) <= 0.5, qPrintable(QString::number(rate)));
        }
    }

    void simpleIsDeterministicPerSeed() {
        auto run = [](double pct, std::uint64_t seed) {
            SimplePredictor p(pct, seed);
            std::vector<bool> v;
            for (int i = 0; i < 100000; ++i)
                v.push_back(p.predictAndUpdate(conditional(0x401000, true)));
            return v;
        };
        const auto a = run(5.0, 42);
        QCOMPARE(run(5.0, 42), a);
        const auto other = run(5.0, 43);
        QVERIFY(other != a);
        // The independent per-branch decisions of two seeds overlap about p² of the time.
        std::size_t both = 0;
        for (std::size_t i = 0; i < a.size(); ++i)
            both += a[i] && other[i];
        QVERIFY2(both < 600, qPrintable(QString::number(both))); // expected 250
        // Lower rates mispredict a subset of the branches of higher rates (same seed).
        const auto low = run(2.0, 42);
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(!low[i] || a[i]);
        // The free function agrees with the object.
        for (std::uint64_t k = 0; k < 1000; ++k)
            QCOMPARE(SimplePredictor::mispredicts(42, k, 5.0), static_cast<bool>(a[k]));
        // reset() restarts the sequence.
        SimplePredictor p(5.0, 42);
        for (int i = 0; i < 10; ++i)
            p.predictAndUpdate(conditional(1, true));
        p.reset();
        for (std::size_t i = 0; i < 1000; ++i)
            QCOMPARE(p.predictAndUpdate(conditional(1, true)), static_cast<bool>(a[i]));
    }

    void simpleExtremes() {
        SimplePredictor never(0.0), always(100.0);
        for (int i = 0; i < 10000; ++i) {
            QVERIFY(!never.predictAndUpdate(conditional(0x401000, true)));
            QVERIFY(always.predictAndUpdate(conditional(0x401000, true)));
        }
        QVERIFY_THROWS_EXCEPTION(ConcordeError, SimplePredictor(-1.0));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, SimplePredictor(100.5));
    }
};

QTEST_APPLESS_MAIN(AnalysisBranchTest)
#include "AnalysisBranchTest.moc"
