// Functional warm-up (issue 16): a WarmState built from the warm-up records must leave the caches,
// the prefetcher and TAGE as a detailed warm-up over the same records does, for every memory
// configuration, at a fraction of the size. Known answers come from synthetic kernels; the
// equality check runs on real traces.
#include "analysis/WarmState.h"

#include "../support/KernelTrace.h"
#include "../support/SampleRegion.h"
#include "../support/ToolStream.h"
#include "analysis/CacheHierarchy.h"
#include "analysis/FunctionalWarmupSink.h"
#include "analysis/RegionAnalyzer.h"
#include "analysis/WarmStateBuilder.h"
#include "common/ConcordeError.h"
#include "common/Varint.h"
#include "common/ZstdFrame.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"
#include "refsim/OutOfOrderCore.h"
#include "refsim/ReferenceSimulator.h"
#include "trace/PipeReader.h"
#include "trace/TraceReader.h"
#include "trace/TracerProtocol.h"
#include "trace/TracerStreamDecoder.h"
#include "trace/synthetic/VectorSink.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <map>
#include <memory>
#include <random>
#include <thread>
#include <unistd.h>

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

/// CPI of the reference simulator with the default pipeline (BTB, return stack and indirect
/// predictor included: the warm state carries them).
double cpiOf(std::span<const TraceRecord> records, std::size_t warmup, const CoreConfig& config,
             const WarmState* warm = nullptr) {
    const std::uint64_t cycles = OutOfOrderCore(config).run(records, warmup, warm);
    return double(cycles) / double(records.size() - warmup);
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

/// A small program: a loop of loads over `lines` distinct lines spread over a few finest sets,
/// with a conditional branch every fourth instruction.
std::vector<TraceRecord> loadProgram(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    const std::uint64_t sets = WarmState::finestSets();
    std::vector<TraceRecord> records;
    for (std::size_t i = 0; i < count; ++i) {
        if (i % 4 == 3) {
            records.push_back(conditional(0x400100, random() % 3 != 0));
            continue;
        }
        TraceRecord r;
        r.pc = 0x400000 + 4 * (i % 4);
        r.size = 4;
        r.instrClass = InstrClass::Load;
        r.addLoad(((random() % 40) * sets + 5 + random() % 3) << 6, 8);
        records.push_back(r);
    }
    return records;
}

std::vector<std::uint8_t> stateBytes(std::span<const TraceRecord> records) {
    WarmStateBuilder builder;
    builder.observe(records);
    return builder.finish().encode();
}

} // namespace

namespace {

/// Forwards everything to `inner`; with `hideFunctional` it never asks for compact records, so
/// a producer has to send every record through append() (the general path).
/// Feeds a tool stream to the decoder in uneven chunks, as a pipe delivers them.
void feedInUnevenChunks(TracerStreamDecoder& decoder, const std::vector<unsigned char>& bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t n = std::min<std::size_t>(bytes.size() - at, 65536 + at % 4099);
        decoder.feed(bytes.data() + at, n);
        at += n;
    }
}

/// Two decodings of one stream wrote `count` regions alike: the same warm-up, length,
/// functional warm-up and warm state.
template <class Regions>
void expectSameRegions(const Regions& expected, const Regions& actual, std::size_t count) {
    QCOMPARE(expected.size(), count);
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t r = 0; r < expected.size(); ++r) {
        QCOMPARE(actual[r].warmup, expected[r].warmup);
        QCOMPARE(actual[r].length, expected[r].length);
        QCOMPARE(actual[r].functionalWarmup, expected[r].functionalWarmup);
        QVERIFY2(actual[r].warmState == expected[r].warmState,
                 qPrintable(QString("region %1").arg(r)));
    }
}

class ForwardingSink : public RecordSink {
public:
    ForwardingSink(RecordSink& inner, bool hideFunctional)
        : inner_(inner), hideFunctional_(hideFunctional) {}
    void beginRegion(std::uint64_t programStart, std::uint64_t warmup) override {
        inner_.beginRegion(programStart, warmup);
    }
    void append(const TraceRecord& record) override { inner_.append(record); }
    std::uint64_t functionalRecordsWanted() const override {
        return hideFunctional_ ? 0 : inner_.functionalRecordsWanted();
    }
    void appendFunctional(std::span<const FunctionalRecord> records,
                          std::span<const MemoryAccess> accesses) override {
        compactRecords += records.size();
        for (const FunctionalRecord& r : records)
            followers += r.followers;
        inner_.appendFunctional(records, accesses);
    }
    void setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) override {
        inner_.setBasicBlockVector(std::move(bbv));
    }
    void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> state) override {
        inner_.setWarmState(functionalWarmup, std::move(state));
    }
    void endRegion() override { inner_.endRegion(); }

    std::uint64_t compactRecords = 0; ///< FunctionalRecords handed over
    std::uint64_t followers = 0;      ///< instructions they stood for besides themselves

private:
    RecordSink& inner_;
    bool hideFunctional_;
};

/// A tool stream of two threads with signals, frames cut at random points, every branch kind,
/// guarded accesses, instructions with more accesses than a TraceRecord keeps and runs of
/// instructions that touch no memory after others (in their last line or not), in four
/// regions of `W` detailed warm-up records after functional warm-ups of `functional[i]`
/// records (region 1 follows region 0 closely, so the tracer clipped its warm-up to 300; the
/// program ends inside region 3's functional part).
std::vector<unsigned char> twoThreadToolStream(std::uint64_t W,
                                               const std::vector<std::uint64_t>& functional,
                                               std::uint64_t measured) {
    testing::ToolStream stream;
    std::mt19937_64 random(17);
    struct Static {
        std::uint32_t id;
        std::uint64_t pc;
        std::uint8_t size;
        std::size_t memorySlots;
    };
    std::vector<Static> statics;
    using Slot = testing::ToolStream::Slot;
    for (std::uint32_t i = 0; i < 80; ++i) {
        const std::uint64_t pc = 0x400000 + 0x40 * (i / 4) + 7 * (i % 4) + (i % 9 == 0 ? 60 : 0);
        const std::uint8_t size = static_cast<std::uint8_t>(3 + i % 5);
        const std::uint8_t kind = static_cast<std::uint8_t>(i % 3 == 0 ? 1 + (i / 3) % 5 : 0);
        const std::uint64_t target = kind == CTP_BRANCH_DIRECT_CONDITIONAL ||
                                             kind == CTP_BRANCH_DIRECT_UNCONDITIONAL ||
                                             kind == CTP_BRANCH_CALL
                                         ? 0x400000 + 0x40 * ((i * 7) % 20)
                                         : 0;
        std::vector<Slot> memorySlots;
        for (std::uint32_t k = 0; k < i % 6; ++k) // up to 3 loads and 2 stores
            memorySlots.push_back(
                {static_cast<std::uint8_t>(k % 2 == 1 ? CTP_MEM_STORE : CTP_MEM_LOAD),
                 static_cast<std::uint16_t>(k == 0 ? 64 : 8)});
        statics.push_back({stream.defineStatic(pc, size, kind, target, {1, 2}, {3}, memorySlots),
                           pc, size, memorySlots.size()});
    }
    // Instructions without memory or branch: per line, one inside it and one that runs into
    // the next line (never a follower).
    std::map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>> plainOfLine;
    for (const Static& s : std::vector<Static>(statics)) {
        const std::uint64_t line = (s.pc + s.size - 1) >> 6;
        if (!plainOfLine.count(line))
            plainOfLine[line] = {stream.defineStatic((line << 6) + 20, 4, 0, 0, {1}, {2}, {}),
                                 stream.defineStatic((line << 6) + 62, 4, 0, 0, {1}, {2}, {})};
    }
    std::mt19937_64 plainRandom(23); // apart, so that the rest stays as it was without them
    std::uint32_t tid = 1;
    const auto run = [&](std::uint64_t records) {
        for (std::uint64_t n = 0; n < records; ++n) {
            const Static& s = statics[random() % statics.size()];
            std::vector<std::uint64_t> addresses;
            for (std::size_t k = 0; k < s.memorySlots; ++k)
                addresses.push_back(random() % 8 == 0 ? 0 : 0x10000000 + (random() % 50000) * 8);
            stream.record(s.id, addresses);
            // Now and then a run of memory-less instructions: in s's last line (followers of
            // s unless s is a branch), in another line, or reaching into the next line.
            for (std::uint64_t extra = plainRandom() % 8; extra < 4 && n + 1 < records;
                 ++extra, ++n) {
                const std::uint64_t which = plainRandom() % 8;
                auto plain = plainOfLine.find((s.pc + s.size - 1) >> 6);
                if (which == 0)
                    plain = std::next(plainOfLine.begin(), plainRandom() % plainOfLine.size());
                stream.record(which == 1 ? plain->second.second : plain->second.first, {});
            }
            const std::uint64_t event = random() % 1000;
            if (event < 2) {
                tid = 3 - tid;
                stream.thread(tid);
            } else if (event < 4) {
                stream.discontinuity(statics[random() % statics.size()].pc);
            } else if (event < 7) {
                stream.flushRecords();
            }
        }
    };
    const std::uint64_t clipped = 300;
    for (std::uint32_t region = 0; region < functional.size(); ++region) {
        const std::uint64_t warmup = region == 1 ? clipped : W + functional[region];
        stream.beginRegion(region, warmup);
        if (region + 1 == functional.size()) { // ends inside the functional warm-up
            run(functional[region] / 2);
            stream.endRegion(region, 0);
            break;
        }
        // The region ends while the other thread's branch still waits for its successor.
        run(warmup + measured - 2);
        stream.record(statics[3].id, {}); // a conditional branch
        tid = 3 - tid;
        stream.thread(tid);
        stream.record(statics[1].id, {0x10000040});
        stream.endRegion(region, statics[random() % statics.size()].pc);
    }
    stream.end();
    return stream.bytes();
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

    /// The builder's fixed table of finestSets() × ways() lines keeps exactly what an unbounded
    /// recency list would: per finest set the ways() most recent distinct lines, in global order.
    void builderTableIsExact() {
        std::mt19937_64 random(11);
        const std::uint64_t sets = WarmState::finestSets();
        std::vector<TraceRecord> records;
        std::vector<std::uint64_t> touches; // data lines, in order
        for (int i = 0; i < 100000; ++i) {
            TraceRecord r;
            r.pc = 0x400000; // one fetch line, touched once (first)
            r.size = 4;
            r.instrClass = InstrClass::Load;
            // 40 lines in each of 3 finest sets: every set overflows its ways many times.
            const std::uint64_t line = (random() % 40) * sets + 100 + random() % 3;
            r.addLoad(line << 6, 8);
            records.push_back(r);
            touches.push_back(line);
        }
        std::map<std::uint64_t, std::size_t> lastUse;
        lastUse[0x400000 >> 6] = 0;
        for (std::size_t i = 0; i < touches.size(); ++i)
            lastUse[touches[i]] = i + 1;
        std::map<std::uint64_t, std::vector<std::pair<std::size_t, std::uint64_t>>> bySet;
        for (const auto& [line, when] : lastUse)
            bySet[line % sets].push_back({when, line});
        std::vector<std::pair<std::size_t, std::uint64_t>> kept;
        for (auto& [set, lines] : bySet) {
            std::sort(lines.rbegin(), lines.rend());
            lines.resize(std::min<std::size_t>(lines.size(), WarmState::ways()));
            kept.insert(kept.end(), lines.begin(), lines.end());
        }
        std::sort(kept.begin(), kept.end());
        std::vector<WarmState::Line> expected;
        for (const auto& [when, line] : kept)
            expected.push_back({line, when == 0});

        WarmStateBuilder builder;
        builder.observe(records);
        const WarmState state = builder.finish();
        QCOMPARE(state.lines.size(), std::size_t(1 + 3 * WarmState::ways()));
        QVERIFY(state.lines == expected);
        QCOMPARE(state.recentLoads.size(), WarmState::kRecentLoads);
        QCOMPARE(state.recentLoads.back().address, touches.back() << 6);
    }

    /// `concorde trace --functional-warmup N --warmup W`: of each region's W + N warm-up
    /// records the first N become its warm state and only W reach the trace; a region whose
    /// warm-up the tracer clipped (it follows the previous region closely) carries the state on
    /// from the previous region; a program that ends inside the functional part leaves a region
    /// with its state and no records.
    void functionalWarmupSinkSplitsEveryRegion() {
        const std::size_t W = 100, N = 1000, M = 500;
        const std::vector<TraceRecord> program = loadProgram(20000, 5);
        const std::span<const TraceRecord> all(program);
        synthetic::VectorSink out;
        FunctionalWarmupSink sink(out, W, N);
        std::size_t at = 0;
        const auto region = [&](std::uint64_t warmup, std::size_t records) {
            sink.beginRegion(at + warmup, warmup);
            for (std::size_t i = 0; i < records; ++i)
                sink.append(program[at + i]);
            sink.endRegion();
            at += records;
        };
        region(W + N, W + N + M); // region 0: full warm-up
        region(300, 300 + M);     // region 1: clipped to 300, right after region 0
        at += 5000;               // a gap the tracer fast-forwarded
        const std::size_t region2 = at;
        region(W + N, W + N + M); // region 2: full, so it starts afresh
        region(W + N, 50);        // region 3: the program ended after 50 records

        const auto& regions = out.regions();
        QCOMPARE(regions.size(), std::size_t(4));
        const std::vector<std::uint64_t> functional = {N, 200, N, 50};
        const std::vector<std::uint64_t> detailed = {W, W, W, 0};
        for (std::size_t r = 0; r < 4; ++r) {
            QCOMPARE(regions[r].functionalWarmup, functional[r]);
            QCOMPARE(regions[r].warmup, detailed[r]);
            QCOMPARE(regions[r].length, r < 3 ? M : 0);
        }
        // Only the detailed part reaches the trace: region 0's records are program[N, N+W+M).
        QVERIFY(
            std::equal(out.records().begin(), out.records().begin() + W + M, program.begin() + N));
        QVERIFY(regions[0].warmState == stateBytes(all.first(N)));
        QVERIFY(regions[1].warmState == stateBytes(all.first(W + N + M + 200)));
        QVERIFY(regions[2].warmState == stateBytes(all.subspan(region2, N)));
        QVERIFY(regions[3].warmState == stateBytes(all.subspan(region2 + W + N + M, 50)));
        QCOMPARE(sink.functionalRecords(), std::uint64_t(N + 200 + N + 50));
        // What the sink hands on decodes as the region's warm state.
        const auto warm = WarmState::ofRegion(regions[0], "region 0");
        QVERIFY(warm && warm->instructions == N);
        QVERIFY(!WarmState::ofRegion(Region{}, "cold"));
    }

    /// The tracer's stream decoder hands functional warm-up records to the sink in compact
    /// batches (its fast path) instead of as TraceRecords: the trace and every warm state must
    /// be exactly those of the general path, through thread switches, signals, frame cuts,
    /// clipped regions, dropped accesses, the predictor's shorter training span and a program
    /// that ends inside a functional warm-up.
    void compactFunctionalRecordsWarmAsTheGeneralPath() {
        const std::uint64_t W = 100, M = 400;
        const std::uint64_t longest = FunctionalWarmupSink::kPredictorWarmup + 30000;
        const std::vector<std::uint64_t> functional = {longest, 0, 9000, 6000};
        const std::vector<unsigned char> bytes = twoThreadToolStream(W, functional, M);
        struct Result {
            synthetic::VectorSink out;
            std::uint64_t compact = 0, followers = 0, written = 0, unresolved = 0, dropped = 0,
                          functional = 0;
        };
        const auto decode = [&](bool hideFunctional, Result& result) {
            FunctionalWarmupSink warming(result.out, W, longest);
            ForwardingSink forward(warming, hideFunctional);
            TracerStreamDecoder decoder(forward);
            feedInUnevenChunks(decoder, bytes);
            decoder.finish();
            QVERIFY(decoder.complete());
            result.compact = forward.compactRecords + forward.followers;
            result.followers = forward.followers;
            result.written = decoder.recordsWritten();
            result.unresolved = decoder.unresolvedBranches();
            result.dropped = decoder.droppedOperands();
            result.functional = warming.functionalRecords();
        };
        Result general, fast;
        decode(true, general);
        decode(false, fast);
        QCOMPARE(general.compact, std::uint64_t(0));
        QCOMPARE(general.followers, std::uint64_t(0));
        QVERIFY(fast.followers > 0);
        // Most functional records took the fast path: the rest waited behind another thread's
        // branch (a thread switch after a branch queues the other thread until it resumes).
        QVERIFY2(fast.compact > fast.functional / 2,
                 qPrintable(QString("%1 of %2").arg(fast.compact).arg(fast.functional)));
        QVERIFY(general.unresolved > 0); // thread switches left some outcomes open
        QVERIFY(general.dropped > 0);    // three loads where a record keeps two
        QCOMPARE(fast.written, general.written);
        QCOMPARE(fast.unresolved, general.unresolved);
        QCOMPARE(fast.dropped, general.dropped);
        QCOMPARE(fast.functional, general.functional);
        const auto& a = general.out.regions();
        expectSameRegions(a, fast.out.regions(), 4);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!a[0].warmState.empty() && !a[3].warmState.empty());
        QVERIFY(fast.out.records() == general.out.records());
    }

    /// RECORDS frames are decoded as their bytes arrive: fed a few bytes at a time, the decoder
    /// gives exactly what it gives fed the whole stream at once, and a stream that stops inside
    /// a RECORDS frame, or whose frame holds fewer records than its count, is refused.
    void streamDecodesTheSameInAnyChunksAndRefusesTruncation() {
        const std::uint64_t W = 100, M = 400, longest = 20000;
        const std::vector<unsigned char> bytes =
            twoThreadToolStream(W, {longest, 0, 9000, 6000}, M);
        struct Result {
            synthetic::VectorSink out;
            std::uint64_t written = 0;
        };
        const auto decode = [&](const std::vector<unsigned char>& stream, std::size_t chunk,
                                Result& result) {
            FunctionalWarmupSink warming(result.out, W, longest);
            TracerStreamDecoder decoder(warming);
            for (std::size_t at = 0; at < stream.size();) {
                const std::size_t n = std::min(stream.size() - at, chunk + at % 3);
                decoder.feed(stream.data() + at, n);
                at += n;
            }
            decoder.finish();
            result.written = decoder.recordsWritten();
            return decoder.complete();
        };
        Result whole;
        QVERIFY(decode(bytes, bytes.size(), whole));
        // Pieces smaller than a record, than a frame, and around the 4096 bytes the decoder
        // joins to an unfinished record before it decodes the rest in place.
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{4095},
                                        std::size_t{4097}, std::size_t{9000}}) {
            Result pieces;
            QVERIFY(decode(bytes, chunk, pieces));
            QCOMPARE(pieces.written, whole.written);
            QVERIFY(pieces.out.records() == whole.out.records());
            QCOMPARE(pieces.out.regions().size(), whole.out.regions().size());
            for (std::size_t r = 0; r < whole.out.regions().size(); ++r)
                QVERIFY(pieces.out.regions()[r].warmState == whole.out.regions()[r].warmState);
        }

        // The first RECORDS frame after the header: cut inside it, and one record short.
        std::size_t frame = ctp_get_u32(bytes.data() + 12);
        while (ctp_get_u32(bytes.data() + frame) != CTP_FRAME_RECORDS)
            frame += CTP_FRAME_HEADER_BYTES + ctp_get_u32(bytes.data() + frame + 4);
        const std::uint32_t payload = ctp_get_u32(bytes.data() + frame + 4);
        QVERIFY(payload > CTP_RECORDS_PREFIX + 8);
        for (const std::size_t cut : {frame + CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX + 5,
                                      frame + CTP_FRAME_HEADER_BYTES + payload - 1}) {
            const std::vector<unsigned char> truncated(bytes.begin(), bytes.begin() + cut);
            Result result;
            QVERIFY_THROWS_EXCEPTION(ConcordeError, decode(truncated, 4096, result));
        }
        std::vector<unsigned char> overcounted = bytes;
        const std::size_t countAt = frame + CTP_FRAME_HEADER_BYTES + 8;
        const std::uint32_t count = ctp_get_u32(overcounted.data() + countAt) + 1;
        for (int b = 0; b < 4; ++b)
            overcounted[countAt + b] = static_cast<unsigned char>(count >> (8 * b));
        Result result;
        QVERIFY_THROWS_EXCEPTION(ConcordeError, decode(overcounted, 4096, result));
    }

    /// `concorde trace` reads the tracer's pipe on a second thread (PipeReader), so that the
    /// tool never waits for the decoder: the consumer must get every byte in order, whatever
    /// pieces the writer writes and however long it pauses, and an exception from the consumer
    /// must come out (not hang) while the writer still holds the pipe open.
    void pipeReaderHandsOverEveryByteInOrder() {
        std::mt19937_64 random(11);
        std::vector<unsigned char> sent(3 * PipeReader::kChunkBytes + 12345);
        for (auto& b : sent)
            b = static_cast<unsigned char>(random());
        int fds[2];
        QVERIFY(::pipe(fds) == 0);
        std::thread writer([&] {
            std::mt19937_64 pieces(3);
            for (std::size_t at = 0; at < sent.size();) {
                const std::size_t n =
                    std::min<std::size_t>(sent.size() - at, 1 + pieces() % 300000);
                if (::write(fds[1], sent.data() + at, n) != static_cast<ssize_t>(n))
                    break; // QVERIFY needs the test's thread; the comparison below fails
                at += n;
                if (pieces() % 8 == 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(3));
            }
            ::close(fds[1]);
        });
        std::vector<unsigned char> received;
        std::size_t calls = 0;
        PipeReader::drain(fds[0], [&](const unsigned char* data, std::size_t size) {
            received.insert(received.end(), data, data + size);
            ++calls;
            // A slow consumer, so that chunks queue up behind it.
            if (calls % 4 == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
        });
        writer.join();
        ::close(fds[0]);
        QVERIFY(received == sent);
        QVERIFY(calls >= 4);

        QVERIFY(::pipe(fds) == 0);
        QVERIFY(::write(fds[1], sent.data(), 1000) == 1000); // and the pipe stays open
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 PipeReader::drain(fds[0], [](const unsigned char*, std::size_t) {
                                     throw std::runtime_error("consumer failed");
                                 }));
        ::close(fds[0]);
        ::close(fds[1]);
    }

    /// The reader's chunks come from a fixed pool (kMaxChunks + 2 of them) and are recycled:
    /// a stream longer than the pool, read while the consumer first stalls (the queue fills to
    /// its bound) and then keeps up, must still arrive whole and in order.
    void pipeReaderRecyclesItsChunksOnALongStream() {
        const auto byteAt = [](std::uint64_t i) {
            return static_cast<unsigned char>((i * 2654435761u) >> 13);
        };
        const std::uint64_t total = (PipeReader::kMaxChunks + 40) * PipeReader::kChunkBytes + 777;
        ::signal(SIGPIPE, SIG_IGN); // a reader that stops early must fail the test, not kill it
        int fds[2];
        QVERIFY(::pipe(fds) == 0);
        std::thread writer([&] {
            std::vector<unsigned char> piece(PipeReader::kChunkBytes / 2 + 3);
            for (std::uint64_t at = 0; at < total;) {
                const std::size_t n = std::min<std::uint64_t>(total - at, piece.size());
                for (std::size_t k = 0; k < n; ++k)
                    piece[k] = byteAt(at + k);
                if (::write(fds[1], piece.data(), n) != static_cast<ssize_t>(n))
                    break; // the count below fails
                at += n;
            }
            ::close(fds[1]);
        });
        std::uint64_t received = 0, wrong = 0;
        std::string failure;
        try {
            PipeReader::drain(fds[0], [&](const unsigned char* data, std::size_t size) {
                if (received == 0) // the reader runs ahead until its queue is full
                    std::this_thread::sleep_for(std::chrono::milliseconds(400));
                for (std::size_t k = 0; k < size; ++k)
                    wrong += data[k] != byteAt(received + k);
                received += size;
            });
        } catch (const std::exception& e) {
            failure = e.what();
        }
        ::close(fds[0]); // a writer still blocked on a full pipe gets EPIPE and stops
        writer.join();
        QVERIFY2(failure.empty(), failure.c_str());
        QCOMPARE(received, total);
        QCOMPARE(wrong, std::uint64_t{0});
    }

    /// `concorde trace` trains the branch predictors on a second thread (WarmStateWorker) while
    /// the decoder and the line table go on: fed the same tool stream, the threaded sink must
    /// hand on exactly the serial one's trace and warm states, through queue-full waits (a
    /// functional warm-up of hundreds of thousands of branches), clipped regions carrying their
    /// state on, detailed records observed between batches, and a program that ends inside a
    /// functional warm-up.
    void threadedBuilderGivesTheSerialWarmStates() {
        const std::uint64_t W = 100, M = 400;
        const std::uint64_t longest = FunctionalWarmupSink::kPredictorWarmup + 30000;
        const std::vector<unsigned char> bytes =
            twoThreadToolStream(W, {longest, 0, 9000, 6000}, M);
        struct Result {
            synthetic::VectorSink out;
            std::uint64_t written = 0, functional = 0, stateBytes = 0;
        };
        const auto decode = [&](bool threaded, Result& result) {
            FunctionalWarmupSink warming(result.out, W, longest, threaded);
            TracerStreamDecoder decoder(warming);
            feedInUnevenChunks(decoder, bytes);
            decoder.finish();
            QVERIFY(decoder.complete());
            result.written = decoder.recordsWritten();
            result.functional = warming.functionalRecords();
            result.stateBytes = warming.warmStateBytes();
        };
        Result serial, threaded;
        decode(false, serial);
        decode(true, threaded);
        QVERIFY(serial.functional > longest); // hundreds of batches of 4096 records
        QCOMPARE(threaded.written, serial.written);
        QCOMPARE(threaded.functional, serial.functional);
        QCOMPARE(threaded.stateBytes, serial.stateBytes);
        const auto& a = serial.out.regions();
        expectSameRegions(a, threaded.out.regions(), 4);
        if (QTest::currentTestFailed())
            return;
        // Region 1 (clipped) carries region 0's state on, so the two differ; all are warm.
        QVERIFY(!a[0].warmState.empty() && !a[1].warmState.empty() && !a[3].warmState.empty());
        QVERIFY(a[1].warmState != a[0].warmState);
        QVERIFY(threaded.out.records() == serial.out.records());
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
        QVERIFY(decoded.targets && decoded.targets->saveState() == state->targets->saveState());

        // Older encodings still read. Encoding 3 is [3][body size][zstd frame of the body];
        // encoding 2 was [2][body], and encoding 1 the same body without the branch-target
        // section (read with a cold front end).
        WarmState withoutTargets = *state;
        withoutTargets.targets.reset();
        const std::vector<std::uint8_t> current = withoutTargets.encode();
        QCOMPARE(current.front(), std::uint8_t(3));
        const std::uint8_t* cursor = current.data() + 1;
        std::uint64_t bodySize = 0;
        QVERIFY(varint::get(cursor, current.data() + current.size(), bodySize));
        std::vector<std::uint8_t> body =
            zstd::decompress(std::span(current).subspan(cursor - current.data()), bodySize, "test");
        QVERIFY2(current.size() * 2 < body.size(), qPrintable(QString::number(current.size())));
        std::vector<std::uint8_t> version2 = {2};
        version2.insert(version2.end(), body.begin(), body.end());
        const WarmState fromVersion2 = WarmState::decode(version2, "version 2");
        QVERIFY(fromVersion2.lines == state->lines && fromVersion2.tage && !fromVersion2.targets);
        QCOMPARE(body.back(), std::uint8_t(0)); // an empty branch-target section
        std::vector<std::uint8_t> version1 = version2;
        version1.front() = 1;
        version1.pop_back();
        const WarmState old = WarmState::decode(version1, "version 1");
        QVERIFY(old.lines == state->lines && old.recentLoads == state->recentLoads && old.tage &&
                !old.targets);
        QVERIFY(old.targetPredictor().saveState() == BranchTargetPredictor().saveState());
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
        std::vector<std::uint8_t> hugeBody = {3, 0xff, 0xff, 0xff, 0xff, 0x0f}; // a 4 GB body
        QVERIFY_THROWS_EXCEPTION(ConcordeError, WarmState::decode(hugeBody, "huge body"));
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

        // What ChampSim export writes: the state replayed as instructions. As a detailed
        // warm-up it warms the L2 for the chase just as well (each load an L2 hit).
        const std::vector<TraceRecord> replay = warm->replayRecords();
        QCOMPARE(replay.size(), warm->lines.size() + warm->recentLoads.size());
        std::vector<TraceRecord> replayed = replay;
        replayed.insert(replayed.end(), measured.begin(), measured.end());
        const AnnotatedRegion viaReplay = analyzer.analyze(replayed, replay.size(), memory);
        QCOMPARE(viaReplay.stats.loadLevels[levelIndex(MemLevel::L2)], lines);
        const auto replayRun = ReferenceSimulator::simulate(replayed, replay.size(), config);
        const double replayPerLoad = double(replayRun.cycles) / double(lines);
        QVERIFY2(replayPerLoad >= 12.0 && replayPerLoad < 12.5,
                 qPrintable(QString::number(replayPerLoad)));
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

    /// btb-footprint with 4096 taken jumps (a 6144-entry BTB holds them all): after a
    /// functional warm-up over 3 passes, no measured jump misses the BTB, as after the same
    /// detailed warm-up, and the simulator runs them at one per cycle; cold, the first measured
    /// pass misses every jump and pays the decode redirect for each.
    void btbWarmsFromTheFunctionalWarmup() {
        const std::uint64_t jumps = 4096;
        const auto k = testing::kernel("btb-footprint",
                                       {{"branches", std::to_string(jumps)}, {"warmup", "3"}}, 4);
        const std::span<const TraceRecord> all(k.records);
        const auto warm = warmStateOf(all.first(k.warmup));
        const auto measured = all.subspan(k.warmup);
        QVERIFY(warm->targets);

        const RegionAnalyzer analyzer;
        const MemoryConfig memory;
        const auto cold = analyzer.analyze(measured, 0, memory).stats.btbMisses;
        const auto warmed = analyzer.analyze(measured, 0, memory, warm).stats.btbMisses;
        const auto detailed = analyzer.analyze(all, k.warmup, memory).stats.btbMisses;
        QCOMPARE(cold, jumps);
        QCOMPARE(warmed, std::uint64_t(0));
        QCOMPARE(detailed, std::uint64_t(0));

        const CoreConfig config = n1Like();
        const std::uint64_t warmCycles = OutOfOrderCore(config).run(measured, 0, warm.get());
        const std::uint64_t detailedCycles = OutOfOrderCore(config).run(all, k.warmup);
        const std::uint64_t coldCycles = OutOfOrderCore(config).run(measured, 0);
        QCOMPARE(warmCycles, detailedCycles);
        QVERIFY2(double(warmCycles) / double(measured.size()) < 1.05,
                 qPrintable(QString::number(warmCycles)));
        QVERIFY2(coldCycles >= warmCycles + jumps * PipelineSpec{}.btbMissBubble(),
                 qPrintable(QString("%1 vs %2").arg(coldCycles).arg(warmCycles)));
    }

    /// On real programs, the functional state of a region's warm-up records leaves the caches
    /// as the detailed warm-up does, to within the LRU-versus-tree-PLRU difference, and it is a
    /// fraction of the records' size.
    void functionalEqualsDetailedOnRealTraces() {
        for (const char* sample : {"gzip-decompress", "xz-compress", "perl-regex"}) {
            const auto [records, warmup, stored] = testing::sampleRegion(sample, 0);
            const std::span<const TraceRecord> all(records);
            const auto warm = warmStateOf(all.first(warmup));
            QVERIFY(warm->lines.size() < warmup);
            const auto measured = all.subspan(warmup);
            for (const int l2 : {512, 2048}) {
                CoreConfig config = n1Like();
                config.set(ParamId::L1dKb, 32);
                config.set(ParamId::L2Kb, l2);
                const double detailed = cpiOf(all, warmup, config);
                const double functional = cpiOf(measured, 0, config, warm.get());
                const double cold = cpiOf(measured, 0, config);
                const double gap = std::abs(functional / detailed - 1.0);
                qInfo("%s l2_kb=%d: CPI detailed %.4f, functional %.4f, cold %.4f; %zu lines "
                      "for %zu warm-up records",
                      sample, l2, detailed, functional, cold, warm->lines.size(), warmup);
                QVERIFY2(gap < 0.01,
                         qPrintable(QStringLiteral("%1 l2 %2: functional %3, detailed %4")
                                        .arg(sample)
                                        .arg(l2)
                                        .arg(functional)
                                        .arg(detailed)));
                // The warm state matters: cold differs more than functional does.
                QVERIFY(std::abs(cold / detailed - 1.0) >= gap);
            }
        }
    }
};

QTEST_APPLESS_MAIN(WarmStateTest)
#include "WarmStateTest.moc"
