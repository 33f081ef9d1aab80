// The reference simulator: the full DiagSim suite, determinism, monotonic sanity and events.
#include "../support/KernelTrace.h"
#include "../support/RandomRecords.h"
#include "../support/SampleRegion.h"
#include "analysis/RegionAnalyzer.h"
#include "bounds/RobModel.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"
#include "refsim/DependencyGraph.h"
#include "refsim/DiagnosticSuite.h"
#include "refsim/OutOfOrderCore.h"
#include "refsim/ReferenceSimulator.h"
#include "refsim/StallBreakdownCollector.h"
#include "refsim/TimedMemorySystem.h"
#include "trace/TraceReader.h"
#include "trace/synthetic/KernelBuilder.h"
#include "trace/synthetic/KernelCatalog.h"
#include "trace/synthetic/MicrobenchKernel.h"
#include "trace/synthetic/VectorSink.h"

#include <QtTest>
#include <numeric>

using namespace concorde;

namespace {

using concorde::testing::kernel;

// A program-like mix: a pointer chase, a strided stream, branches and arithmetic, concatenated.
std::vector<TraceRecord> mixedProgram() {
    std::vector<TraceRecord> all;
    for (const auto& [name, params] :
         std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
             {"pointer-chase", {{"ws_kb", "512"}}},
             {"branch-random", {}},
             {"stride-load", {{"ws_kb", "1024"}}},
             {"chain-fp-mul", {}},
             {"independent", {{"class", "store"}}},
             {"lq-knee", {{"fillers", "30"}}}}) {
        auto [records, warmup] = kernel(name, params, 2);
        (void)warmup;
        all.insert(all.end(), records.begin(), records.end());
    }
    return all;
}

} // namespace

class RefsimTest : public QObject {
    Q_OBJECT

private slots:
    void diagnoseSuitePasses() {
        const auto checks = DiagnosticSuite().run();
        QVERIFY(checks.size() >= 60);
        for (const auto& check : checks)
            QVERIFY2(check.passed, qPrintable(QString::fromStdString(
                                       check.group + " / " + check.name + " [" + check.setting +
                                       "]: configured " + std::to_string(check.configured) +
                                       ", measured " + std::to_string(check.measured))));
    }

    // The suite must notice a simulator that does not honour its spec: run it against a
    // different pipeline than the one it expects.
    void diagnoseCatchesAMismatch() {
        PipelineSpec expected;
        expected.l1dMshrs = 24; // the checks expect 24 MSHRs ...
        DiagnosticSuite suite(expected);
        const auto checks = suite.run({"memory"});
        // ... and the simulator indeed uses them, so this must still pass ...
        QVERIFY(std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.passed; }));
        LatencyTable slowMul;
        slowMul.set(InstrClass::IntMul, 5);
        const auto latency = DiagnosticSuite({}, {}, slowMul).run({"latency"});
        const auto mul = std::find_if(latency.begin(), latency.end(),
                                      [](const auto& c) { return c.name == "int-mul latency"; });
        QVERIFY(mul != latency.end());
        QCOMPARE(mul->configured, 5.0);
        QVERIFY(std::abs(mul->measured - 5.0) < 0.01);
    }

    void deterministic() {
        const auto records = mixedProgram();
        CoreConfig config;
        config.applyAssignment("bp=simple");
        config.applyAssignment("bp_miss_pct=5");
        const auto a = ReferenceSimulator::simulate(records, 1000, config);
        const auto b = ReferenceSimulator::simulate(records, 1000, config);
        QCOMPARE(a.cycles, b.cycles);
        QCOMPARE(a.windowIpc, b.windowIpc);
        QCOMPARE(a.stallCycles, b.stallCycles);
        QVERIFY(a.mispredictions > 0);
        // Random (malformed-looking but valid) records are simulated without deadlock.
        const auto random = testing::makeRandomRecords(30'000, 5);
        const auto r1 = ReferenceSimulator::simulate(random, 5'000, config);
        const auto r2 = ReferenceSimulator::simulate(random, 5'000, config);
        QCOMPARE(r1.cycles, r2.cycles);
        QVERIFY(r1.cycles > 0);
    }

    void stallBreakdownSumsToCycles() {
        const auto records = mixedProgram();
        const auto result = ReferenceSimulator::simulate(records, 0, CoreConfig());
        double total = 0;
        for (const auto& [reason, cycles] : result.stallCycles.items())
            total += cycles.get<double>();
        // Every simulated cycle is charged once (the final cycle is reported as a full cycle).
        QVERIFY2(std::abs(total - double(result.cycles)) <= 1.0,
                 qPrintable(QString("%1 vs %2").arg(total).arg(result.cycles)));
        // The chase and the stream are memory bound: their stalls show as a full ROB waiting on
        // DRAM or a full load queue.
        QVERIFY(result.stallCycles["backend.rob.dram"].get<double>() +
                    result.stallCycles["backend.lq"].get<double>() >
                0.1 * double(result.cycles));
        QVERIFY(result.stallCycles["dispatched"].get<double>() > 0);
        // Per-window IPC: harmonic consistency with the total.
        double windowCycles = 0;
        for (std::size_t w = 0; w < result.windowIpc.size(); ++w) {
            const double count =
                (w + 1 < result.windowIpc.size()) ? 400.0 : double(result.instructions - 400 * w);
            windowCycles += count / result.windowIpc[w];
        }
        QVERIFY(std::abs(windowCycles - double(result.cycles)) < 1.0);
    }

    // Adding a resource never makes the program slower by more than a small epsilon (0.5 %:
    // scheduling anomalies, e.g. oldest-first issue with a larger window, are allowed that much).
    void monotonicInEveryParameter() {
        const auto records = mixedProgram();
        CoreConfig base;
        base.applyAssignment("bp=simple");
        base.applyAssignment("bp_miss_pct=2");
        for (const auto& spec : ParameterSpace::all()) {
            if (spec.id == ParamId::BranchPredictor)
                continue;
            double previous = -1;
            const bool moreIsWorse = spec.id == ParamId::BpMissPct;
            for (double value : spec.grid) {
                CoreConfig config = base;
                config.set(spec.id, value);
                const double cpi = ReferenceSimulator::simulate(records, 0, config).cpi();
                if (previous > 0) {
                    const double slower = moreIsWorse ? previous - cpi : cpi - previous;
                    QVERIFY2(
                        slower <= 0.005 * previous,
                        qPrintable(
                            QString::fromStdString(spec.key) +
                            QString(" = %1: CPI %2 after %3").arg(value).arg(cpi).arg(previous)));
                }
                previous = cpi;
            }
        }
    }

    // The same on real programs (committed sample traces): sweeping any parameter over its grid
    // in the direction of more resources never raises CPI by more than kEpsilon. Oldest-first
    // issue, replacement and prefetch timing can make a larger structure very slightly slower;
    // 1 % of CPI bounds what such anomalies are allowed to cost.
    void monotonicOnRealTraces() {
        constexpr double kEpsilon = 0.01;
        const CoreConfig base =
            Preset::load(CONCORDE_SOURCE_DIR "/resources/presets/n1-like.json").config;
        double worst = 0;
        std::string worstWhere;
        for (const char* sample : {"gzip-decompress", "xz-compress", "perl-regex"}) {
            const auto [records, warmup, warm] = testing::sampleRegion(sample, 1);
            for (const auto& spec : ParameterSpace::all()) {
                if (spec.id == ParamId::BranchPredictor)
                    continue;
                CoreConfig config = base;
                if (spec.id == ParamId::BpMissPct)
                    config.set(ParamId::BranchPredictor, 0); // the rate only acts on "simple"
                double previous = -1;
                for (double value : spec.grid) {
                    config.set(spec.id, value);
                    const double cpi = ReferenceSimulator::simulate(records, warmup, config).cpi();
                    QVERIFY(cpi > 0.05 && cpi < 50);
                    if (previous > 0) {
                        const double worse =
                            (spec.id == ParamId::BpMissPct ? previous - cpi : cpi - previous) /
                            previous;
                        if (worse > worst) {
                            worst = worse;
                            worstWhere = std::string(sample) + " " + spec.key + "=" +
                                         spec.formatValue(value);
                        }
                    }
                    previous = cpi;
                }
            }
        }
        qInfo("largest CPI increase from adding a resource: %.3f %% (%s)", 100 * worst,
              worstWhere.c_str());
        QVERIFY2(worst <= kEpsilon, worstWhere.c_str());
    }

    // A real trace from the tracer simulates to a plausible CPI with every preset, and the
    // bigger core is faster.
    void smokeOnRealTrace() {
        TraceReader reader(CONCORDE_SOURCE_DIR "/data/samples/xz-compress.ctrace");
        QCOMPARE(reader.info().source, std::string("tracer"));
        std::vector<TraceRecord> records;
        reader.readRegion(0, records);
        const auto warmup = static_cast<std::size_t>(reader.info().regions[0].warmup);
        const auto cpiOf = [&](const char* preset) {
            return ReferenceSimulator::simulate(
                       records, warmup,
                       Preset::load(std::string(CONCORDE_SOURCE_DIR "/resources/presets/") +
                                    preset + ".json")
                           .config)
                .cpi();
        };
        const double big = cpiOf("big");
        const double n1 = cpiOf("n1-like");
        const double little = cpiOf("little");
        QVERIFY2(big < n1 && n1 < little,
                 qPrintable(QString("big %1, n1 %2, little %3").arg(big).arg(n1).arg(little)));
        QVERIFY(big > 0.08 && little < 20);
    }

    // A labeller builds a region's DependencyGraph once and simulates many configurations with
    // it: every result must be the one the simulator gets when it builds the graph itself, the
    // graph's consumer lists must be exactly its producer lists reversed, and a graph of other
    // records is refused.
    void sharedDependencyGraphGivesTheSameResults() {
        TraceReader reader(CONCORDE_SOURCE_DIR "/data/samples/perl-regex.ctrace");
        std::vector<TraceRecord> records;
        reader.readRegion(1, records);
        const auto warmup = static_cast<std::size_t>(reader.info().regions[1].warmup);
        const std::shared_ptr<const WarmState> warm =
            WarmState::fromBytes(reader.info().regions[1].warmState, "perl-regex region 1");
        QVERIFY(warm != nullptr);
        const DependencyGraph graph(records, warmup);
        QCOMPARE(graph.size(), records.size() - warmup);

        std::size_t edges = 0;
        for (std::size_t i = 0; i < graph.size(); ++i)
            for (const std::int32_t p : graph.producers(i)) {
                ++edges;
                const auto consumers = graph.consumers(static_cast<std::size_t>(p));
                const bool found =
                    std::any_of(consumers.begin(), consumers.end(), [&](std::uint32_t edge) {
                        return ConsumerLists::consumer(edge) == i;
                    });
                QVERIFY2(found, qPrintable(QString("record %1 is missing from the consumers of "
                                                   "its producer %2")
                                               .arg(i)
                                               .arg(p)));
            }
        std::size_t consumerEdges = 0;
        for (std::size_t i = 0; i < graph.size(); ++i)
            consumerEdges += graph.consumers(i).size();
        QCOMPARE(consumerEdges, edges);
        QVERIFY(edges > graph.size() / 2); // a real program: most records have a producer

        for (const char* preset : {"big", "n1-like", "little"}) {
            const CoreConfig config =
                Preset::load(std::string(CONCORDE_SOURCE_DIR "/resources/presets/") + preset +
                             ".json")
                    .config;
            const SimulationResult own = ReferenceSimulator::simulate(
                records, warmup, config, ReferenceSimulator::kDefaultWindow, warm.get());
            const SimulationResult shared = ReferenceSimulator::simulate(
                records, warmup, config, ReferenceSimulator::kDefaultWindow, warm.get(), &graph);
            QCOMPARE(shared.cycles, own.cycles);
            QCOMPARE(shared.mispredictions, own.mispredictions);
            QCOMPARE(shared.windowIpc, own.windowIpc);
        }
        const DependencyGraph shorter(std::span<const TraceRecord>(records).first(warmup + 10),
                                      warmup);
        QVERIFY_THROWS_EXCEPTION(ConcordeError,
                                 ReferenceSimulator::simulate(records, warmup, CoreConfig(),
                                                              ReferenceSimulator::kDefaultWindow,
                                                              warm.get(), &shorter));
    }

    // A load whose producing store has committed but is still waiting in the store buffer for
    // its line (a read-for-ownership miss to DRAM) gets the data forwarded at L1 latency, as on
    // real cores; a load of another missing line pays the DRAM latency.
    // A chain of 2,000 pops (each reads the rsp the previous one wrote, and loads from the
    // L1d): the stack pointer is an add beside the load, so the chain runs at one pop per
    // cycle instead of one per L1 load-to-use latency. The ROB bound sees the same.
    void popChainRunsAtOnePerCycle() {
        const std::size_t pops = 2000;
        std::vector<TraceRecord> records;
        for (std::size_t k = 0; k < pops; ++k) {
            TraceRecord r;
            r.pc = 0x401000 + 4 * (k % 16);
            r.size = 1;
            r.instrClass = InstrClass::Load;
            r.addSource(ArchReg::kRsp);
            r.addDestination(ArchReg::kRbx);
            r.addDestination(ArchReg::kRsp);
            r.addLoad(0x7ff000 + 8 * (k % 64), 8); // eight lines: L1 hits once warm
            records.push_back(r);
        }
        // The first half warms the eight lines; the second is measured.
        CoreConfig config;
        const std::uint64_t cycles = OutOfOrderCore(config).run(records, pops / 2);
        const double perPop = double(cycles) / double(pops / 2);
        QVERIFY2(perPop > 0.95 && perPop < 1.05, qPrintable(QString::number(perPop)));
        QVERIFY(MemorySystemSpec().latency(MemLevel::L1) >= 4); // what it was before

        const AnnotatedRegion region =
            RegionAnalyzer().analyze(records, pops / 2, MemoryConfig::fromCoreConfig(config));
        const double boundIpc = RobModel(region).run(256, 400).overallIpc;
        QVERIFY2(boundIpc > 0.95 && boundIpc < 1.05, qPrintable(QString::number(boundIpc)));
    }

    void storeBufferForwards() {
        synthetic::VectorSink sink;
        sink.beginRegion(0, 0);
        synthetic::KernelBuilder b(&sink);
        using B = synthetic::KernelBuilder;
        b.beginMeasurement();
        const std::uint64_t stored = B::kFreshBase, other = B::kFreshBase + 4096 * B::kLineBytes;
        b.store({B::kStoreBase, B::kConstGprB}, stored); // 0: misses the L1d
        for (std::size_t k = 0; k < 40; ++k)             // 1..40: let the store commit
            b.independentOp(InstrClass::IntAlu, k);
        b.load(B::kChainGpr, {B::kLoadBase}, stored);      // 41: forwarded
        b.load(B::kSecondChainGpr, {B::kLoadBase}, other); // 42: a DRAM miss
        const auto records = sink.takeRecords();

        struct Recorder : SimulationListener {
            void onStart(std::uint64_t n) override {
                commit.assign(n, 0);
                issue.assign(n, {});
            }
            void onCommit(const CommitEvent& e) override { commit[e.index] = e.cycle; }
            void onIssue(const IssueEvent& e) override { issue[e.index] = e; }
            std::vector<std::uint64_t> commit;
            std::vector<IssueEvent> issue;
        } recorder;
        OutOfOrderCore core{CoreConfig()};
        core.addListener(recorder);
        core.run(records, 0);
        const MemorySystemSpec spec;
        const IssueEvent& forwarded = recorder.issue[41];
        // The store had committed before the load issued, and its line had not arrived: the
        // RFO left the store buffer after commit and takes the DRAM latency.
        QVERIFY(recorder.commit[0] < forwarded.cycle);
        QVERIFY(forwarded.cycle < recorder.commit[0] + spec.latency(MemLevel::Dram));
        QCOMPARE(forwarded.completeCycle - forwarded.cycle,
                 std::uint64_t(spec.latency(MemLevel::L1)));
        const IssueEvent& missed = recorder.issue[42];
        QCOMPARE(missed.level, MemLevel::Dram);
        QCOMPARE(missed.completeCycle - missed.cycle, std::uint64_t(spec.latency(MemLevel::Dram)));
    }

    // A fence (here an atomic read-modify-write, which has a store of its own) commits only once
    // every older store has been written: the store before it misses, leaves the store buffer
    // the cycle after it commits and is written when its line arrives from DRAM.
    void fenceWaitsForOlderStores() {
        synthetic::VectorSink sink;
        sink.beginRegion(0, 0);
        synthetic::KernelBuilder b(&sink);
        using B = synthetic::KernelBuilder;
        b.beginMeasurement();
        b.store({B::kStoreBase, B::kConstGprB}, B::kFreshBase);
        b.store({B::kStoreBase, B::kConstGprB}, B::kFreshBase); // becomes the atomic
        auto records = sink.takeRecords();
        records[1].instrClass = InstrClass::Fence;
        records[1].loadCount = 1;
        records[1].loads[0] = records[1].stores[0];

        struct Commits : SimulationListener {
            void onStart(std::uint64_t n) override { cycle.assign(n, 0); }
            void onCommit(const CommitEvent& e) override { cycle[e.index] = e.cycle; }
            std::vector<std::uint64_t> cycle;
        } commits;
        OutOfOrderCore core{CoreConfig()};
        core.addListener(commits);
        core.run(records, 0);
        QCOMPARE(commits.cycle[1],
                 commits.cycle[0] + 1 + MemorySystemSpec().latency(MemLevel::Dram));
    }

    // The memory system's store side on a small hierarchy, untouched by the core.
    void timedStoresAndWritebacks() {
        MemoryConfig config;
        config.l1dKb = 16; // 256 lines: 32 sets of 8
        config.l2Kb = 32;  // 512 lines
        MemorySystemSpec spec;
        spec.llcKb = 64; // 1024 lines
        TimedMemorySystem memory(config, spec, 2);
        const std::uint64_t line = 64;
        const double dramLatency = spec.latency(MemLevel::Dram);

        // A write miss reads the line for ownership from DRAM and is written when it arrives;
        // it holds an MSHR until then.
        const auto first = memory.write(0 * line, 8, 100);
        QVERIFY(first.accepted);
        QCOMPARE(first.writtenCycle, std::uint64_t(100 + dramLatency));
        // The DRAM channel is busy for 64 / 15 cycles with the first line, so the second
        // request starts at 104.27 and arrives at ceil(104.27) + 200.
        const auto second = memory.write(1 * line, 8, 100);
        QVERIFY(second.accepted);
        QCOMPARE(second.writtenCycle,
                 std::uint64_t(std::ceil(100 + spec.dramCyclesPerLine()) + dramLatency));
        // Both MSHRs are busy: a third miss is refused and changes nothing ...
        QVERIFY(!memory.write(2 * line, 8, 101).accepted);
        QCOMPARE(memory.nextMshrRelease(101).value(), first.writtenCycle);
        // ... while a store to a line in flight merges with its fill.
        const auto merged = memory.write(0 * line + 8, 8, 101);
        QVERIFY(merged.accepted);
        QCOMPARE(merged.writtenCycle, first.writtenCycle);
        QCOMPARE(memory.counters().storeMisses, std::uint64_t(2));
        // A hit is written in the cycle it is sent.
        QCOMPARE(memory.write(0 * line, 8, 1000).writtenCycle, std::uint64_t(1000));

        // Every written line reaches DRAM exactly once: at most one dirty copy of a line
        // exists (an eviction moves it one level down), clean copies are dropped silently.
        // Write N lines, then stream 8192 other lines through every level (8x the LLC) so
        // that nothing written stays cached: N L1d writebacks and N DRAM writebacks.
        const std::uint64_t written = 600; // more than the L1d and the L2 hold
        std::uint64_t cycle = 2000;
        for (std::uint64_t k = 0; k < written; ++k, cycle += 1000)
            QVERIFY(memory.write((1 << 20) + k * line, 8, cycle).accepted);
        QCOMPARE(memory.counters().l1Writebacks, written - 256 + 2); // the L1d keeps 256; + 0, 1
        for (std::uint64_t k = 0; k < 8192; ++k, cycle += 1000)
            QVERIFY(memory.load(0, (1 << 24) + k * line, 8, cycle).accepted);
        QCOMPARE(memory.counters().l1Writebacks, written + 2);
        QCOMPARE(memory.counters().dramWritebacks, written + 2);
    }

    // Prefetches are fills like demand misses: each holds an MSHR, and without a free one it is
    // dropped.
    void prefetchesTakeMshrs() {
        MemoryConfig config;
        config.prefetchDegree = 4;
        const MemorySystemSpec spec;
        TimedMemorySystem memory(config, spec, 2);
        const std::uint64_t line = 64, pc = 0x400000;
        // Lines 0, 1, 2 by one PC, far apart in time: line 1 sets the stride (one line), line 2
        // confirms it, so line 2's load (a DRAM miss, one MSHR) asks for lines 3..6. One MSHR is
        // left: line 3 is prefetched, lines 4, 5 and 6 are dropped.
        for (std::uint64_t k = 0; k < 3; ++k)
            QVERIFY(memory.load(pc, k * line, 8, 1000 * k).accepted);
        QCOMPARE(memory.counters().prefetchesIssued, std::uint64_t(1));
        QCOMPARE(memory.counters().prefetchesDropped, std::uint64_t(3));
        // A demand load of line 3 merges with the prefetch in flight although no MSHR is free.
        // The prefetch went to DRAM right behind line 2's miss: the channel was busy for
        // 64 / 15 cycles, so it arrives at ceil(2000 + 4.27) + 200.
        const auto merged = memory.load(pc, 3 * line, 8, 2001);
        QVERIFY(merged.accepted);
        QCOMPARE(merged.readyCycle, std::uint64_t(std::ceil(2000 + spec.dramCyclesPerLine())) +
                                        spec.latency(MemLevel::Dram));
        // Line 4 was dropped, so it is a demand miss, and both MSHRs are busy.
        QVERIFY(!memory.load(pc + 4, 4 * line, 8, 2001).accepted);
    }

    // simulate --json reports the memory system's counters of the measured part: one static
    // load walking 16,384 cold lines reads each from DRAM once, demanded or prefetched (plus the
    // prefetches past the end), and with the prefetcher on most of them are prefetches.
    void simulationReportsMemoryCounters() {
        const auto [records, warmup] =
            kernel("stride-load", {{"ws_kb", "1024"}, {"unroll", "1"}, {"warmup", "0"}}, 1);
        CoreConfig config =
            Preset::load(CONCORDE_SOURCE_DIR "/resources/presets/n1-like.json").config;
        const std::uint64_t lines = 1024 * 1024 / 64;
        for (int degree : {0, 2}) {
            config.set(ParamId::PrefetchDegree, degree);
            const auto result = ReferenceSimulator::simulate(records, warmup, config);
            const nlohmann::json json = result.toJson();
            const nlohmann::json& memory = json["memory"];
            const auto reads = memory["dram_reads"].get<std::uint64_t>();
            const auto issued = memory["prefetches_issued"].get<std::uint64_t>();
            QVERIFY2(reads >= lines && reads <= lines + degree, qPrintable(QString::number(reads)));
            if (degree == 0)
                QCOMPARE(issued, std::uint64_t(0));
            else
                QVERIFY2(issued + memory["prefetches_dropped"].get<std::uint64_t>() > lines / 2,
                         qPrintable(QString::number(issued)));
            QCOMPARE(memory["dram_writebacks"].get<std::uint64_t>(), std::uint64_t(0));
        }
    }

    void warmupTooLongIsAnError() {
        const auto records = testing::makeRandomRecords(100, 1);
        QVERIFY_THROWS_EXCEPTION(ConcordeError,
                                 OutOfOrderCore(CoreConfig()).run(records, records.size() + 1));
    }
};

QTEST_APPLESS_MAIN(RefsimTest)
#include "RefsimTest.moc"
