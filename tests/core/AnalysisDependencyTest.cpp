// Trace analysis, dependencies and latencies: register RAW by last writer, memory RAW by byte
// overlap, the fixed-capacity producer list and the latency table.
#include "analysis/ConsumerLists.h"
#include "analysis/DependencyAnalyzer.h"
#include "analysis/LatencyTable.h"
#include "analysis/ProducerList.h"
#include "common/ConcordeError.h"

#include <QtTest>
#include <algorithm>
#include <initializer_list>
#include <set>

using namespace concorde;

namespace {
using Regs = std::initializer_list<std::uint8_t>;
constexpr std::uint8_t rax = ArchReg::kRax, rbx = ArchReg::kRbx, rcx = ArchReg::kRcx,
                       rdx = ArchReg::kRdx;

TraceRecord op(Regs dst, Regs src, InstrClass cls = InstrClass::IntAlu) {
    TraceRecord r;
    r.pc = 0x401000;
    r.size = 4;
    r.instrClass = cls;
    for (auto d : dst)
        r.addDestination(d);
    for (auto s : src)
        r.addSource(s);
    return r;
}
TraceRecord load(std::uint8_t dst, std::uint64_t address, std::uint16_t size, Regs src = {}) {
    TraceRecord r = op({dst}, src, InstrClass::Load);
    r.addLoad(address, size);
    return r;
}
TraceRecord store(std::uint64_t address, std::uint16_t size, Regs src = {}) {
    TraceRecord r = op({}, src, InstrClass::Store);
    r.addStore(address, size);
    return r;
}

std::set<std::int32_t> set(const ProducerList& p) {
    return {p.begin(), p.end()};
}
using Set = std::set<std::int32_t>;

/// Producers of every record (absolute indices).
std::vector<ProducerList> deps(const std::vector<TraceRecord>& records) {
    return DependencyAnalyzer::analyze(records);
}
} // namespace

class AnalysisDependencyTest : public QObject {
    Q_OBJECT

private slots:
    void registerRawChain() {
        const auto d =
            deps({op({rax}, {}), op({rbx}, {rax}), op({rcx}, {rbx}), op({rdx}, {rax, rcx})});
        QCOMPARE(set(d[0]), Set{});
        QCOMPARE(set(d[1]), Set{0});
        QCOMPARE(set(d[2]), Set{1});
        QCOMPARE(set(d[3]), (Set{0, 2}));
        QVERIFY(!d[1].isMemory(0));
    }

    // pop/ret/leave update the stack pointer beside their load: a consumer of that rsp is an
    // early edge; a consumer of the loaded register, or of both, is not.
    void stackPointerOfALoadIsEarly() {
        constexpr std::uint8_t rsp = ArchReg::kRsp;
        TraceRecord pop = op({rbx, rsp}, {rsp}, InstrClass::Load);
        pop.addLoad(0x7000, 8);
        const TraceRecord push = [] {
            TraceRecord r = op({rsp}, {rsp, rcx}, InstrClass::Store);
            r.addStore(0x6ff8, 8);
            return r;
        }();
        TraceRecord popPushed = op({rbx, rsp}, {rsp}, InstrClass::Load);
        popPushed.addLoad(0x6ff8, 8); // what the push stored
        const auto d = deps({pop, pop, op({rax}, {rbx}), op({rdx}, {rbx, rsp}), push, popPushed});
        QCOMPARE(set(d[1]), Set{0});
        QVERIFY(d[1].isEarly(0));  // the next pop needs only rsp
        QVERIFY(!d[2].isEarly(0)); // rbx is the loaded data
        QCOMPARE(set(d[3]), Set{1});
        QVERIFY(!d[3].isEarly(0)); // rbx and rsp of one pop: waits for the data
        QCOMPARE(set(d[4]), Set{1});
        QVERIFY(d[4].isEarly(0));                      // push after pop: rsp only
        QCOMPARE(set(d[5]), Set{4});                   // the pop reads what the push stored
        QVERIFY(d[5].isMemory(0) && !d[5].isEarly(0)); // a push has no load: its rsp is normal
    }

    void warAndWawAreNotDependencies() {
        const auto d = deps({
            op({rbx}, {rax}), // 0: reads rax, writes rbx
            op({rax}, {}),    // 1: WAR on rax with 0
            op({rbx}, {}),    // 2: WAW on rbx with 0
            op({rcx}, {rbx}), // 3: RAW on rbx: the last writer is 2
        });
        QCOMPARE(set(d[1]), Set{});
        QCOMPARE(set(d[2]), Set{});
        QCOMPARE(set(d[3]), Set{2});
    }

    void readBeforeWriteWithinOneInstruction() {
        const auto d = deps({op({rax}, {}), op({rax}, {rax}), op({rbx}, {rax})});
        QCOMPARE(set(d[1]), Set{0}); // add rax, rax: the previous writer, not itself
        QCOMPARE(set(d[2]), Set{1});
    }

    void flagsCountRipAndNoneIgnored() {
        const auto d = deps({
            op({ArchReg::kFlags, ArchReg::kRip}, {}), // 0: cmp (writes flags), rip written
            op({ArchReg::kRip}, {ArchReg::kFlags, ArchReg::kRip}), // 1: jcc reads flags
            op({rax}, {ArchReg::kRip, ArchReg::kNone}),            // 2: rip-relative lea
            op({rbx}, {ArchReg::kCount, 200}),                     // 3: unknown numbers
        });
        QCOMPARE(set(d[1]), Set{0});
        QCOMPARE(set(d[2]), Set{});
        QCOMPARE(set(d[3]), Set{});
    }

    void storeToLoadOverlap() {
        const auto d = deps({
            store(0x1000, 8),     // 0: bytes 1000..1007
            load(rax, 0x1000, 8), // 1: same bytes
            load(rbx, 0x1008, 8), // 2: adjacent, no overlap
            load(rcx, 0x0FF8, 8), // 3: just below, no overlap
            load(rdx, 0x1007, 1), // 4: last byte only
            load(rdx, 0x0FFC, 8), // 5: straddles the start
        });
        QCOMPARE(set(d[1]), Set{0});
        QVERIFY(d[1].isMemory(0));
        QCOMPARE(set(d[2]), Set{});
        QCOMPARE(set(d[3]), Set{});
        QCOMPARE(set(d[4]), Set{0});
        QCOMPARE(set(d[5]), Set{0});
    }

    void partialOverlapIsByteExact() {
        const auto d = deps({
            store(0x2004, 4),     // 0: upper half of a granule
            load(rax, 0x2000, 4), // 1: lower half: no overlap
            load(rax, 0x2000, 8), // 2: whole granule: overlaps 0
            store(0x2006, 8),     // 3: unaligned, spans two granules (2006..200D)
            load(rbx, 0x200C, 2), // 4: inside 3's second granule
            load(rbx, 0x2004, 2), // 5: only 0's bytes (2004..2005)
            load(rbx, 0x2004, 4), // 6: 2004..2007: both 0 and 3
            load(rcx, 0x200E, 2), // 7: just past 3
        });
        QCOMPARE(set(d[1]), Set{});
        QCOMPARE(set(d[2]), Set{0});
        QCOMPARE(set(d[4]), Set{3});
        QCOMPARE(set(d[5]), Set{0});
        QCOMPARE(set(d[6]), (Set{0, 3}));
        QCOMPARE(set(d[7]), Set{});
    }

    void mostRecentStoreWins() {
        const auto d = deps({
            store(0x3000, 8),     // 0
            store(0x3000, 8),     // 1: overwrites all of 0
            load(rax, 0x3000, 8), // 2: depends on 1 only
            store(0x3000, 4),     // 3: overwrites the low half
            load(rax, 0x3000, 8), // 4: low half from 3, high half from 1
        });
        QCOMPARE(set(d[2]), Set{1});
        QCOMPARE(set(d[4]), (Set{1, 3}));
    }

    void readModifyWriteAndRegisterPlusMemory() {
        TraceRecord rmw = op({ArchReg::kFlags}, {rax}); // add [0x4000], rax
        rmw.addLoad(0x4000, 8);
        rmw.addStore(0x4000, 8);
        const auto d = deps({
            store(0x4000, 8, {rbx}), // 0
            op({rax}, {}),           // 1
            rmw,                     // 2: reads rax (1) and memory (0); not itself
            load(rcx, 0x4000, 8),    // 3: memory from 2
            op({rdx}, {}),           // 4
            [] {                     // 5: push rdx: reads rdx, rsp; writes rsp and memory
                TraceRecord r = op({ArchReg::kRsp}, {rdx, ArchReg::kRsp}, InstrClass::Store);
                r.addStore(0x5000, 8);
                return r;
            }(),
            load(rdx, 0x5000, 8, {ArchReg::kRsp}), // 6: pop rdx: rsp and memory both from 5
        });
        QCOMPARE(set(d[2]), (Set{0, 1}));
        QCOMPARE(set(d[3]), Set{2});
        QCOMPARE(set(d[6]), Set{5});
        QCOMPARE(d[6].count, std::uint8_t(1)); // merged: one producer, marked memory
        QVERIFY(d[6].isMemory(0));
        for (std::size_t k = 0; k < d[2].count; ++k)
            QCOMPARE(d[2].isMemory(k), d[2].index[k] == 0);
    }

    void warmupProducersDroppedAndIndicesRebased() {
        const std::vector<TraceRecord> records{
            op({rax}, {}),         // w0
            store(0x6000, 8),      // w1
            op({rbx}, {rax}),      // m0: producer w0 dropped
            load(rcx, 0x6000, 8),  // m1: producer w1 dropped
            op({rdx}, {rbx, rcx}), // m2: m0 and m1
        };
        const auto d = DependencyAnalyzer::analyze(records, 2);
        QCOMPARE(d.size(), std::size_t(3));
        QCOMPARE(set(d[0]), Set{});
        QCOMPARE(set(d[1]), Set{});
        QCOMPARE(set(d[2]), (Set{0, 1}));
        QCOMPARE(DependencyAnalyzer::analyze(records, 5).size(), std::size_t(0));
    }

    void streamingMatchesBatchAndReset() {
        std::vector<TraceRecord> records;
        for (int i = 0; i < 3000; ++i) {
            records.push_back(store(0x10000 + 8 * (i % 700), 8, {rax}));
            records.push_back(load(static_cast<std::uint8_t>(rax + i % 4), 0x10000 + 8 * (i % 500),
                                   8, {static_cast<std::uint8_t>(rax + (i + 1) % 4)}));
        }
        const auto batch = deps(records);
        DependencyAnalyzer streaming;
        for (int pass = 0; pass < 2; ++pass) {
            streaming.reset();
            for (std::size_t i = 0; i < records.size(); ++i)
                QCOMPARE(set(streaming.next(records[i])), set(batch[i]));
            QCOMPARE(streaming.processed(), records.size());
        }
    }

    void manyGranulesSurviveRehash() {
        std::vector<TraceRecord> records;
        const int n = 20000; // well beyond the initial 4096-slot table
        for (int i = 0; i < n; ++i)
            records.push_back(store(0x100000 + 64 * static_cast<std::uint64_t>(i), 8));
        for (int i = 0; i < n; ++i)
            records.push_back(load(rax, 0x100000 + 64 * static_cast<std::uint64_t>(i) + 4, 4));
        const auto d = deps(records);
        for (int i = 0; i < n; ++i)
            QCOMPARE(set(d[n + i]), Set{i});
    }

    void producerListKeepsYoungest() {
        ProducerList p;
        for (std::int32_t i : {5, 3, 9, 3, 1, 7, 2, 8, 4})
            p.add(i, false);
        QCOMPARE(p.count, std::uint8_t(8)); // 3 merged
        p.add(6, true);                     // full: replaces the oldest (1)
        p.add(0, false);                    // older than everything kept: ignored
        QCOMPARE(set(p), (Set{2, 3, 4, 5, 6, 7, 8, 9}));
        for (std::size_t k = 0; k < p.count; ++k)
            QCOMPARE(p.isMemory(k), p.index[k] == 6);
        p.add(9, true); // merging sets the memory bit
        QVERIFY(p.contains(9));
        for (std::size_t k = 0; k < p.count; ++k)
            if (p.index[k] == 9)
                QVERIFY(p.isMemory(k));

        // An instruction with 10 distinct register producers keeps the 8 youngest.
        std::vector<TraceRecord> records;
        for (int i = 0; i < 10; ++i)
            records.push_back(op({static_cast<std::uint8_t>(ArchReg::kRax + i)}, {}));
        TraceRecord wide = op({}, {});
        for (int i = 0; i < 8; ++i)
            wide.addSource(static_cast<std::uint8_t>(ArchReg::kRax + i));
        wide.addLoad(0x7000, 16);
        records.push_back(store(0x7000, 8)); // 10
        records.push_back(store(0x7008, 8)); // 11
        records.push_back(wide);
        const auto d = deps(records);
        QCOMPARE(set(d[12]), (Set{2, 3, 4, 5, 6, 7, 10, 11}));
    }

    // The reverse edges of a hand-made graph: each producer lists its consumers in instruction
    // order, an early edge carries its flag, an instruction nobody reads has none, and every
    // edge appears once.
    void consumerListsReverseTheProducers() {
        std::vector<ProducerList> producers(5);
        producers[1].add(0, false);
        producers[2].add(0, false, /*early=*/true);
        producers[2].add(1, true);
        producers[4].add(0, false);
        producers[4].add(2, false);
        const ConsumerLists lists(
            producers.size(), [&](std::size_t i) -> const ProducerList& { return producers[i]; });
        const auto of = [&](std::size_t i) {
            std::vector<std::pair<std::uint32_t, bool>> edges;
            for (const std::uint32_t edge : lists.of(i))
                edges.emplace_back(ConsumerLists::consumer(edge), ConsumerLists::isEarly(edge));
            return edges;
        };
        using Edges = std::vector<std::pair<std::uint32_t, bool>>;
        QCOMPARE(of(0), (Edges{{1, false}, {2, true}, {4, false}}));
        QCOMPARE(of(1), (Edges{{2, false}}));
        QCOMPARE(of(2), (Edges{{4, false}}));
        QVERIFY(of(3).empty());
        QVERIFY(of(4).empty());
    }

    void latencyTableDefaults() {
        const LatencyTable t;
        QCOMPARE(t.latency(InstrClass::IntAlu), 1u);
        QCOMPARE(t.latency(InstrClass::IntMul), 3u);
        QCOMPARE(t.latency(InstrClass::IntDiv), 20u);
        QCOMPARE(t.latency(InstrClass::FpAdd), 3u);
        QCOMPARE(t.latency(InstrClass::FpMul), 4u);
        QCOMPARE(t.latency(InstrClass::FpDiv), 12u);
        QCOMPARE(t.latency(InstrClass::Simd), 3u);
        QCOMPARE(t.latency(InstrClass::Load), 0u);
        QCOMPARE(t.latency(InstrClass::Store), 1u);
        QCOMPARE(t.latency(InstrClass::Branch), 1u);
        QCOMPARE(t.latency(InstrClass::Fence), 1u);
        QCOMPARE(t.latency(InstrClass::Nop), 1u);
        QCOMPARE(t.instructionLatency(InstrClass::Load, 12), 12u);
        QCOMPARE(t.instructionLatency(InstrClass::IntAlu, 4), 5u); // add rax, [mem]
        QCOMPARE(t.instructionLatency(InstrClass::Load, 0), 1u);   // never zero
        LatencyTable custom;
        custom.set(InstrClass::IntDiv, 40);
        QCOMPARE(custom.latency(InstrClass::IntDiv), 40u);
        QVERIFY(custom != t);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, custom.set(InstrClass::IntDiv, 5000));
    }
};

QTEST_APPLESS_MAIN(AnalysisDependencyTest)
#include "AnalysisDependencyTest.moc"
