// Functional warm-up (issue 16): a WarmState built from the warm-up records must leave the caches,
// the prefetcher and TAGE as a detailed warm-up over the same records does, for every memory
// configuration, at a fraction of the size. Known answers come from synthetic kernels; the
// equality check runs on real traces.
#include "analysis/WarmState.h"

#include "../support/KernelTrace.h"
#include "analysis/CacheHierarchy.h"
#include "analysis/RegionAnalyzer.h"
#include "analysis/WarmStateBuilder.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/TraceReader.h"

#include <QtTest>
#include <cmath>
#include <memory>
#include <random>

using namespace concorde;

namespace {

std::shared_ptr<const WarmState> warmStateOf(std::span<const TraceRecord> records) {
    WarmStateBuilder builder;
    builder.observe(records);
    return std::make_shared<const WarmState>(builder.finish());
}

CoreConfig n1Like() {
    return Preset::load(CONCORDE_SOURCE_DIR "/resources/presets/n1-like.json").config;
}

TraceRecord conditional(std::uint64_t pc, bool taken) {
    TraceRecord r;
    r.pc = pc;
    r.size = 2;
    r.instrClass = InstrClass::Branch;
    r.branchKind = BranchKind::DirectConditional;
    r.taken = taken;
    r.branchTarget = pc - 64;
    return r;
}

} // namespace

class WarmStateTest : public QObject {
    Q_OBJECT

private slots:
    /// The finest partition covers every cache the parameter space allows.
    void partitionCoversEveryCache() {
        // L2 at its largest (4096 kB, 8-way) has the most sets; the LLC has the most ways.
        QCOMPARE(WarmState::finestSets(), 4096u * 1024 / 64 / 8);
        QCOMPARE(WarmState::ways(), 16u);
    }

    /// The byte form round-trips exactly (lines, loads and the TAGE state, which then predicts
    /// as the original), is much smaller than the records it summarises, and damaged bytes are
    /// refused with a message rather than trusted.
    void encodingRoundTripsAndRejectsDamage() {
        TraceReader reader(CONCORDE_SOURCE_DIR "/data/samples/perl-regex.ctrace");
        std::vector<TraceRecord> records;
        reader.readRegion(0, records);
        const auto state = warmStateOf(records);
        const std::vector<std::uint8_t> bytes = state->encode();
        const WarmState decoded = WarmState::decode(bytes, "test");
        QCOMPARE(decoded.instructions, state->instructions);
        QVERIFY(decoded.lines == state->lines);
        QVERIFY(decoded.recentLoads == state->recentLoads);
        QVERIFY(decoded.tage && decoded.tage->saveState() == state->tage->saveState());
        QVERIFY2(bytes.size() < records.size() * sizeof(std::uint32_t),
                 qPrintable(QString::number(bytes.size())));

        for (const std::size_t cut :
             {std::size_t(0), std::size_t(3), bytes.size() / 2, bytes.size() - 1}) {
            bool refused = false;
            try {
                WarmState::decode(std::span(bytes).first(cut), "cut.ctrace region 0");
            } catch (const ConcordeError& e) {
                refused = QString(e.what()).contains("cut.ctrace region 0");
            }
            QVERIFY2(refused, qPrintable(QString::number(cut)));
        }
        std::vector<std::uint8_t> huge = {1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}; // 4G lines claimed
        QVERIFY_THROWS_EXCEPTION(ConcordeError, WarmState::decode(huge, "huge"));
    }

    /// A pointer chase over 256 kB fits L2 (512 kB) but not L1d (32 kB). One functional pass
    /// makes every measured load an L2 hit (12-cycle load-to-use, so about 12 cycles per load);
    /// cold, every load goes to DRAM. Same as one detailed pass, to the cycle.
    void workingSetFitsL2OnlyOnceWarmed() {
        const auto k = testing::kernel("pointer-chase", {{"ws_kb", "256"}, {"warmup", "1"}}, 1);
        const std::span<const TraceRecord> all(k.records);
        const auto warm = warmStateOf(all.first(k.warmup));
        const auto measured = all.subspan(k.warmup);
        const std::uint64_t lines = 256 * 1024 / 64;

        MemoryConfig memory;
        memory.l1dKb = 32;
        memory.l2Kb = 512;
        const RegionAnalyzer analyzer;
        const AnnotatedRegion cold = analyzer.analyze(measured, 0, memory);
        const AnnotatedRegion warmed = analyzer.analyze(measured, 0, memory, warm);
        const AnnotatedRegion detailed = analyzer.analyze(all, k.warmup, memory);
        QCOMPARE(cold.stats.loads, lines);
        QCOMPARE(cold.stats.loadLevels[levelIndex(MemLevel::Dram)], lines);
        QCOMPARE(warmed.stats.loadLevels[levelIndex(MemLevel::L2)], lines);
        QCOMPARE(warmed.stats.loadLevels, detailed.stats.loadLevels);

        CoreConfig config = n1Like();
        memory.applyTo(config);
        const auto coldRun = ReferenceSimulator::simulate(measured, 0, config);
        const auto warmRun = ReferenceSimulator::simulate(measured, 0, config, 400, warm.get());
        const auto detailedRun = ReferenceSimulator::simulate(all, k.warmup, config);
        const double warmPerLoad = double(warmRun.cycles) / double(lines);
        QVERIFY2(warmPerLoad >= 12.0 && warmPerLoad < 12.5,
                 qPrintable(QString::number(warmPerLoad)));
        QVERIFY(double(coldRun.cycles) / double(lines) > 200.0);
        QCOMPARE(warmRun.cycles, detailedRun.cycles);
    }

    /// A branch whose outcomes repeat with a period of 97 random bits: TAGE needs long
    /// histories and many periods to learn it. After a functional warm-up of 400 periods it
    /// predicts the measured 40 periods almost perfectly, exactly as after the same detailed
    /// warm-up; cold, it is still learning.
    void tageLearnsALongPatternOnlyWhenWarmed() {
        std::mt19937 random(7);
        std::vector<bool> pattern(97);
        for (auto&& bit : pattern)
            bit = random() & 1;
        std::vector<TraceRecord> records;
        for (int period = 0; period < 440; ++period)
            for (const bool taken : pattern) {
                records.push_back(conditional(0x400100, taken));
                TraceRecord loop = conditional(0x400140, true); // loop back: always taken
                records.push_back(loop);
            }
        const std::size_t warmup = 400 * 2 * pattern.size();
        const std::span<const TraceRecord> all(records);
        const auto warm = warmStateOf(all.first(warmup));
        const auto measured = all.subspan(warmup);

        const RegionAnalyzer analyzer;
        const MemoryConfig memory;
        const auto cold = analyzer.analyze(measured, 0, memory).stats.tageMispredictions;
        const auto warmed = analyzer.analyze(measured, 0, memory, warm).stats.tageMispredictions;
        const auto detailed = analyzer.analyze(all, warmup, memory).stats.tageMispredictions;
        const std::uint64_t branches = measured.size() / 2;
        QCOMPARE(warmed, detailed);
        QVERIFY2(warmed * 100 <= branches, qPrintable(QString::number(warmed)));
        QVERIFY2(cold >= 10 * std::max<std::uint64_t>(warmed, 1),
                 qPrintable(QString::number(cold)));

        CoreConfig config = n1Like();
        config.set(ParamId::BranchPredictor, static_cast<double>(BranchPredictorKind::Tage));
        const auto warmRun = ReferenceSimulator::simulate(measured, 0, config, 400, warm.get());
        const auto detailedRun = ReferenceSimulator::simulate(all, warmup, config);
        QCOMPARE(warmRun.mispredictions, detailedRun.mispredictions);
    }

    /// On real programs, the functional state of a region's warm-up records leaves the caches
    /// as the detailed warm-up does, to within the LRU-versus-tree-PLRU difference, and it is a
    /// fraction of the records' size.
    void functionalEqualsDetailedOnRealTraces() {
        for (const char* sample : {"gzip-decompress", "xz-compress", "perl-regex"}) {
            TraceReader reader(std::string(CONCORDE_SOURCE_DIR "/data/samples/") + sample +
                               ".ctrace");
            std::vector<TraceRecord> records;
            reader.readRegion(0, records);
            const std::size_t warmup = reader.info().regions[0].warmup;
            const std::span<const TraceRecord> all(records);
            const auto warm = warmStateOf(all.first(warmup));
            QVERIFY(warm->lines.size() < warmup);
            const auto measured = all.subspan(warmup);
            for (const int l2 : {512, 2048}) {
                CoreConfig config = n1Like();
                config.set(ParamId::L1dKb, 32);
                config.set(ParamId::L2Kb, l2);
                const auto detailed = ReferenceSimulator::simulate(all, warmup, config);
                const auto functional =
                    ReferenceSimulator::simulate(measured, 0, config, 400, warm.get());
                const auto cold = ReferenceSimulator::simulate(measured, 0, config);
                const double gap = std::abs(functional.cpi() / detailed.cpi() - 1.0);
                qInfo("%s l2_kb=%d: CPI detailed %.4f, functional %.4f, cold %.4f; %zu lines "
                      "for %zu warm-up records",
                      sample, l2, detailed.cpi(), functional.cpi(), cold.cpi(), warm->lines.size(),
                      warmup);
                QVERIFY2(gap < 0.01,
                         qPrintable(QStringLiteral("%1 l2 %2: functional %3, detailed %4")
                                        .arg(sample)
                                        .arg(l2)
                                        .arg(functional.cpi())
                                        .arg(detailed.cpi())));
                // The warm state matters: cold differs more than functional does.
                QVERIFY(std::abs(cold.cpi() / detailed.cpi() - 1.0) >= gap);
            }
        }
    }
};

QTEST_APPLESS_MAIN(WarmStateTest)
#include "WarmStateTest.moc"
