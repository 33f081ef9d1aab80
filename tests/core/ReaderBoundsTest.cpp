// Regression tests for issue 23 item 7 and the reader fuzzing of issue 19 (tests/fuzz,
// docs/fuzzing.md): a size declared by a damaged or crafted file must not drive an allocation
// before it is checked against the bytes actually present. Each case is built here from a real
// file written by the real writer, then damaged as the finding describes.
#include "../support/RandomRecords.h"
#include "analysis/WarmState.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "common/ZstdFrame.h"
#include "store/RecordBlobCodec.h"
#include "trace/TraceFormat.h"
#include "trace/TraceFormatError.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <zstd.h>

using namespace concorde;
namespace tf = trace_format;

namespace {

std::vector<std::uint8_t> readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

void fixHeaderCrc(std::vector<std::uint8_t>& bytes) {
    le::store32(bytes.data() + tf::kHeaderCrc, crc32(bytes.data(), tf::kHeaderCrc));
}

/// Resets the peak resident memory (VmHWM) of this process to its current resident memory, so
/// that each case measures its own peak (Linux: /proc/PID/clear_refs, value 5).
void resetPeakRss() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

/// Peak resident memory of this process since the last resetPeakRss(), in kB.
long peakRssKb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

/// Resident memory now, in kB.
long rssKb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return 0;
}

} // namespace

class ReaderBoundsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    /// A real one-region trace of `count` records in one block.
    std::string writeTrace(const QString& name, std::size_t count) {
        const std::string path = dir_.filePath(name).toStdString();
        TraceInfo info;
        info.source = "unit-test";
        TraceWriter writer(path, info);
        writer.beginRegion(1000, count / 4);
        for (const TraceRecord& record : testing::makeRandomRecords(count, 5))
            writer.append(record);
        writer.endRegion();
        writer.finish();
        return path;
    }

private slots:
    // Found reviewing TraceReader for its fuzz harness: an offset near 2^64 wrapped the check
    // (offset + size <= file size), so the reader allocated and zeroed the declared size (here
    // 512 MiB) before failing to read it.
    void regionTableOffsetCannotWrapAround() {
        const std::string path = writeTrace("wrap.ctrace", 300);
        std::vector<std::uint8_t> bytes = readBytes(path);
        const std::uint64_t size = std::uint64_t{1} << 29;
        le::store64(bytes.data() + tf::kHeaderMetadataOffset, ~std::uint64_t{0} - size + 65);
        le::store64(bytes.data() + tf::kHeaderMetadataBytes, size);
        fixHeaderCrc(bytes);
        writeBytes(path, bytes);
        resetPeakRss();
        const long before = rssKb();
        try {
            TraceReader reader(path);
            QFAIL("a region table beyond the end of the file was accepted");
        } catch (const TraceFormatError& e) {
            QVERIFY2(QString(e.what()).contains("region-table location") ||
                         QString(e.what()).contains("truncated"),
                     e.what());
        }
        QVERIFY2(peakRssKb() - before < 64 * 1024,
                 qPrintable(QString::number(peakRssKb() - before)));
    }

    // Found reviewing TraceReader for its fuzz harness: readRegion sized its output to the declared
    // count before reading a block, and the block index may declare 2^20 records per 32 bytes of
    // file. Here 4 index entries over one real 300-record block declare 4 Mi records.
    void regionIsNotAllocatedBeforeItsRecordsAreRead() {
        const std::string path = writeTrace("long.ctrace", 300);
        std::vector<std::uint8_t> bytes = readBytes(path);
        const std::uint64_t tableOffset = le::load64(bytes.data() + tf::kHeaderMetadataOffset);
        const std::uint64_t tableBytes = le::load64(bytes.data() + tf::kHeaderMetadataBytes);
        const std::uint8_t* frame = bytes.data() + tableOffset;
        const auto text = zstd::decompress(
            {frame, tableBytes - 4}, ZSTD_getFrameContentSize(frame, tableBytes - 4), "table");
        nlohmann::json table = nlohmann::json::parse(text.begin(), text.end());
        constexpr std::uint64_t kBlocks = 4;
        constexpr std::uint64_t kPerBlock = tf::kMaxRecordsPerBlock;
        table["blocks"] = nlohmann::json::array();
        for (std::uint64_t i = 0; i < kBlocks; ++i)
            table["blocks"].push_back({tf::kFileHeaderBytes + 32 * i, i * kPerBlock, kPerBlock});
        table["record_count"] = kBlocks * kPerBlock;
        table["regions"][0]["warmup"] = 0;
        table["regions"][0]["length"] = kBlocks * kPerBlock;
        const std::string json = table.dump();
        std::vector<std::uint8_t> packed =
            zstd::compress({reinterpret_cast<const std::uint8_t*>(json.data()), json.size()}, 3);
        packed.resize(packed.size() + 4);
        le::store32(packed.data() + packed.size() - 4, crc32(packed.data(), packed.size() - 4));
        bytes.resize(tableOffset);
        QVERIFY(bytes.size() >= tf::kFileHeaderBytes + 32 * kBlocks + 32);
        bytes.insert(bytes.end(), packed.begin(), packed.end());
        le::store64(bytes.data() + tf::kHeaderMetadataBytes, packed.size());
        le::store64(bytes.data() + tf::kHeaderRecordCount, kBlocks * kPerBlock);
        le::store64(bytes.data() + tf::kHeaderBlockCount, kBlocks);
        fixHeaderCrc(bytes);
        writeBytes(path, bytes);

        TraceReader reader(path); // the index is consistent: the blocks are checked when read
        QCOMPARE(reader.info().regions.at(0).totalRecords(), kBlocks * kPerBlock);
        resetPeakRss();
        const long before = rssKb();
        std::vector<TraceRecord> records;
        QVERIFY_THROWS_EXCEPTION(TraceFormatError, reader.readRegion(0, records));
        // 4 Mi records would be hundreds of MB; the one real block holds 300.
        QVERIFY2(peakRssKb() - before < 64 * 1024,
                 qPrintable(QString("peak RSS grew by %1 kB (a record takes %2 bytes)")
                                .arg(peakRssKb() - before)
                                .arg(sizeof(TraceRecord))));
    }

    // Found reviewing the zstd bound for the blob fuzzers: a compressed block counts as a whole
    // block (128 KiB) in decompressedBound() whatever it holds, so 4 bytes of block header and
    // content let a record blob declare 128 KiB more. Here 2048 such blocks (8 kB) declare
    // 256 MiB of records, which were allocated and zeroed before decompression failed.
    void recordBlobSizeIsBoundedByWhatItsFrameHolds() {
        constexpr std::uint32_t kBlocks = 2048;
        constexpr std::uint32_t kBlockBytes = 128 * 1024;
        // A zstd frame header (no content size, 128 KiB window), then compressed blocks of one
        // byte each, the last one flagged last.
        std::vector<std::uint8_t> frame = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38};
        for (std::uint32_t b = 0; b < kBlocks; ++b) {
            const std::uint32_t header = (1u << 3) | (2u << 1) | (b + 1 == kBlocks ? 1u : 0u);
            frame.insert(frame.end(), {static_cast<std::uint8_t>(header), 0, 0, 0});
        }
        const std::uint64_t rawBytes = std::uint64_t{kBlocks} * kBlockBytes;
        std::vector<std::uint8_t> blob(RecordBlobCodec::kHeaderSize, 0);
        const char magic[] = "CRB1";
        std::copy(magic, magic + 4, blob.begin());
        blob[4] = RecordBlobCodec::kVersion;
        le::store32(blob.data() + 8, static_cast<std::uint32_t>(rawBytes / 64)); // records
        le::store32(blob.data() + 12, static_cast<std::uint32_t>(rawBytes));
        le::store32(blob.data() + 16, static_cast<std::uint32_t>(frame.size()));
        blob.insert(blob.end(), frame.begin(), frame.end());
        le::store32(blob.data() + 20, crc32(blob.data() + RecordBlobCodec::kHeaderSize,
                                            frame.size(), crc32(blob.data(), 20)));
        QVERIFY(zstd::decompressedBound(frame).value_or(0) >= rawBytes); // passes that check
        resetPeakRss();
        const long before = rssKb();
        try {
            (void)RecordBlobCodec::decode(blob, "crafted blob");
            QFAIL("a record blob without its records was accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("crafted blob"), e.what());
        }
        QVERIFY2(peakRssKb() - before < 64 * 1024,
                 qPrintable(QString("peak RSS grew by %1 kB").arg(peakRssKb() - before)));
    }

    // The bounded path above must still decode every real frame, however large.
    void largeFramesStillDecompress() {
        std::vector<std::uint8_t> raw(40u << 20);
        for (std::size_t i = 0; i < raw.size(); ++i)
            raw[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
        const std::vector<std::uint8_t> frame = zstd::compress(raw, 1);
        QVERIFY(zstd::decompress(frame, raw.size(), "large frame") == raw);
        std::vector<std::uint8_t> two = frame; // concatenated frames decode as one stream
        two.insert(two.end(), frame.begin(), frame.end());
        const std::vector<std::uint8_t> both = zstd::decompress(two, 2 * raw.size(), "two frames");
        QVERIFY(std::equal(raw.begin(), raw.end(), both.begin()) &&
                std::equal(raw.begin(), raw.end(), both.begin() + raw.size()));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, zstd::decompress(frame, raw.size() - 1, "short"));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, zstd::decompress({frame.data(), frame.size() - 5},
                                                                 raw.size(), "truncated"));
    }

    // Found by fuzz_warm_state (a timeout): a warm state whose branch-target front end has a
    // perfect indirect predictor (0 entries) with 0 ways decoded fine, but encoding it again
    // (build-db stores states re-encoded) looped forever over sets of 0 ways. This is the
    // fuzzer's 23-byte input. The endless loop has no side effects, which is undefined
    // behaviour: clang -O1 (the fuzz build) keeps it and this case fails on the old code there,
    // but gcc -O2 deletes it, so the release build passed this case before the fix too.
    void warmStateWithAZeroWayStructureEncodes() {
        const std::vector<std::uint8_t> bytes = {0x02, 0x00, 0x00, 0x00, 0x00, 0x11, 0x01, 0x02,
                                                 0x02, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                                 0x00, 0xdd, 0xcb, 0x52, 0x36, 0x63, 0x09};
        const auto state =
            std::make_shared<const WarmState>(WarmState::decode(bytes, "fuzzed warm state"));
        QVERIFY(state->targets);
        QCOMPARE(state->targets->spec().indirectWays, 0u);
        // On a thread, so that the old endless loop fails this case instead of hanging the test.
        const auto encoded = std::make_shared<std::vector<std::uint8_t>>();
        const auto done = std::make_shared<std::atomic<bool>>(false);
        std::thread([state, encoded, done] {
            *encoded = state->encode();
            *done = true;
        }).detach();
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!*done && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QVERIFY2(*done, "encoding the warm state did not finish in 20 s");
        const WarmState again = WarmState::decode(*encoded, "re-encoded");
        QVERIFY(again.targets);
        QVERIFY(again.targets->spec() == state->targets->spec());
    }
};

QTEST_GUILESS_MAIN(ReaderBoundsTest)
#include "ReaderBoundsTest.moc"
