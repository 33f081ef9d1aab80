// Trace analysis, memory side: set-associative tree-PLRU cache, stride prefetcher, the cache
// hierarchy and the memory value types.
#include "analysis/CacheHierarchy.h"
#include "analysis/MemoryConfig.h"
#include "analysis/MemorySystemSpec.h"
#include "analysis/SetAssociativeCache.h"
#include "analysis/StridePrefetcher.h"
#include "common/ConcordeError.h"
#include "params/CoreConfig.h"

#include <QtTest>
#include <unordered_set>

using namespace concorde;

namespace {
constexpr std::uint64_t kLine = 64;

bool throwsBadInput(const std::function<void()>& action) {
    try {
        action();
    } catch (const ConcordeError& e) {
        return e.kind() == ErrorKind::BadInput;
    }
    return false;
}
} // namespace

class AnalysisCacheTest : public QObject {
    Q_OBJECT

private slots:
    void specDefaultsMatchDesign() {
        const MemorySystemSpec spec;
        QCOMPARE(spec.lineBytes, 64u);
        QCOMPARE(spec.lineShift(), 6u);
        QCOMPARE(spec.llcKb, 4096u);
        QCOMPARE(spec.llcWays, 16u);
        QCOMPARE(spec.l1dWays, 8u);
        QCOMPARE(spec.l1iWays, 8u);
        QCOMPARE(spec.l2Ways, 8u);
        QCOMPARE(spec.latency(MemLevel::L1), 4u);
        QCOMPARE(spec.latency(MemLevel::L2), 12u);
        QCOMPARE(spec.latency(MemLevel::Llc), 30u);
        QCOMPARE(spec.latency(MemLevel::Dram), 200u);
        QCOMPARE(spec.dramBytesPerCycle, 15.0);
        QVERIFY(std::abs(spec.dramCyclesPerLine() - 64.0 / 15.0) < 1e-12);
        spec.validate();
        MemorySystemSpec bad = spec;
        bad.l2Ways = 6;
        QVERIFY(throwsBadInput([&] { bad.validate(); }));
        bad = spec;
        bad.latencies = {4, 40, 30, 200};
        QVERIFY(throwsBadInput([&] { bad.validate(); }));
    }

    void memoryConfigFromCoreConfigAndHashing() {
        CoreConfig core;
        const MemoryConfig defaults = MemoryConfig::fromCoreConfig(core);
        QCOMPARE(defaults, MemoryConfig{});
        QCOMPARE(defaults.l1dKb, 64);
        QCOMPARE(defaults.l2Kb, 1024);
        core.applyAssignment("l1d_kb=32");
        core.applyAssignment("l1i_kb=128");
        core.applyAssignment("l2_kb=2048");
        core.applyAssignment("pf_degree=2");
        core.applyAssignment("rob=512"); // not a memory parameter
        const MemoryConfig m = MemoryConfig::fromCoreConfig(core);
        QCOMPARE(m, (MemoryConfig{32, 128, 2048, 2}));
        QCOMPARE(m.toString(), std::string("l1d_kb=32 l1i_kb=128 l2_kb=2048 pf_degree=2"));
        CoreConfig other;
        m.applyTo(other);
        QCOMPARE(MemoryConfig::fromCoreConfig(other), m);

        // Every grid combination is distinct by key and by value in a hash set.
        std::unordered_set<MemoryConfig> set;
        std::unordered_set<std::uint64_t> keys;
        for (int l1d : {32, 64, 128})
            for (int l1i : {32, 64, 128})
                for (int l2 : {512, 1024, 2048})
                    for (int pf : {0, 2}) {
                        set.insert({l1d, l1i, l2, pf});
                        keys.insert(MemoryConfig{l1d, l1i, l2, pf}.packedKey());
                    }
        QCOMPARE(set.size(), std::size_t(54));
        QCOMPARE(keys.size(), std::size_t(54));
        QVERIFY(set.count(MemoryConfig{64, 64, 1024, 0}) == 1);
        QCOMPARE(MemoryConfigHash{}(m), std::hash<MemoryConfig>{}(m));
    }

    void workingSetBelowCapacityHasOnlyCompulsoryMisses() {
        SetAssociativeCache cache(32 * 1024, 8, 64); // 512 lines, 64 sets
        QCOMPARE(cache.sets(), 64u);
        QCOMPARE(cache.capacityLines(), std::uint64_t(512));
        const std::uint64_t base = 0x12345;
        for (int pass = 0; pass < 10; ++pass)
            for (std::uint64_t i = 0; i < 512; ++i) // exactly the capacity, consecutive lines
                cache.access(base + i);
        QCOMPARE(cache.misses(), std::uint64_t(512));
        QCOMPARE(cache.hits(), std::uint64_t(9 * 512));
    }

    void cyclicSweepBeyondCapacityMisses() {
        // Twice the capacity, cycled: every set sees 16 lines cycling through 8 ways.
        SetAssociativeCache cache(32 * 1024, 8, 64);
        for (int pass = 0; pass < 5; ++pass)
            for (std::uint64_t i = 0; i < 1024; ++i)
                cache.access(i);
        QCOMPARE(cache.hits(), std::uint64_t(0));

        // ways + 1 lines cycled through one 8-way set: tree-PLRU, like LRU, thrashes.
        SetAssociativeCache set(8 * 64, 8, 64);
        QCOMPARE(set.sets(), 1u);
        for (int pass = 0; pass < 100; ++pass)
            for (std::uint64_t i = 0; i < 9; ++i)
                set.access(i);
        QVERIFY2(set.misses() >= std::uint64_t(0.75 * 900),
                 qPrintable(QString::number(set.misses())));
    }

    void treePlruVictimOrderHandWorked() {
        // One 4-way set. Fill A B C D into ways 0..3; the tree is then root=0 (victim left),
        // left=0 (way 0), right=0 (way 2). Touch A: root=1, left=1. E must evict C (way 2) —
        // true LRU would evict B. Then root=0, right=1, so F evicts B (way 1).
        SetAssociativeCache cache(4 * 64, 4, 64);
        const std::uint64_t A = 10, B = 11, C = 12, D = 13, E = 14, F = 15;
        for (std::uint64_t line : {A, B, C, D})
            QVERIFY(!cache.access(line));
        QVERIFY(cache.access(A));
        QVERIFY(!cache.access(E));
        QVERIFY(cache.probe(A) && cache.probe(B) && !cache.probe(C) && cache.probe(D) &&
                cache.probe(E));
        QVERIFY(!cache.access(F));
        QVERIFY(cache.probe(A) && !cache.probe(B) && cache.probe(D) && cache.probe(E) &&
                cache.probe(F));
        QCOMPARE(cache.hits(), std::uint64_t(1));
        QCOMPARE(cache.misses(), std::uint64_t(6));
    }

    void probeChangesNothingFillCountsNothing() {
        SetAssociativeCache cache(4 * 64, 4, 64);
        for (std::uint64_t line : {1, 2, 3, 4})
            cache.access(line);
        for (int i = 0; i < 10; ++i)
            QVERIFY(cache.probe(1)); // would make 1 MRU if probe touched it
        QVERIFY(!cache.probe(99));
        cache.access(5); // victim is line 1 (way 0), as after a plain fill
        QVERIFY(!cache.probe(1));
        const std::uint64_t hits = cache.hits(), misses = cache.misses();
        QVERIFY(!cache.fill(42));
        QVERIFY(cache.fill(42));
        QVERIFY(cache.probe(42));
        QCOMPARE(cache.hits(), hits);
        QCOMPARE(cache.misses(), misses);
        cache.clear();
        QVERIFY(!cache.probe(42) && !cache.probe(5));
        cache.resetStats();
        QCOMPARE(cache.accesses(), std::uint64_t(0));
    }

    void dirtyStateAndEvictionReports() {
        // The same 4-way set and PLRU order as treePlruVictimOrderHandWorked: A B C D fill ways
        // 0..3, touching A makes C (way 2) the victim, then B (way 1).
        SetAssociativeCache cache(4 * 64, 4, 64);
        const std::uint64_t A = 10, B = 11, C = 12, D = 13, E = 14, F = 15, G = 16;
        SetAssociativeCache::Eviction evicted;
        QVERIFY(!cache.access(A, false, evicted));
        QVERIFY(!evicted.valid);                  // an empty way displaces nothing
        QVERIFY(!cache.access(B, true, evicted)); // a write miss allocates the line dirty
        QVERIFY(!cache.access(C, false, evicted));
        QVERIFY(!cache.access(D, false, evicted));
        QVERIFY(cache.dirty(B) && !cache.dirty(A) && !cache.dirty(C));
        QVERIFY(cache.access(A, true, evicted)); // a write hit dirties a clean line
        QVERIFY(!evicted.valid);
        QVERIFY(cache.dirty(A));
        // E evicts C, which is clean.
        QVERIFY(!cache.access(E, false, evicted));
        QVERIFY(evicted.valid && !evicted.dirty);
        QCOMPARE(evicted.line, C);
        // F evicts B, written earlier: the report says dirty, and F itself arrives clean.
        QVERIFY(!cache.fill(F, false, evicted));
        QVERIFY(evicted.valid && evicted.dirty);
        QCOMPARE(evicted.line, B);
        QVERIFY(!cache.dirty(F));
        // A writeback into a present line only marks it dirty.
        QVERIFY(cache.fill(D, true, evicted));
        QVERIFY(!evicted.valid && cache.dirty(D));
        QVERIFY(cache.markDirty(E) && cache.dirty(E));
        QVERIFY(!cache.markDirty(G) && !cache.probe(G));
        // The plain calls of the trace analysis never set or report dirty state: a line
        // inserted over a dirty one is clean.
        cache.clear();
        for (std::uint64_t line : {A, B, C, D, E, F})
            cache.access(line);
        for (std::uint64_t line : {A, B, C, D, E, F})
            QVERIFY(!cache.dirty(line));
    }

    void nonPowerOfTwoSetsWork() {
        SetAssociativeCache cache(48 * 1024, 8, 64); // 768 lines, 96 sets
        QCOMPARE(cache.sets(), 96u);
        QCOMPARE(cache.capacityLines(), std::uint64_t(768));
        for (int pass = 0; pass < 3; ++pass)
            for (std::uint64_t i = 0; i < 768; ++i)
                cache.access(1000 + i);
        QCOMPARE(cache.misses(), std::uint64_t(768)); // modulo indexing fills every set evenly
        QCOMPARE(cache.hits(), std::uint64_t(2 * 768));
        // One line more than a set holds, all in the same set (stride = number of sets).
        SetAssociativeCache odd(48 * 1024, 8, 64);
        for (int pass = 0; pass < 10; ++pass)
            for (std::uint64_t i = 0; i < 9; ++i)
                odd.access(7 + 96 * i);
        QVERIFY(odd.misses() > 60);
        // A 3 MB 16-way LLC-like cache (3072 sets) and a 17 kB L1 (34 sets) also build.
        QCOMPARE(SetAssociativeCache(3 * 1024 * 1024, 16, 64).sets(), 3072u);
        QCOMPARE(SetAssociativeCache(17 * 1024, 8, 64).sets(), 34u);
    }

    void invalidGeometryThrows() {
        QVERIFY(throwsBadInput([] { SetAssociativeCache(32 * 1024, 3, 64); }));
        QVERIFY(throwsBadInput([] { SetAssociativeCache(32 * 1024, 128, 64); }));
        QVERIFY(throwsBadInput([] { SetAssociativeCache(32 * 1024, 8, 48); }));
        QVERIFY(throwsBadInput([] { SetAssociativeCache(256, 8, 64); }));
        QVERIFY(throwsBadInput([] { StridePrefetcher(17); }));
        QVERIFY(throwsBadInput([] { StridePrefetcher(2, 100); }));
    }

    void prefetcherDetectsStrideWithConfidence() {
        StridePrefetcher pf(2, 64);
        std::array<std::uint64_t, StridePrefetcher::kMaxDegree> out{};
        const std::uint64_t pc = 0x401000;
        QCOMPARE(pf.train(pc, 100, out), 0); // allocate
        QCOMPARE(pf.train(pc, 100, out), 0); // same line: ignored
        QCOMPARE(pf.train(pc, 103, out), 0); // first stride (3): not yet confirmed
        QCOMPARE(pf.train(pc, 106, out), 2); // stride repeated: confirmed
        QCOMPARE(out[0], std::uint64_t(109));
        QCOMPARE(out[1], std::uint64_t(112));
        // One irregular access does not lose the stream (confidence 2 -> 1, stride kept).
        QCOMPARE(pf.train(pc, 109, out), 2);
        QCOMPARE(pf.train(pc, 500, out), 2);
        QCOMPARE(out[0], std::uint64_t(503));
        // Negative strides work too.
        const std::uint64_t pc2 = 0x401100;
        pf.train(pc2, 1000, out);
        pf.train(pc2, 998, out);
        QCOMPARE(pf.train(pc2, 996, out), 2);
        QCOMPARE(out[0], std::uint64_t(994));
        QCOMPARE(out[1], std::uint64_t(992));
        // Degree 0 never prefetches.
        StridePrefetcher off(0);
        for (std::uint64_t i = 0; i < 10; ++i)
            QCOMPARE(off.train(pc, i, out), 0);
        pf.reset();
        QCOMPARE(pf.train(pc, 112, out), 0);
    }

    void hierarchyLevels() {
        CacheHierarchy h(MemoryConfig{32, 32, 512, 0});
        const std::uint64_t x = 0x7000'0000;
        QCOMPARE(h.accessData(0x400000, x, false), MemLevel::Dram);
        QCOMPARE(h.accessData(0x400000, x + 8, false), MemLevel::L1);
        QCOMPARE(h.accessData(0x400000, x + 63, true), MemLevel::L1);
        // Evict x from L1 (32 kB) but not L2 (512 kB): sweep 64 kB of other lines.
        for (std::uint64_t a = 0; a < 64 * 1024; a += kLine)
            h.accessData(0x400004, 0x1000'0000 + a, false);
        QCOMPARE(h.accessData(0x400000, x, false), MemLevel::L2);
        // Evict from L2 but not from the 4 MB LLC: sweep 1 MB.
        for (std::uint64_t a = 0; a < 1024 * 1024; a += kLine)
            h.accessData(0x400004, 0x2000'0000 + a, false);
        QCOMPARE(h.accessData(0x400000, x, false), MemLevel::Llc);
        QCOMPARE(h.accessData(0x400000, x, false), MemLevel::L1);
        // Beyond the LLC: sweep 8 MB.
        for (std::uint64_t a = 0; a < 8 * 1024 * 1024; a += kLine)
            h.accessData(0x400004, 0x3000'0000 + a, true);
        QCOMPARE(h.accessData(0x400000, x, false), MemLevel::Dram);
        // L2 and LLC are shared with instruction fetch: a line brought in as data is an L2 hit
        // for the front end, then an L1i hit.
        QCOMPARE(h.accessInstruction(x + 4), MemLevel::L2);
        QCOMPARE(h.accessInstruction(x + 20), MemLevel::L1);
        QCOMPARE(h.accessInstruction(0x5000'0000), MemLevel::Dram);
        QCOMPARE(h.latency(MemLevel::L2), 12u);
        QCOMPARE(h.lineOf(x + 65), x / 64 + 1);
    }

    void hierarchyLineCrossingAccessTouchesBothLines() {
        CacheHierarchy h(MemoryConfig{});
        const std::uint64_t a = 0x9000'0000;
        QCOMPARE(h.accessData(1, a + 64, false, 8), MemLevel::Dram);
        QCOMPARE(h.accessData(1, a + 64, false, 8), MemLevel::L1);
        // Bytes 60..67 span lines a and a+64: the slower (cold) line decides.
        QCOMPARE(h.accessData(2, a + 60, false, 8), MemLevel::Dram);
        QVERIFY(h.l1d().probe(a / 64));
        QCOMPARE(h.accessData(2, a + 60, false, 8), MemLevel::L1);
        QCOMPARE(h.l1d().misses(), std::uint64_t(2));
    }

    void prefetcherTurnsStridedMissesIntoHits() {
        auto l1HitRate = [](int degree, std::uint64_t strideBytes) {
            CacheHierarchy h(MemoryConfig{64, 64, 1024, degree});
            std::uint64_t hits = 0;
            const int n = 20000;
            for (int i = 0; i < n; ++i) {
                // Two interleaved streams from different PCs, plus an unrelated hot load.
                hits +=
                    h.accessData(0x401000, 0x1'0000'0000 + i * strideBytes, false) == MemLevel::L1;
                hits +=
                    h.accessData(0x401010, 0x2'0000'0000 + i * strideBytes, false) == MemLevel::L1;
                h.accessData(0x401020, 0x3000, false);
            }
            return static_cast<double>(hits) / (2 * n);
        };
        const double off = l1HitRate(0, 64);
        const double on = l1HitRate(2, 64);
        QVERIFY2(off < 0.01, qPrintable(QString::number(off)));
        QVERIFY2(on > 0.99, qPrintable(QString::number(on)));
        // Larger strides (3 lines) and sub-line strides (16 B: 3 of 4 are same-line hits anyway).
        QVERIFY(l1HitRate(0, 192) < 0.01);
        QVERIFY(l1HitRate(2, 192) > 0.99);
        QVERIFY(std::abs(l1HitRate(0, 16) - 0.75) < 0.01);
        QVERIFY(l1HitRate(2, 16) > 0.99);

        // Prefetched lines went into L2 too, and prefetches are counted; stores do not train.
        CacheHierarchy h(MemoryConfig{64, 64, 1024, 2});
        for (int i = 0; i < 100; ++i)
            h.accessData(0x401000, 0x4000'0000 + i * 64, false);
        QVERIFY(h.prefetchesIssued() >= 95 && h.prefetchesIssued() <= 102);
        QVERIFY(h.l2().probe((0x4000'0000 + 100 * 64) / 64));
        CacheHierarchy stores(MemoryConfig{64, 64, 1024, 2});
        for (int i = 0; i < 100; ++i)
            stores.accessData(0x401000, 0x4000'0000 + i * 64, true);
        QCOMPARE(stores.prefetchesIssued(), std::uint64_t(0));
        h.resetStats();
        QCOMPARE(h.prefetchesIssued(), std::uint64_t(0));
        QCOMPARE(h.l1d().accesses(), std::uint64_t(0));
    }
};

QTEST_APPLESS_MAIN(AnalysisCacheTest)
#include "AnalysisCacheTest.moc"
