// Analytical models: hand-computed tiny regions for every model, and the cross-check against
// the reference simulator on single-resource kernels.
#include "../support/KernelTrace.h"
#include "../support/SampleRegion.h"
#include "analysis/RegionAnalyzer.h"
#include "bounds/BoundsCalculator.h"
#include "bounds/FrontEndModel.h"
#include "bounds/GridBounds.h"
#include "bounds/IssueModel.h"
#include "bounds/QueueModel.h"
#include "bounds/RobModel.h"
#include "common/ConcordeError.h"
#include "refsim/OutOfOrderCore.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/synthetic/KernelCatalog.h"
#include "trace/synthetic/MicrobenchKernel.h"
#include "trace/synthetic/VectorSink.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <optional>

using namespace concorde;

namespace {

AnnotatedInstruction alu(std::uint16_t latency, std::vector<std::int32_t> producers = {}) {
    AnnotatedInstruction inst;
    inst.latency = inst.classLatency = latency;
    for (auto p : producers)
        inst.producers.add(p, false);
    return inst;
}

// `level` is the load's in-order level; `episodeLevel` that of its memory-ordering episode (the
// level of the episode's first load in program order), which defaults to `level`.
AnnotatedInstruction load(std::uint32_t line, std::uint32_t episode, MemLevel level,
                          std::vector<std::int32_t> producers = {},
                          std::optional<MemLevel> episodeLevel = std::nullopt) {
    AnnotatedInstruction inst;
    inst.instrClass = InstrClass::Load;
    inst.loadCount = 1;
    inst.lineId = line;
    inst.episodeId = episode;
    inst.loadLevel = level;
    inst.episodeLevel = episodeLevel.value_or(level);
    inst.classLatency = 0;
    inst.latency = static_cast<std::uint16_t>(MemorySystemSpec().latency(level));
    for (auto p : producers)
        inst.producers.add(p, false);
    return inst;
}

AnnotatedRegion regionOf(std::vector<AnnotatedInstruction> instructions, std::uint32_t lines = 4,
                         std::uint32_t episodes = 4) {
    AnnotatedRegion region;
    region.instructions = std::move(instructions);
    region.lineCount = lines;
    region.episodeCount = episodes;
    return region;
}

using Kernel = concorde::testing::KernelTrace;
using concorde::testing::kernel;

CoreConfig widest() {
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all())
        config.set(spec.id, spec.grid.back());
    config.applyAssignment("bp=simple");
    config.applyAssignment("bp_miss_pct=0");
    return config;
}

} // namespace

class BoundsTest : public QObject {
    Q_OBJECT

private slots:
    // Three dependent instructions (latencies 3, 1, 2) through a two-entry ROB:
    //   c0 = 3; i1 starts at f0 = 3, c1 = 4; i2 arrives at c0 = 3, starts at f1 = 4, c2 = 6.
    void robChainThroughTwoEntries() {
        const auto region = regionOf({alu(3), alu(1, {0}), alu(2, {1})});
        const auto result = RobModel::run(region, 2, 3);
        QCOMPARE(result.commit, (std::vector<double>{3, 4, 6}));
        QCOMPARE(result.ipc.size(), std::size_t(1));
        QCOMPARE(result.ipc[0], 0.5f);
        QCOMPARE(result.issueWait[0], float((0 + 3 + 1) / 3.0)); // s − a: 0, 3, 1
    }

    // Four independent 5-cycle ops, ROB of 2: the second pair arrives when the first commits.
    void robIndependentPairs() {
        const auto region = regionOf({alu(5), alu(5), alu(5), alu(5)});
        const auto result = RobModel::run(region, 2, 2);
        QCOMPARE(result.commit, (std::vector<double>{5, 5, 10, 10}));
        QCOMPARE(result.ipc, (WindowSeries{0.4f, 0.4f}));
        QCOMPARE(RobModel::run(region, 4, 4).commit.back(), 5.0);
    }

    // Memory ordering inside the ROB model: the younger load to a line starts first and pays
    // the DRAM access; the older one (its start delayed by a 20-cycle op) waits for the line.
    void robUsesMemoryOrdering() {
        const auto region = regionOf({alu(20), load(0, 0, MemLevel::Dram, {0}),
                                      load(0, 0, MemLevel::L1, {}, MemLevel::Dram)});
        const auto result = RobModel::run(region, 8, 3);
        QCOMPARE(result.commit, (std::vector<double>{20, 200, 200}));
        // Program-order evaluation would have charged DRAM to the older load: 20 + 200.
    }

    void loadAndStoreQueues() {
        // LQ of 1: three L1-hit loads serialise (4 cycles each); the ALU op in between is free.
        const auto loads = regionOf(
            {load(0, 0, MemLevel::L1), alu(1), load(1, 1, MemLevel::L1), load(2, 2, MemLevel::L1)});
        QCOMPARE(QueueModel::run(loads, QueueModel::Kind::Load, 1, 4), (WindowSeries{4.0f / 12}));
        QCOMPARE(QueueModel::run(loads, QueueModel::Kind::Load, 3, 4), (WindowSeries{1.0f}));
        // SQ of 2 with 1-cycle L1-hit stores; loads are free for the SQ. An entry frees when
        // its store is written: sent the cycle after commit, a hit is written then. Stores 0, 1
        // dispatch at 0, commit at 1, are written at 2; stores 2, 3 dispatch at 2, commit at 3.
        AnnotatedInstruction store = alu(1);
        store.instrClass = InstrClass::Store;
        store.storeCount = 1;
        const auto stores = regionOf({store, store, store, store, load(0, 0, MemLevel::Dram)});
        QCOMPARE(QueueModel::run(stores, QueueModel::Kind::Store, 2, 5), (WindowSeries{5.0f / 3}));
    }

    // The LQ through commit: a load holds its entry until it commits, so it waits behind every
    // older instruction. LQ of 1, window of 4: alu(10), two independent L1-hit loads (4 cycles),
    // alu(1). The first load finishes at 4 but commits behind the alu at 10; only then may the
    // second load (and the alu after it, dispatched in order) arrive: it finishes at 14.
    //   commits 10, 10, 14, 14: IPC 4 / 14.
    // Loads alone, the ALU ops free, serialise only on the loads: 8 cycles, IPC 0.5.
    void loadQueueThroughCommit() {
        const auto region =
            regionOf({alu(10), load(0, 0, MemLevel::L1), load(1, 1, MemLevel::L1), alu(1)});
        RobModel model(region);
        const auto result = model.runLoadQueue(1, 4);
        QCOMPARE(result.commit, (std::vector<double>{10, 10, 14, 14}));
        QCOMPARE(result.ipc, (WindowSeries{4.0f / 14}));
        QCOMPARE(QueueModel::run(region, QueueModel::Kind::Load, 1, 4), (WindowSeries{0.5f}));
        // Two entries hold both loads at once: nothing waits, everything commits behind the
        // alu(10).
        QCOMPARE(model.runLoadQueue(2, 4).commit, (std::vector<double>{10, 10, 10, 10}));
        // Without loads the LQ never gates: the region's dataflow limit (3, then 3 + 1).
        const auto chain = regionOf({alu(3), alu(1, {0})});
        QCOMPARE(RobModel(chain).runLoadQueue(1, 2).commit, (std::vector<double>{3, 4}));
        // The ROB runs of the same model are unchanged by the LQ runs in between.
        QCOMPARE(model.run(2, 4).commit, RobModel::run(region, 2, 4).commit);
    }

    // On real programs with a small LQ and every other resource wide, the LQ through commit
    // is what the simulator sees: its min of bounds stays an upper bound of the simulated IPC
    // and comes close to it, where loads alone leave the LQ looking twice as large as it is.
    void loadQueueThroughCommitOnRealPrograms() {
        CoreConfig config = widest();
        config.applyAssignment("lq=8");
        const MemoryConfig memory = MemoryConfig::fromCoreConfig(config);
        for (const char* sample : {"gzip-decompress", "xz-compress", "perl-regex"}) {
            const auto [records, warmup, warm] = testing::sampleRegion(sample, 0);
            const double simulated =
                1.0 / ReferenceSimulator::simulate(records, warmup, config,
                                                   ReferenceSimulator::kDefaultWindow, warm.get())
                          .cpi();
            const AnnotatedRegion region = RegionAnalyzer().analyze(records, warmup, memory, warm);
            const auto ipcOf = [&](bool throughCommit) {
                AnalysisRevision analysis = AnalysisRevision::current();
                analysis.loadQueueThroughCommit = throughCommit;
                const ResourceBounds bounds =
                    BoundsCalculator(kDefaultWindowSize, 1, analysis).compute(region, config);
                const auto lq = static_cast<std::size_t>(
                    std::find(bounds.resources.begin(), bounds.resources.end(), "lq") -
                    bounds.resources.begin());
                // Over the region: instructions over the windows' summed times.
                const WindowSeries minimum = bounds.minimum();
                double time = 0;
                for (std::size_t k = 0; k < minimum.size(); ++k)
                    time += double(std::min<std::size_t>(kDefaultWindowSize,
                                                         region.size() - k * kDefaultWindowSize)) /
                            minimum[k];
                return std::pair{double(region.size()) / time, bounds.meanBound(lq)};
            };
            const auto [throughCommit, lqThroughCommit] = ipcOf(true);
            const auto [loadsOnly, lqLoadsOnly] = ipcOf(false);
            qInfo("%s lq=8: simulated IPC %.3f; min of bounds %.3f through commit (LQ %.3f), "
                  "%.3f loads only (LQ %.3f)",
                  sample, simulated, throughCommit, lqThroughCommit, loadsOnly, lqLoadsOnly);
            QVERIFY2(
                throughCommit >= 0.97 * simulated && throughCommit <= 1.35 * simulated,
                qPrintable(
                    QString("%1: %2 against %3").arg(sample).arg(throughCommit).arg(simulated)));
            QVERIFY(lqLoadsOnly > 1.6 * simulated);
            QVERIFY(lqThroughCommit < lqLoadsOnly);
        }
    }

    // The store drain: misses hold their entries until the line arrives, share the MSHRs, and a
    // store to a line already on its way waits for it.
    void storeQueueDrainsThroughTheCaches() {
        const auto storeTo = [](std::uint32_t line, MemLevel level) {
            AnnotatedInstruction inst = alu(1);
            inst.instrClass = InstrClass::Store;
            inst.storeCount = 1;
            inst.lineId = line;
            inst.storeLevel = level;
            return inst;
        };
        const double dram = MemorySystemSpec().latency(MemLevel::Dram); // 200
        const double l2 = MemorySystemSpec().latency(MemLevel::L2);     // 12
        // Two stores, each to its own L2 line, SQ of 1: store 0 commits at 1, is sent at 2 and
        // written at 14; store 1 dispatches at 14, commits at 15. Two instructions in 15 cycles.
        const auto twoL2 = regionOf({storeTo(0, MemLevel::L2), storeTo(1, MemLevel::L2)});
        QCOMPARE(QueueModel::run(twoL2, QueueModel::Kind::Store, 1, 2),
                 (WindowSeries{static_cast<float>(2 / (2 + l2 + 1))}));
        // A DRAM miss, then a hit to the same line (the in-order cache says L1) and a hit to
        // another line, SQ of 2: the second store waits for the line (written at 2 + 200), so
        // the third dispatches only then; with an SQ of 3 nothing waits.
        const auto sameLine = regionOf(
            {storeTo(0, MemLevel::Dram), storeTo(0, MemLevel::L1), storeTo(1, MemLevel::L1)});
        QCOMPARE(QueueModel::run(sameLine, QueueModel::Kind::Store, 2, 3),
                 (WindowSeries{static_cast<float>(3 / (2 + dram + 1))}));
        QCOMPARE(QueueModel::run(sameLine, QueueModel::Kind::Store, 3, 3), (WindowSeries{3.0f}));
        // 64 DRAM misses to distinct lines, a large SQ and 16 MSHRs: the 17th is sent when the
        // first fill arrives, so the last of four rounds is written at about 4 × 200 cycles,
        // yet commits stay one cycle: the bound sees the MSHRs only through a full SQ. With an
        // SQ of 16 the 17th store dispatches when the first is written (2 + 200).
        std::vector<AnnotatedInstruction> misses;
        for (std::uint32_t i = 0; i < 64; ++i)
            misses.push_back(storeTo(i, MemLevel::Dram));
        auto stream = regionOf(misses, 64);
        QCOMPARE(QueueModel::run(stream, QueueModel::Kind::Store, 256, 64), (WindowSeries{64.0f}));
        const auto bySq = QueueModel::run(stream, QueueModel::Kind::Store, 16, 64);
        QVERIFY2(bySq[0] > 64 / (4 * (dram + 2) + 1) * 0.95 && bySq[0] < 64 / (3 * dram),
                 qPrintable(QString::number(bySq[0])));
        QCOMPARE(QueueModel::kDefaultStoreMshrs, PipelineSpec().l1dMshrs);
        QCOMPARE(MemorySystemSpec().l1dMshrs, PipelineSpec().l1dMshrs);
    }

    void widthsAndPipes() {
        std::vector<AnnotatedInstruction> mix;
        for (int i = 0; i < 10; ++i)
            mix.push_back(alu(1));
        for (int i = 0; i < 4; ++i) {
            AnnotatedInstruction fp = alu(3);
            fp.instrClass = InstrClass::FpAdd;
            mix.push_back(fp);
        }
        for (int i = 0; i < 6; ++i)
            mix.push_back(load(0, 0, MemLevel::L1));
        AnnotatedInstruction store = alu(1);
        store.instrClass = InstrClass::Store;
        store.storeCount = 1;
        mix.push_back(store);
        mix.push_back(store); // 22 instructions: 10 ALU, 4 FP, 6 loads, 2 stores
        const auto region = regionOf(mix);
        const auto counts = IssueModel::count(region, 22);
        QCOMPARE(IssueModel::width(counts, IssueGroup::Alu, 2), (WindowSeries{22.0f * 2 / 10}));
        QCOMPARE(IssueModel::width(counts, IssueGroup::Fp, 1), (WindowSeries{22.0f / 4}));
        QCOMPARE(IssueModel::width(counts, IssueGroup::Memory, 2), (WindowSeries{22.0f * 2 / 8}));
        // n_L = 6, n_S = 2, one LS pipe and one load pipe:
        // worst T = 6/2 + 2/1 = 5, best T = max(2/1, 8/2) = 4.
        const auto pipes = IssueModel::pipes(counts, 1, 1);
        QCOMPARE(pipes.lower, (WindowSeries{22.0f / 5}));
        QCOMPARE(pipes.upper, (WindowSeries{22.0f / 4}));
    }

    void frontEnd() {
        // Three lines that each miss to DRAM (200 cycles), two instructions per line.
        std::vector<AnnotatedInstruction> code;
        for (int line = 0; line < 3; ++line) {
            AnnotatedInstruction first = alu(1);
            first.flags = AnnotatedInstruction::kNewFetchLine;
            first.fetchLevel = MemLevel::Dram;
            AnnotatedInstruction second = alu(1);
            second.fetchLevel = MemLevel::Dram;
            code.push_back(first);
            code.push_back(second);
        }
        AnnotatedRegion region = regionOf(code);
        // One fill at a time: lines arrive at 200, 400, 600.
        QCOMPARE(FrontEndModel::icacheFills(RegionIndex(region), 1, 6), (WindowSeries{6.0f / 600}));
        // Three fills: all lines requested at once.
        QCOMPARE(FrontEndModel::icacheFills(RegionIndex(region), 3, 6), (WindowSeries{6.0f / 200}));
        // Two fetch buffers: line 2 waits for line 0 to arrive.
        QCOMPARE(FrontEndModel::fetchBuffers(RegionIndex(region), 2, 6),
                 (WindowSeries{6.0f / 400}));
        // Fetch width 2 with a taken branch after 3 instructions: groups of 3 and 3 take
        // 2 + 2 cycles.
        region.instructions[2].flags |= AnnotatedInstruction::kTaken;
        QCOMPARE(FrontEndModel::fetchWidth(RegionIndex(region), 2, 6), (WindowSeries{6.0f / 4}));
        // The taken branch missed the BTB: fetch waits for decode to redirect it, so its group
        // costs the bubble more: 2 + bubble + 2 cycles (bubble 5 by default; 2 when given).
        region.instructions[2].flags |= AnnotatedInstruction::kBtbMiss;
        QCOMPARE(FrontEndModel::fetchWidth(RegionIndex(region), 2, 6), (WindowSeries{6.0f / 9}));
        QCOMPARE(FrontEndModel::fetchWidth(RegionIndex(region), 2, 6, 2), (WindowSeries{6.0f / 6}));
    }

    void mismatchedMemoryConfigIsAnError() {
        const auto k = kernel("chain-int-alu", {}, 10);
        const AnnotatedRegion region =
            RegionAnalyzer().analyze(k.records, k.warmup, MemoryConfig{});
        CoreConfig config;
        config.applyAssignment("l2_kb=512");
        QVERIFY_THROWS_EXCEPTION(ConcordeError, BoundsCalculator().compute(region, config));
    }

    // The grid sweep stores exactly what BoundsCalculator computes for each configuration.
    void gridMatchesSingleConfigurations() {
        const Kernel k = kernel("lq-knee", {{"fillers", "20"}}, 40);
        BoundsGrid grid = defaultBoundsGrid();
        grid[index(ParamId::L1dKb)] = {32, 64};
        grid[index(ParamId::L2Kb)] = {512};
        grid[index(ParamId::L1iKb)] = {32};
        const auto result = GridBounds::build(k.records, k.warmup, grid, 100);
        QCOMPARE(result.memoryConfigurations, std::size_t(2 * 1 * 1 * 2));
        std::map<std::string, int> perName;
        for (const auto& s : result.series)
            ++perName[s.name];
        QCOMPARE(perName["rob"], 4 * 10);
        QCOMPARE(perName["lq"], 4 * 9);
        QCOMPARE(perName["alu_issue"], 8);
        QCOMPARE(perName["pipes"], 4 * 5);
        QCOMPARE(perName["mispredicts_pki"], 1 + 6); // TAGE + simple at 6 rates
        CoreConfig config = widest();
        config.applyAssignment("l1d_kb=64");
        config.applyAssignment("l2_kb=512");
        config.applyAssignment("l1i_kb=32");
        config.applyAssignment("rob=48");
        config.applyAssignment("lq=24");
        config.applyAssignment("alu_issue=3");
        const AnnotatedRegion region =
            RegionAnalyzer().analyze(k.records, k.warmup, MemoryConfig::fromCoreConfig(config));
        const ResourceBounds single = BoundsCalculator(100).compute(region, config);
        const auto find = [&](const std::string& name, ParamId id,
                              double value) -> const WindowSeries& {
            for (const auto& s : result.series)
                if (s.name == name && (!s.memoryDependent || s.memory == region.memoryConfig) &&
                    s.settings.size() == 1 && s.settings[0] == std::pair{id, value})
                    return s.values;
            throw std::runtime_error("series not found: " + name);
        };
        const auto seriesOf = [&](const std::string& name) {
            return single.series[static_cast<std::size_t>(
                std::find(single.resources.begin(), single.resources.end(), name) -
                single.resources.begin())];
        };
        QCOMPARE(find("rob", ParamId::Rob, 48), seriesOf("rob"));
        QCOMPARE(find("lq", ParamId::LoadQueue, 24), seriesOf("lq"));
        QCOMPARE(find("alu_issue", ParamId::AluIssue, 3), seriesOf("alu_issue"));
        // Different ROB sizes give different series on this ROB-sensitive kernel.
        QVERIFY(find("rob", ParamId::Rob, 16) != find("rob", ParamId::Rob, 512));
        // Off-range grids are refused.
        grid[index(ParamId::Rob)] = {4};
        QVERIFY_THROWS_EXCEPTION(ConcordeError, GridBounds::build(k.records, k.warmup, grid, 100));
    }

    // Memory configurations that differ only in the L1i share their ROB and LQ series when the
    // data side of the analysis is the same, and only then: on real programs every series of
    // the grid equals a run of the ROB system on that configuration's own analysis.
    void gridSharesRobSeriesOnlyWhereTheDataSideIsTheSame() {
        BoundsGrid grid = defaultBoundsGrid();
        grid[index(ParamId::L1dKb)] = {32};
        grid[index(ParamId::L2Kb)] = {512};
        grid[index(ParamId::PrefetchDegree)] = {1};
        grid[index(ParamId::L1iKb)] = {32, 64, 128};
        grid[index(ParamId::Rob)] = {32, 256};
        grid[index(ParamId::LoadQueue)] = {16, 64};
        std::size_t reused = 0, same = 0;
        for (const char* sample : {"gzip-decompress", "xz-compress", "perl-regex"}) {
            const auto [records, warmup, warm] = testing::sampleRegion(sample, 0);
            const auto result =
                GridBounds::build(records, warmup, grid, kDefaultWindowSize, {}, warm);
            QCOMPARE(result.memoryConfigurations, std::size_t(3));
            reused += result.reusedMemoryConfigurations;
            std::vector<AnnotatedRegion> regions;
            for (int l1i : {32, 64, 128})
                regions.push_back(
                    RegionAnalyzer().analyze(records, warmup, MemoryConfig{32, l1i, 512, 1}, warm));
            std::vector<std::unique_ptr<RobModel>> models;
            for (const auto& region : regions)
                models.push_back(std::make_unique<RobModel>(region));
            for (std::size_t k = 1; k < models.size(); ++k)
                same += models[k]->sameSystemAs(*models[k - 1]);
            for (std::size_t k = 0; k < models.size(); ++k) {
                const auto find = [&](const std::string& name, ParamId id, double value) {
                    for (const auto& s : result.series)
                        if (s.name == name && s.memory == regions[k].memoryConfig &&
                            s.settings == std::vector{std::pair{id, value}})
                            return s.values;
                    throw std::runtime_error("series not found: " + name);
                };
                for (std::uint32_t rob : {32, 256})
                    QCOMPARE(find("rob", ParamId::Rob, rob),
                             models[k]->run(rob, kDefaultWindowSize).ipc);
                for (std::uint32_t lq : {16, 64})
                    QCOMPARE(find("lq", ParamId::LoadQueue, lq),
                             models[k]->runLoadQueue(lq, kDefaultWindowSize).ipc);
            }
        }
        qInfo("%zu of 6 L1i steps left the data side as it was", same);
        QCOMPARE(reused, same);
        QVERIFY2(reused > 0, "no L1i step was shared on three real programs");

        // A different L1d changes data accesses; one load answered from another level is
        // another system.
        const auto [records, warmup, warm] = testing::sampleRegion("xz-compress", 0);
        const AnnotatedRegion small =
            RegionAnalyzer().analyze(records, warmup, MemoryConfig{32, 32, 512, 1}, warm);
        const AnnotatedRegion large =
            RegionAnalyzer().analyze(records, warmup, MemoryConfig{128, 32, 512, 1}, warm);
        QVERIFY(!RobModel(small).sameSystemAs(RobModel(large)));
        AnnotatedRegion changed = small;
        const auto firstLoad =
            std::find_if(changed.instructions.begin(), changed.instructions.end(),
                         [](const auto& inst) { return inst.isLoad(); });
        QVERIFY(firstLoad != changed.instructions.end());
        QVERIFY(RobModel(changed).sameSystemAs(RobModel(small)));
        firstLoad->episodeLevel =
            firstLoad->episodeLevel == MemLevel::Dram ? MemLevel::L2 : MemLevel::Dram;
        QVERIFY(!RobModel(changed).sameSystemAs(RobModel(small)));
    }

    // On a kernel made to be bound by one resource, that resource binds in the analytical
    // models and the min of bounds is within 5 % of the simulated IPC. Both sides use the same
    // branch-target structures: the default ones, or a perfect BTB where 131072 jumps would
    // otherwise all miss it and hide the I-cache limit under test.
    void crossCheckAgainstSimulator_data() {
        QTest::addColumn<QString>("kernelName");
        QTest::addColumn<QString>("params");
        QTest::addColumn<int>("iterations");
        QTest::addColumn<QString>("setting");
        QTest::addColumn<QString>("resource");
        QTest::newRow("latency chain") << "chain-int-mul"
                                       << "" << 500 << ""
                                       << "rob";
        QTest::newRow("alu issue") << "independent"
                                   << "" << 300 << "alu_issue=2"
                                   << "alu_issue";
        QTest::newRow("fp issue") << "independent"
                                  << "class=fp-add" << 300 << "fp_issue=2"
                                  << "fp_issue";
        QTest::newRow("ls issue") << "independent"
                                  << "class=load" << 300 << "ls_issue=2"
                                  << "ls_issue";
        QTest::newRow("ls pipes") << "independent"
                                  << "class=store" << 300 << "ls_pipes=1"
                                  << "pipes";
        QTest::newRow("commit width") << "independent"
                                      << "class=nop" << 300 << "commit_width=3"
                                      << "commit_width";
        QTest::newRow("fetch width") << "independent"
                                     << "class=nop,unroll=239" << 300 << "fetch_width=3"
                                     << "fetch_width";
        QTest::newRow("taken groups") << "taken-groups"
                                      << "group=4" << 500 << "fetch_width=8"
                                      << "fetch_width";
        QTest::newRow("rob knee") << "rob-knee"
                                  << "fillers=126" << 100 << "rob=64"
                                  << "rob";
        // Every store misses to DRAM and holds its SQ entry until its line arrives (200
        // cycles); 4 entries allow 4 stores in flight, far below the 16 MSHRs.
        QTest::newRow("store misses") << "store-miss"
                                      << "fillers=14" << 200 << "sq=4"
                                      << "sq";
        // One static load walking lines from DRAM, 4 LQ entries: a load dispatches when the one
        // 4 older commits. A prefetch of degree d issued when load k issues brings line k + d
        // 200 cycles later, so load k + d waits for it: 4 + d loads per 200 cycles. A prefetch
        // that arrived instantly (the analysis before prefetches were timed) would make every
        // load an L1 hit and the bound ~12x too fast.
        QTest::newRow("lq with timed prefetches, degree 8")
            << "stride-load"
            << "ws_kb=4096,unroll=1,warmup=0" << 1 << "lq=4 pf_degree=8"
            << "lq";
        QTest::newRow("lq with timed prefetches, degree 2")
            << "stride-load"
            << "ws_kb=4096,unroll=1,warmup=0" << 1 << "lq=4 pf_degree=2"
            << "lq";
        // Independent loads to cold lines, prefetcher off, widest core: 16 MSHRs allow 16 misses
        // per DRAM latency, in the ROB and LQ models alike (the ROB, listed first, binds).
        // Without the MSHR limit the 128-entry LQ would let 128 misses overlap: 8x too fast.
        QTest::newRow("misses limited by the MSHRs") << "stride-load"
                                                     << "ws_kb=4096,warmup=0" << 1 << "pf_degree=0"
                                                     << "rob";
        QTest::newRow("lq knee") << "lq-knee"
                                 << "fillers=62" << 100 << "lq=32"
                                 << "lq";
        QTest::newRow("pointer chase") << "pointer-chase"
                                       << "ws_kb=256" << 2 << "l1d_kb=32"
                                       << "rob";
        QTest::newRow("icache fills")
            << "taken-groups"
            << "group=2,groups=131072,warmup=1" << 1 << "icache_fills=4 perfect_btb"
            << "icache_fills";
        QTest::newRow("fetch buffers")
            << "taken-groups"
            << "group=2,groups=131072,warmup=1" << 1 << "fetch_buffers=4 perfect_btb"
            << "fetch_buffers";
        // With the real BTB every one of those jumps misses it, so no line can be requested
        // before the jump ending the previous one is decoded: each 2-instruction line takes its
        // DRAM latency plus the redirect, IPC 2 / (200 + 2), in both the simulator and the
        // I-cache models (fills and buffers tie; fills is listed first).
        QTest::newRow("icache behind BTB misses")
            << "taken-groups"
            << "group=2,groups=131072,warmup=1" << 1 << "icache_fills=4"
            << "icache_fills";
    }

    void crossCheckAgainstSimulator() {
        QFETCH(QString, kernelName);
        QFETCH(QString, params);
        QFETCH(int, iterations);
        QFETCH(QString, setting);
        QFETCH(QString, resource);
        std::map<std::string, std::string> values;
        for (const auto& pair : params.split(',', Qt::SkipEmptyParts)) {
            const auto kv = pair.split('=');
            values[kv[0].toStdString()] = kv[1].toStdString();
        }
        const Kernel k = kernel(kernelName.toStdString(), values, iterations);
        CoreConfig config = widest();
        PipelineSpec pipeline;
        for (const auto& word : setting.split(' ', Qt::SkipEmptyParts)) {
            if (word == "perfect_btb")
                pipeline.targets.btbEntries = 0;
            else
                config.applyAssignment(word.toStdString());
        }
        const double simulated =
            double(k.records.size() - k.warmup) /
            double(OutOfOrderCore(config, {}, pipeline).run(k.records, k.warmup));
        const AnnotatedRegion region =
            RegionAnalyzer({}, {}, {}, pipeline.targets)
                .analyze(k.records, k.warmup, MemoryConfig::fromCoreConfig(config));
        const ResourceBounds bounds = BoundsCalculator().compute(region, config);
        const auto share = bounds.bindingShare();
        const auto top = std::max_element(share.begin(), share.end()) - share.begin();
        QCOMPARE(QString::fromStdString(bounds.resources[static_cast<std::size_t>(top)]), resource);
        QVERIFY(share[static_cast<std::size_t>(top)] > 0.9);
        const double analytical = bounds.toJson(false)["min_of_bounds_ipc"].get<double>();
        QVERIFY2(std::abs(analytical / simulated - 1.0) <= 0.05,
                 qPrintable(QString("analytical %1, simulated %2").arg(analytical).arg(simulated)));
    }
};

QTEST_APPLESS_MAIN(BoundsTest)
#include "BoundsTest.moc"
