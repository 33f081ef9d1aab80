// The reference simulator: the full DiagSim suite, determinism, monotonic sanity and events.
#include "../support/KernelTrace.h"
#include "../support/RandomRecords.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"
#include "refsim/DiagnosticSuite.h"
#include "refsim/OutOfOrderCore.h"
#include "refsim/ReferenceSimulator.h"
#include "refsim/StallBreakdownCollector.h"
#include "trace/TraceReader.h"
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
            TraceReader reader(std::string(CONCORDE_SOURCE_DIR "/data/samples/") + sample +
                               ".ctrace");
            std::vector<TraceRecord> records;
            reader.readRegion(1, records);
            const auto warmup = static_cast<std::size_t>(reader.info().regions[1].warmup);
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

    void warmupTooLongIsAnError() {
        const auto records = testing::makeRandomRecords(100, 1);
        QVERIFY_THROWS_EXCEPTION(ConcordeError,
                                 OutOfOrderCore(CoreConfig()).run(records, records.size() + 1));
    }
};

QTEST_APPLESS_MAIN(RefsimTest)
#include "RefsimTest.moc"
