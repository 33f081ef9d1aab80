// The branch-target front end (BTB, return stack, indirect-target predictor): the shared
// BranchTargetPredictor on hand-made branch streams, then the synthetic kernels through the
// reference simulator and the trace analysis, which must see the same events.
#include "../support/KernelTrace.h"
#include "analysis/BranchTargetPredictor.h"
#include "analysis/RegionAnalyzer.h"
#include "bounds/FrontEndModel.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
#include "refsim/OutOfOrderCore.h"
#include "trace/TraceReader.h"

#include <QtTest>
#include <map>
#include <tuple>

using namespace concorde;

namespace {

TraceRecord branch(std::uint64_t pc, BranchKind kind, std::uint64_t target, bool taken = true) {
    TraceRecord r;
    r.pc = pc;
    r.size = kind == BranchKind::Return ? 1 : 5;
    r.instrClass = InstrClass::Branch;
    r.branchKind = kind;
    r.taken = taken;
    r.branchTarget = target;
    return r;
}

BranchTargetSpec onlyBtb(std::uint32_t entries, std::uint32_t ways) {
    BranchTargetSpec spec;
    spec.btbEntries = entries;
    spec.btbWays = ways;
    spec.rasEntries = 0;
    spec.indirectEntries = 0;
    return spec;
}

/// Outcomes of the branches of `pass` passes over `stream`, counted over the last pass only.
std::map<TargetOutcome, int> lastPass(BranchTargetPredictor& predictor,
                                      const std::vector<TraceRecord>& stream, int passes) {
    std::map<TargetOutcome, int> counts;
    for (int p = 0; p < passes; ++p)
        for (const TraceRecord& r : stream) {
            const TargetOutcome outcome = predictor.predictAndUpdate(r);
            if (p + 1 == passes)
                ++counts[outcome];
        }
    return counts;
}

/// A chain of `depth` calls from distinct sites (site k at 0x10000·k) and the matching returns.
std::vector<TraceRecord> callChain(int depth) {
    std::vector<TraceRecord> stream;
    for (int k = 1; k <= depth; ++k)
        stream.push_back(branch(0x10000u * k, BranchKind::Call, 0x10000u * (k + 1)));
    for (int k = depth; k >= 1; --k)
        stream.push_back(branch(0x10000u * (k + 1) + 0x100, BranchKind::Return, 0x10000u * k + 5));
    return stream;
}

/// The dispatch sequence of the indirect-dispatch kernel's cyclic pattern over `handlers`.
std::vector<TraceRecord> cyclicDispatch(int handlers) {
    std::vector<TraceRecord> stream;
    for (int k = 1; k < handlers; ++k) {
        stream.push_back(branch(0x400000, BranchKind::Indirect, 0x500000));
        stream.push_back(branch(0x400000, BranchKind::Indirect, 0x500000 + 0x40u * k));
    }
    return stream;
}

/// Everything at its widest, perfect direction prediction: only the front end binds.
CoreConfig widest() {
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all())
        config.set(spec.id, spec.grid.back());
    config.set(ParamId::BranchPredictor, 0);
    config.set(ParamId::BpMissPct, 0);
    return config;
}

class Counter : public SimulationListener {
public:
    void onMispredict(const MispredictEvent&) override { ++mispredicts; }
    void onRedirect(const RedirectEvent&) override { ++redirects; }
    std::uint64_t mispredicts = 0;
    std::uint64_t redirects = 0;
};

struct Simulated {
    double cpi = 0;
    std::uint64_t mispredicts = 0;
    std::uint64_t redirects = 0;
    AnnotatedRegion::Stats analysis;
};

Simulated simulate(const testing::KernelTrace& kernel, const PipelineSpec& pipeline) {
    OutOfOrderCore core(widest(), {}, pipeline);
    Counter counter;
    core.addListener(counter);
    const std::uint64_t cycles = core.run(kernel.records, kernel.warmup);
    Simulated result;
    result.cpi = double(cycles) / double(kernel.records.size() - kernel.warmup);
    result.mispredicts = counter.mispredicts;
    result.redirects = counter.redirects;
    const CoreConfig config = widest();
    result.analysis =
        RegionAnalyzer({}, {}, {}, pipeline.targets)
            .analyze(kernel.records, kernel.warmup, MemoryConfig::fromCoreConfig(config))
            .stats;
    return result;
}

/// Region 0 of the perl sample trace: an interpreter, with returns, indirect jumps and calls.
std::vector<TraceRecord> interpreterRecords() {
    TraceReader reader(CONCORDE_SOURCE_DIR "/data/samples/perl-regex.ctrace");
    std::vector<TraceRecord> records;
    reader.readRegion(0, records);
    return records;
}

/// Tables small enough that every set keeps replacing on that trace.
BranchTargetSpec smallTables() {
    BranchTargetSpec small;
    small.btbEntries = 64;
    small.btbWays = 4;
    small.rasEntries = 4;
    small.indirectEntries = 32;
    small.indirectWays = 2;
    return small;
}

} // namespace

class BranchTargetTest : public QObject {
    Q_OBJECT

private slots:
    void defaultsAreValidAndBadSpecsRejected() {
        BranchTargetSpec spec;
        spec.validate();
        QCOMPARE(spec.btbEntries % spec.btbWays, 0u);
        spec.btbEntries = 100;
        spec.btbWays = 6;
        QVERIFY_THROWS_EXCEPTION(ConcordeError, BranchTargetPredictor{spec});
        // The bounds' default bubble is the simulator's.
        QCOMPARE(FrontEndModel::kDefaultBtbMissBubble, PipelineSpec{}.btbMissBubble());
    }

    // 16 entries in 4 sets of 4 ways; each aligned run of 4 slots 4 bytes apart covers the
    // 4 sets (XOR with the run's higher digits permutes them). 16 jumps are
    // 4 per set: all hit from the second pass. 20 jumps are 5 per set, cycled in a fixed order
    // through 4 LRU ways: each is evicted 4 accesses of its set after its use, before its next
    // use 5 accesses later, so every jump misses on every pass.
    void btbHoldsItsCapacityUnderLru() {
        for (const auto& [count, misses] : {std::pair{16, 0}, std::pair{20, 20}}) {
            std::vector<TraceRecord> jumps;
            for (int k = 0; k < count; ++k)
                jumps.push_back(branch(0x1000 + 4u * k, BranchKind::DirectUnconditional,
                                       0x1000 + 4u * ((k + 1) % count)));
            BranchTargetPredictor predictor(onlyBtb(16, 4));
            auto counts = lastPass(predictor, jumps, 3);
            QCOMPARE(counts[TargetOutcome::BtbMiss], misses);
            QCOMPARE(counts[TargetOutcome::Correct], count - misses);
            QCOMPARE(counts[TargetOutcome::Mispredicted], 0);
        }
        // The set is pc / 4 XOR-folded into 2 bits (4 sets). pc / 4 = 0x400 + x with x in
        // {0, 5, 10, 15, 17}: the base adds the same digit to every fold, and the base-4 digits
        // of x (0 | 1,1 | 2,2 | 3,3 | 1,0,1) XOR to 0, so all five share a set: 5 > 4 ways.
        std::vector<TraceRecord> sameSet;
        for (const std::uint64_t x : {0, 5, 10, 15, 17})
            sameSet.push_back(branch(0x1000 + 4 * x, BranchKind::DirectUnconditional, 0x9000));
        BranchTargetPredictor predictor(onlyBtb(16, 4));
        QCOMPARE((lastPass(predictor, sameSet, 3)[TargetOutcome::BtbMiss]), 5);
        // Not-taken conditional branches need no target: never a miss, and they take no entry.
        BranchTargetPredictor quiet(onlyBtb(16, 4));
        for (int k = 0; k < 100; ++k)
            QCOMPARE(quiet.predictAndUpdate(
                         branch(0x2000 + 4u * k, BranchKind::DirectConditional, 0x3000, false)),
                     TargetOutcome::Correct);
    }

    // A return stack of 4: of 6 nested calls from distinct sites the 4 innermost returns are
    // right and the 2 outer ones read overwritten slots; with 4 nested calls all are right.
    // Within the stack the BTB (large, warm from the first pass) hits.
    void returnStackKeepsTheInnermostReturns() {
        BranchTargetSpec spec;
        spec.rasEntries = 4;
        for (const auto& [depth, wrong] : {std::pair{6, 2}, std::pair{4, 0}, std::pair{12, 8}}) {
            BranchTargetPredictor predictor(spec);
            auto counts = lastPass(predictor, callChain(depth), 3);
            QCOMPARE(counts[TargetOutcome::Mispredicted], wrong);
            QCOMPARE(counts[TargetOutcome::Correct], 2 * depth - wrong);
        }
        // Self-recursion from one site pushes the same address: only the outermost return (to
        // the first caller, whose address was overwritten) is wrong at depth 10 > 4.
        std::vector<TraceRecord> recursion;
        recursion.push_back(branch(0x1000, BranchKind::Call, 0x8000));
        for (int k = 1; k < 10; ++k)
            recursion.push_back(branch(0x8010, BranchKind::Call, 0x8000));
        for (int k = 1; k < 10; ++k)
            recursion.push_back(branch(0x8020, BranchKind::Return, 0x8015));
        recursion.push_back(branch(0x8020, BranchKind::Return, 0x1005));
        BranchTargetPredictor predictor(spec);
        QCOMPARE((lastPass(predictor, recursion, 3)[TargetOutcome::Mispredicted]), 1);
        // A cold first return (nothing pushed) mispredicts; a right return that missed the BTB
        // is only a decode redirect.
        BranchTargetPredictor cold(spec);
        QCOMPARE(cold.predictAndUpdate(branch(0x9000, BranchKind::Return, 0x1234)),
                 TargetOutcome::Mispredicted);
        QCOMPARE(cold.predictAndUpdate(branch(0x1000, BranchKind::Call, 0x8000)),
                 TargetOutcome::BtbMiss);
        QCOMPARE(cold.predictAndUpdate(branch(0x8020, BranchKind::Return, 0x1005)),
                 TargetOutcome::BtbMiss);
    }

    // The cyclic pattern 0,1,0,2,0,3 (4 handlers): after handler k ≠ 0 comes 0; after 0 comes
    // the successor of the handler before it. With two or more targets of history every context
    // has one successor (0 wrong once trained); with one, the 3 dispatches after a 0 (half of
    // the 6) see a successor that changed since the context was last met; with none, the
    // prediction is the previous target, never the next (consecutive targets always differ).
    void indirectPredictorLearnsHistoryPatterns() {
        for (const auto& [history, wrong] :
             {std::pair{4u, 0}, std::pair{2u, 0}, std::pair{1u, 3}, std::pair{0u, 6}}) {
            BranchTargetSpec spec;
            spec.indirectHistory = history;
            BranchTargetPredictor predictor(spec);
            auto counts = lastPass(predictor, cyclicDispatch(4), 10);
            QVERIFY2(counts[TargetOutcome::Mispredicted] == wrong,
                     qPrintable(QString("history %1: %2 wrong")
                                    .arg(history)
                                    .arg(counts[TargetOutcome::Mispredicted])));
        }
        // A perfect (size 0) indirect predictor never misses.
        BranchTargetSpec perfect;
        perfect.indirectEntries = 0;
        perfect.indirectHistory = 0;
        BranchTargetPredictor predictor(perfect);
        QCOMPARE((lastPass(predictor, cyclicDispatch(4), 2)[TargetOutcome::Mispredicted]), 0);
    }

    // Calls are predicted by their BTB entry's last target: a direct call is right once
    // allocated. A call site alternating between two targets (an indirect call): call 0 misses
    // the BTB; call 1 changes target (wrong, and from then on the indirect table predicts it);
    // calls 2..6 each meet a history of the last 4 targets not seen before (the history ring
    // still holds its initial zeros for 2..4; 5 and 6 are the first of the two periodic
    // histories) and get the fallback, the BTB's last target, which is the other one: wrong.
    // From call 7 on each history has been met with the same successor: right. 6 wrong of 100.
    void callsUseTheLastTarget() {
        BranchTargetPredictor predictor;
        QCOMPARE(predictor.predictAndUpdate(branch(0x1000, BranchKind::Call, 0x8000)),
                 TargetOutcome::BtbMiss);
        QCOMPARE(predictor.predictAndUpdate(branch(0x1000, BranchKind::Call, 0x8000)),
                 TargetOutcome::Correct);
        int wrong = 0;
        for (int k = 0; k < 100; ++k)
            wrong += predictor.predictAndUpdate(
                         branch(0x2000, BranchKind::Call, k % 2 ? 0x8000 : 0x9000)) ==
                     TargetOutcome::Mispredicted;
        QCOMPARE(wrong, 6);
        predictor.reset();
        QCOMPARE(predictor.predictAndUpdate(branch(0x1000, BranchKind::Call, 0x8000)),
                 TargetOutcome::BtbMiss);
    }

    // predict() then update() are predictAndUpdate() in two steps: on a real interpreter trace
    // (returns, indirect jumps, calls), with the default sizes, with small tables and with
    // perfect ones, the outcomes agree branch by branch and the states end equal; predict()
    // changes nothing.
    void splitStepsMatchPredictAndUpdate() {
        const std::vector<TraceRecord> records = interpreterRecords();
        const BranchTargetSpec small = smallTables();
        BranchTargetSpec perfect;
        perfect.btbEntries = perfect.rasEntries = perfect.indirectEntries = 0;
        for (const BranchTargetSpec& spec : {BranchTargetSpec{}, small, perfect}) {
            BranchTargetPredictor oneCall(spec);
            BranchTargetPredictor twoSteps(spec);
            std::map<TargetOutcome, int> outcomes;
            for (std::size_t i = 0; i < records.size(); ++i) {
                const TraceRecord& r = records[i];
                const TargetOutcome expected = oneCall.predictAndUpdate(r);
                const std::vector<std::uint8_t> before =
                    i % 997 == 0 ? twoSteps.saveState() : std::vector<std::uint8_t>{};
                const TargetPrediction prediction = twoSteps.predict(r.pc, r.branchKind);
                if (!before.empty())
                    QVERIFY(twoSteps.saveState() == before);
                twoSteps.update(r.pc, r.branchKind, r.taken, r.branchTarget, r.pc + r.size);
                const TargetOutcome outcome = r.isBranch() && r.taken
                                                  ? prediction.outcomeFor(r.branchTarget)
                                                  : TargetOutcome::Correct;
                QCOMPARE(outcome, expected);
                ++outcomes[expected];
            }
            QVERIFY(twoSteps.saveState() == oneCall.saveState());
            if (spec == small)
                QVERIFY(outcomes[TargetOutcome::BtbMiss] > 1000 &&
                        outcomes[TargetOutcome::Mispredicted] > 100);
        }
    }

    // A caller that knows a call's type (ChampSim's branch types): a call site alternating
    // between two targets. Known direct, it is never handed to the indirect table: after the
    // first (a BTB miss) every call is predicted by the last target, the other one, wrong 99
    // times. Known indirect, the indirect table predicts it from the first call, which has no
    // entry and no BTB target (wrong); calls 1..5 meet histories not seen before and get the
    // BTB's last target (wrong); from call 6 on each history has been met: 6 wrong of 100 (the
    // inferred type of callsUseTheLastTarget also gets 6, but its first is a BTB miss).
    // A call pushes the return address it is given.
    void knownCallTypes() {
        for (const auto& [type, wrong, first] :
             {std::tuple{CallType::Direct, 99, TargetOutcome::BtbMiss},
              std::tuple{CallType::Indirect, 6, TargetOutcome::Mispredicted}}) {
            BranchTargetPredictor predictor;
            std::map<TargetOutcome, int> outcomes;
            for (int k = 0; k < 100; ++k) {
                const std::uint64_t target = k % 2 ? 0x8000 : 0x9000;
                const TargetOutcome outcome =
                    predictor.predict(0x2000, BranchKind::Call, type).outcomeFor(target);
                if (k == 0)
                    QCOMPARE(outcome, first);
                ++outcomes[outcome];
                predictor.update(0x2000, BranchKind::Call, true, target, 0x2005, type);
            }
            QCOMPARE(outcomes[TargetOutcome::Mispredicted], wrong);
        }
        BranchTargetPredictor predictor;
        predictor.update(0x1000, BranchKind::Call, true, 0x8000, 0x1007, CallType::Direct);
        const TargetPrediction ret = predictor.predict(0x8020, BranchKind::Return);
        QCOMPARE(ret.target, std::uint64_t(0x1007));
        QVERIFY(ret.checked && !ret.btbHit);
        // A branch not taken trains nothing.
        const std::vector<std::uint8_t> before = predictor.saveState();
        predictor.update(0x3000, BranchKind::Indirect, false, 0x4000, 0);
        QVERIFY(predictor.saveState() == before);
    }

    void zeroSizesArePerfect() {
        BranchTargetSpec perfect;
        perfect.btbEntries = perfect.rasEntries = perfect.indirectEntries = 0;
        BranchTargetPredictor predictor(perfect);
        for (int k = 0; k < 1000; ++k)
            for (const TraceRecord& r :
                 {branch(0x1000 + 4u * k, BranchKind::DirectUnconditional, 0x9000),
                  branch(0x9000, BranchKind::Return, 0x1000u + k),
                  branch(0x9100, BranchKind::Indirect, 0x5000u + 8 * (k % 7)),
                  branch(0x9200, BranchKind::Call, 0x6000u + 8 * (k % 3))})
                QCOMPARE(predictor.predictAndUpdate(r), TargetOutcome::Correct);
    }

    // btb-footprint through the simulator with a 64-entry, 4-way BTB (16 sets; every aligned run
    // of 16 slots covers them once, see the kernel): 64 jumps fit
    // (4 per set), CPI 1 (one taken jump per cycle); 80 jumps (5 per set) all miss, each costing
    // the decode-redirect bubble: CPI 1 + btbMissBubble() = 3 with the default pipeline. The
    // analysis runs the same predictor, so it counts exactly the simulator's redirects.
    void btbFootprintKernel() {
        PipelineSpec pipeline;
        pipeline.targets.btbEntries = 64;
        pipeline.targets.btbWays = 4;
        for (const auto& [branches, misses] : {std::pair{64, false}, std::pair{80, true}}) {
            const std::uint64_t iterations = 200;
            const testing::KernelTrace kernel = testing::kernel(
                "btb-footprint", {{"branches", std::to_string(branches)}}, iterations);
            const Simulated s = simulate(kernel, pipeline);
            const double expected = misses ? 1.0 + pipeline.btbMissBubble() : 1.0;
            // Pipeline fill adds a few cycles over 16k instructions.
            QVERIFY2(std::abs(s.cpi - expected) < 0.01, qPrintable(QString::number(s.cpi)));
            const std::uint64_t expectedMisses = misses ? iterations * branches : 0;
            QCOMPARE(s.redirects, expectedMisses);
            QCOMPARE(s.analysis.btbMisses, expectedMisses);
            QCOMPARE(s.mispredicts, std::uint64_t(0));
        }
    }

    // A saved and restored front end (a region's warm state) behaves from there on exactly as
    // the original, branch by branch, on a real interpreter trace (returns, indirect jumps,
    // calls) with the default sizes and with tables small enough that every set keeps
    // replacing; the bytes are a few per entry; damaged bytes are refused.
    void savedStateContinuesExactly() {
        const std::vector<TraceRecord> records = interpreterRecords();
        const BranchTargetSpec small = smallTables();
        for (const BranchTargetSpec& spec : {BranchTargetSpec{}, small}) {
            BranchTargetPredictor original(spec);
            const std::size_t half = records.size() / 2;
            for (std::size_t i = 0; i < half; ++i)
                original.predictAndUpdate(records[i]);
            const std::vector<std::uint8_t> bytes = original.saveState();
            BranchTargetPredictor restored = BranchTargetPredictor::restoreState(bytes);
            QVERIFY(restored.spec() == spec);
            QVERIFY(restored.saveState() == bytes);
            std::map<TargetOutcome, int> outcomes;
            for (std::size_t i = half; i < records.size(); ++i) {
                const TargetOutcome expected = original.predictAndUpdate(records[i]);
                QCOMPARE(restored.predictAndUpdate(records[i]), expected);
                ++outcomes[expected];
            }
            // The stream exercises the outcomes, so the comparison above means something (with
            // the default sizes the sample's second half neither misses nor mispredicts).
            QVERIFY(outcomes[TargetOutcome::Correct] > 1000);
            if (spec == small)
                QVERIFY2(outcomes[TargetOutcome::BtbMiss] > 1000 &&
                             outcomes[TargetOutcome::Mispredicted] > 100,
                         qPrintable(QString("%1 BTB misses, %2 wrong targets")
                                        .arg(outcomes[TargetOutcome::BtbMiss])
                                        .arg(outcomes[TargetOutcome::Mispredicted])));
            QVERIFY2(bytes.size() < 16 * (spec.btbEntries + spec.indirectEntries) + 200,
                     qPrintable(QString::number(bytes.size())));
            for (const std::size_t cut :
                 {std::size_t(0), std::size_t(2), bytes.size() / 2, bytes.size() - 1})
                QVERIFY_THROWS_EXCEPTION(ConcordeError, BranchTargetPredictor::restoreState(
                                                            std::span(bytes).first(cut)));
        }
        // A cold predictor saves and restores as cold.
        const BranchTargetPredictor cold;
        QVERIFY(BranchTargetPredictor::restoreState(cold.saveState()).saveState() ==
                cold.saveState());
    }

    // call-depth with a 4-entry return stack: depth 7 mispredicts 3 returns per iteration
    // (the outer depth − 4), each costing the minimum misprediction penalty P instead of the
    // one cycle a taken branch takes: cycles per iteration = (2·7 + 1) + 3·(P − 1).
    void callDepthKernel() {
        PipelineSpec pipeline;
        pipeline.targets.rasEntries = 4;
        const std::uint64_t iterations = 1000;
        for (const auto& [depth, wrong] : {std::pair{4, 0}, std::pair{7, 3}}) {
            const testing::KernelTrace kernel =
                testing::kernel("call-depth", {{"depth", std::to_string(depth)}}, iterations);
            const Simulated s = simulate(kernel, pipeline);
            QCOMPARE(s.mispredicts, iterations * wrong);
            QCOMPARE(s.analysis.targetMispredictions, iterations * wrong);
            const double period = 2.0 * depth + 1;
            const double expected =
                (period + wrong * (pipeline.minimumMispredictPenalty() - 1.0)) / period;
            QVERIFY2(std::abs(s.cpi - expected) < 0.01,
                     qPrintable(QString("%1 vs %2").arg(s.cpi).arg(expected)));
        }
    }

    // indirect-dispatch, 8 handlers: the cyclic pattern is learnt (2 cycles per 3-instruction
    // dispatch); the random one is right 1 time in 8, and each wrong dispatch adds P − 1.
    void indirectDispatchKernel() {
        const PipelineSpec pipeline;
        const std::uint64_t iterations = 20000;
        const testing::KernelTrace cyclic =
            testing::kernel("indirect-dispatch", {{"pattern", "cyclic"}}, iterations);
        const Simulated c = simulate(cyclic, pipeline);
        QCOMPARE(c.mispredicts, std::uint64_t(0));
        QVERIFY2(std::abs(c.cpi - 2.0 / 3.0) < 0.01, qPrintable(QString::number(c.cpi)));

        const testing::KernelTrace random =
            testing::kernel("indirect-dispatch", {{"pattern", "random"}}, iterations);
        const Simulated r = simulate(random, pipeline);
        QCOMPARE(r.analysis.targetMispredictions, r.mispredicts);
        const double fraction = double(r.mispredicts) / double(iterations);
        // 7/8 with a binomial standard deviation of sqrt(7/64 / 20000) = 0.0023.
        QVERIFY2(std::abs(fraction - 7.0 / 8.0) < 0.01, qPrintable(QString::number(fraction)));
        const double expected =
            (2.0 + fraction * (pipeline.minimumMispredictPenalty() - 1.0)) / 3.0;
        QVERIFY2(std::abs(r.cpi - expected) < 0.01,
                 qPrintable(QString("%1 vs %2").arg(r.cpi).arg(expected)));
    }
};

QTEST_APPLESS_MAIN(BranchTargetTest)
#include "BranchTargetTest.moc"
