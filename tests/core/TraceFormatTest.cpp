// .ctrace round trips, seeking, regions, and every corruption case reported with a byte offset.
#include "../support/ErrorCapture.h"
#include "../support/RandomRecords.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "common/ZstdFrame.h"
#include "trace/TraceFormatError.h"
#include "trace/TraceReader.h"
#include "trace/TraceSummary.h"
#include "trace/TraceWriter.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/stat.h>
#include <zstd.h>

using namespace concorde;
using concorde::testing::makeRandomRecords;

namespace {

std::vector<char> readBytes(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const QString& path, const std::vector<char>& bytes) {
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Reads a whole trace; rethrows format errors so tests can inspect them.
std::vector<TraceRecord> readAll(const QString& path) {
    TraceReader reader(path.toStdString());
    std::vector<TraceRecord> out;
    TraceRecord r;
    while (reader.next(r))
        out.push_back(r);
    return out;
}

} // namespace

class TraceFormatTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString writeTrace(const QString& name, const std::vector<TraceRecord>& records,
                       std::uint32_t perBlock, std::vector<std::uint64_t> regionSizes = {}) {
        const QString path = dir_.filePath(name);
        TraceInfo info;
        info.commandLine = "test --records " + std::to_string(records.size());
        info.source = std::string("unit-test");
        info.properties["seed"] = "7";
        TraceWriter writer(path.toStdString(), info, {perBlock, 3});
        if (regionSizes.empty())
            regionSizes = {records.size()};
        std::size_t next = 0;
        std::uint64_t programPosition = 1000;
        for (auto size : regionSizes) {
            writer.beginRegion(programPosition, size / 4);
            for (std::uint64_t i = 0; i < size; ++i)
                writer.append(records[next++]);
            writer.setBasicBlockVector({{0x401000, size / 2}, {0x401100, size - size / 2}});
            writer.endRegion();
            programPosition += 1'000'000;
        }
        writer.finish();
        return path;
    }

private slots:
    void roundTripManyBlocksAndRegions() {
        const auto records = makeRandomRecords(25'000, 1);
        const QString path = writeTrace("rt.ctrace", records, 1000, {10'000, 7'000, 8'000});
        TraceReader reader(path.toStdString());
        QCOMPARE(reader.recordCount(), std::uint64_t(25'000));
        const TraceInfo& info = reader.info();
        QCOMPARE(info.source, std::string("unit-test"));
        QCOMPARE(info.properties.at("seed"), std::string("7"));
        QCOMPARE(info.regions.size(), std::size_t(3));
        QCOMPARE(info.regions[1].firstRecord, std::uint64_t(10'000));
        QCOMPARE(info.regions[1].warmup, std::uint64_t(1'750));
        QCOMPARE(info.regions[1].length, std::uint64_t(5'250));
        QCOMPARE(info.regions[2].programStart, std::uint64_t(2'001'000));
        QCOMPARE(info.regions[2].basicBlockVector.size(), std::size_t(2));
        QCOMPARE(info.regions[2].basicBlockVector[1].second, std::uint64_t(4'000));
        std::vector<TraceRecord> back;
        TraceRecord r;
        while (reader.next(r))
            back.push_back(r);
        QCOMPARE(back.size(), records.size());
        for (std::size_t i = 0; i < records.size(); ++i)
            QVERIFY2(back[i] == records[i], qPrintable(QString("record %1 differs").arg(i)));
    }

    void seekAndReadRegion() {
        const auto records = makeRandomRecords(5'000, 2);
        const QString path = writeTrace("seek.ctrace", records, 333, {2'000, 3'000});
        TraceReader reader(path.toStdString());
        for (std::uint64_t index : {4'999ull, 0ull, 333ull, 332ull, 1'234ull}) {
            reader.seekRecord(index);
            TraceRecord r;
            QVERIFY(reader.next(r));
            QVERIFY(r == records[index]);
        }
        std::vector<TraceRecord> region;
        reader.readRegion(1, region);
        QCOMPARE(region.size(), std::size_t(3'000));
        QVERIFY(region.front() == records[2'000]);
        QVERIFY(region.back() == records[4'999]);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, reader.readRegion(2, region));
        reader.seekRecord(5'000);
        TraceRecord r;
        QVERIFY(!reader.next(r));
    }

    // Issue 23: a region whose warm-up takes every record has nothing to measure. It was
    // written (length 0) and read, and simulate reported a CPI of 0. The writer refuses it,
    // leaving no file, and the reader refuses one written by an older build.
    void regionWithNothingMeasuredIsRefused() {
        const QString path = dir_.filePath("short.ctrace");
        {
            TraceWriter writer(path.toStdString(), TraceInfo{});
            writer.beginRegion(0, 100);
            for (const auto& r : makeRandomRecords(60, 3))
                writer.append(r); // fewer records than the announced warm-up
            const QString error = testing::errorOf([&] { writer.finish(); });
            QVERIFY2(error.contains("no measured instructions") && error.contains("100"),
                     qPrintable(error));
        }
        QVERIFY(!QFile::exists(path));

        // A region table rewritten to say region 1 is all warm-up.
        const QString old =
            writeTrace("old-short.ctrace", makeRandomRecords(300, 3), 100, {200, 100});
        auto bytes = readBytes(old);
        const auto u64 = [&](std::size_t at) {
            return le::load64(reinterpret_cast<const unsigned char*>(bytes.data()) + at);
        };
        const std::uint64_t metadataOffset = u64(16);
        const std::vector<std::uint8_t> packed(bytes.begin() + metadataOffset, bytes.end() - 4);
        const auto text = zstd::decompress(
            packed, ZSTD_getFrameContentSize(packed.data(), packed.size()), "table");
        nlohmann::json table = nlohmann::json::parse(text.begin(), text.end());
        table["regions"][1]["warmup"] = 100;
        table["regions"][1]["length"] = 0;
        const std::string edited = table.dump();
        auto repacked = zstd::compress(
            {reinterpret_cast<const std::uint8_t*>(edited.data()), edited.size()}, 3);
        const std::uint32_t tableCrc = crc32(repacked.data(), repacked.size());
        for (int b = 0; b < 4; ++b)
            repacked.push_back(static_cast<std::uint8_t>(tableCrc >> (8 * b)));
        bytes.resize(metadataOffset);
        bytes.insert(bytes.end(), repacked.begin(), repacked.end());
        for (int b = 0; b < 8; ++b)
            bytes[24 + b] = static_cast<char>(std::uint64_t(repacked.size()) >> (8 * b));
        const std::uint32_t crc = crc32(reinterpret_cast<const unsigned char*>(bytes.data()), 60);
        for (int b = 0; b < 4; ++b)
            bytes[60 + b] = static_cast<char>(crc >> (8 * b));
        writeBytes(old, bytes);
        try {
            TraceReader reader(old.toStdString());
            QFAIL("a region with no measured instructions was read");
        } catch (const TraceFormatError& e) {
            QVERIFY2(QString(e.what()).contains("region 1 has no measured instructions"), e.what());
        }
    }

    void summaryCountsClasses() {
        auto records = makeRandomRecords(3'000, 4);
        const QString path = writeTrace("sum.ctrace", records, 512);
        TraceReader reader(path.toStdString());
        const TraceSummary summary = TraceSummary::of(reader);
        std::size_t loads = 0, branches = 0, taken = 0;
        for (const auto& r : records) {
            loads += r.loadCount > 0;
            branches += r.isBranch();
            taken += r.taken;
        }
        QCOMPARE(summary.instructions, std::uint64_t(3'000));
        QCOMPARE(summary.withLoad, std::uint64_t(loads));
        QCOMPARE(summary.branches, std::uint64_t(branches));
        QCOMPARE(summary.takenBranches, std::uint64_t(taken));
    }

    void unfinishedWriterLeavesNoFile() {
        const QString path = dir_.filePath("unfinished.ctrace");
        try {
            TraceWriter writer(path.toStdString(), TraceInfo{});
            writer.beginRegion(0, 0);
            for (const auto& r : makeRandomRecords(200'000, 5))
                writer.append(r);
            throw std::runtime_error("simulated crash before finish()");
        } catch (const std::runtime_error&) {
        }
        QVERIFY(!QFile::exists(path));
        QVERIFY(QDir(dir_.path()).entryList({"unfinished*"}, QDir::Files).isEmpty());
    }

    // Output paths that are not regular files are refused, never replaced by the rename.
    void specialFilesAreNotReplaced() {
        const QString fifo = dir_.filePath("fifo");
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        try {
            TraceWriter writer(fifo.toStdString(), TraceInfo{});
            QFAIL("a FIFO was accepted as output");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("not a regular file"), e.what());
        }
        QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());
        QVERIFY_THROWS_EXCEPTION(ConcordeError,
                                 TraceWriter(dir_.path().toStdString(), TraceInfo{}));
        QVERIFY(QFileInfo(dir_.path()).isDir());
    }

    void missingFile() {
        try {
            TraceReader reader(dir_.filePath("nope.ctrace").toStdString());
            QFAIL("expected an error");
        } catch (const ConcordeError& e) {
            QVERIFY(QString(e.what()).contains("no such trace file"));
            QCOMPARE(e.exitCode(), 2);
        }
    }

    void truncatedFilesReportOffset() {
        const QString path = writeTrace("trunc.ctrace", makeRandomRecords(4'000, 6), 500);
        const auto bytes = readBytes(path);
        for (std::size_t keep : {std::size_t(0), std::size_t(10), std::size_t(64), bytes.size() / 2,
                                 bytes.size() - 1}) {
            const QString cut = dir_.filePath(QString("cut%1.ctrace").arg(keep));
            writeBytes(cut,
                       std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(keep)));
            try {
                readAll(cut);
                QFAIL(qPrintable(QString("truncation to %1 bytes not detected").arg(keep)));
            } catch (const TraceFormatError& e) {
                QVERIFY2(QString(e.what()).contains("truncated"), e.what());
                QVERIFY2(QString(e.what()).contains("byte offset"), e.what());
            }
        }
    }

    /// Version 2 carries each region's functional warm-up; version-1 files still read, with
    /// every region cold; a damaged warm state is reported as a corrupt region table.
    void warmStatesRoundTripAndVersionOneReadsCold() {
        const auto records = makeRandomRecords(3000, 5);
        const QString path = dir_.filePath("warm.ctrace");
        {
            TraceWriter writer(path.toStdString(), TraceInfo{}, {500, 3});
            for (int r = 0; r < 2; ++r) {
                writer.beginRegion(1000 + 10'000 * r, 100);
                for (int i = 0; i < 1500; ++i)
                    writer.append(records[r * 1500 + i]);
                if (r == 1)
                    writer.setWarmState(5'000'000, {0, 1, 2, 250, 251, 252, 253});
                writer.endRegion();
            }
            writer.finish();
        }
        {
            TraceReader reader(path.toStdString());
            QCOMPARE(reader.info().regions[0].functionalWarmup, std::uint64_t(0));
            QVERIFY(reader.info().regions[0].warmState.empty());
            QCOMPARE(reader.info().regions[1].functionalWarmup, std::uint64_t(5'000'000));
            QVERIFY(reader.info().regions[1].warmState ==
                    (std::vector<std::uint8_t>{0, 1, 2, 250, 251, 252, 253}));
        }
        // A version-1 file (a trace without warm states, relabelled, header CRC recomputed)
        // still reads, every region cold.
        const QString old = writeTrace("v1.ctrace", records, 500, {1500, 1500});
        auto bytes = readBytes(old);
        bytes[8] = 1;
        const std::uint32_t crc = crc32(reinterpret_cast<const unsigned char*>(bytes.data()), 60);
        for (int b = 0; b < 4; ++b)
            bytes[60 + b] = static_cast<char>(crc >> (8 * b));
        writeBytes(old, bytes);
        TraceReader reader(old.toStdString());
        QCOMPARE(reader.info().regions.size(), std::size_t(2));
        for (const Region& region : reader.info().regions) {
            QCOMPARE(region.functionalWarmup, std::uint64_t(0));
            QVERIFY(region.warmState.empty());
        }
        QCOMPARE(readAll(old).size(), records.size());
    }

    // Issue 23: the region table's zstd frame declared its size and the reader allocated it
    // (up to 1 GiB) before finding the frame far too short. A 17-byte frame declaring 512 MiB
    // is now refused without the allocation.
    void regionTableSizeIsBoundedByTheBytesPresent() {
        const QString path = writeTrace("bomb.ctrace", makeRandomRecords(200, 4), 100);
        auto bytes = readBytes(path);
        const auto u64 = [&](std::size_t at) {
            return le::load64(reinterpret_cast<const unsigned char*>(bytes.data()) + at);
        };
        const std::uint64_t metadataOffset = u64(16);
        // One 10-byte RLE block in a frame whose header declares 2^29 bytes, then its CRC.
        std::vector<unsigned char> table = {0x28, 0xB5, 0x2F, 0xFD, 0xE0, 0, 0, 0,  0x20,
                                            0,    0,    0,    0,    0x53, 0, 0, '{'};
        const std::uint32_t tableCrc = crc32(table.data(), table.size());
        for (int b = 0; b < 4; ++b)
            table.push_back(static_cast<unsigned char>(tableCrc >> (8 * b)));
        bytes.resize(metadataOffset);
        bytes.insert(bytes.end(), table.begin(), table.end());
        for (int b = 0; b < 8; ++b)
            bytes[24 + b] = static_cast<char>(std::uint64_t(table.size()) >> (8 * b));
        const std::uint32_t crc = crc32(reinterpret_cast<const unsigned char*>(bytes.data()), 60);
        for (int b = 0; b < 4; ++b)
            bytes[60 + b] = static_cast<char>(crc >> (8 * b));
        writeBytes(path, bytes);
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        try {
            TraceReader reader(path.toStdString());
            QFAIL("a region table declaring 512 MiB in 17 bytes was accepted");
        } catch (const TraceFormatError& e) {
            QVERIFY2(QString(e.what()).contains("corrupt region table"), e.what());
            QCOMPARE(e.byteOffset(), metadataOffset);
        }
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(after.ru_maxrss - before.ru_maxrss < 64 * 1024, // kB
                 qPrintable(QString::number(after.ru_maxrss - before.ru_maxrss)));
    }

    void wrongVersion() {
        const QString path = writeTrace("ver.ctrace", makeRandomRecords(100, 7), 50);
        auto bytes = readBytes(path);
        bytes[8] = 9; // version field
        writeBytes(path, bytes);
        try {
            readAll(path);
            QFAIL("wrong version not detected");
        } catch (const TraceFormatError& e) {
            QVERIFY2(QString(e.what()).contains("unsupported .ctrace version 9"), e.what());
            QCOMPARE(e.byteOffset(), std::uint64_t(8));
        }
    }

    void notATrace() {
        const QString path = dir_.filePath("text.ctrace");
        writeBytes(path, std::vector<char>(200, 'x'));
        QVERIFY_THROWS_EXCEPTION(TraceFormatError, readAll(path));
        writeBytes(path, std::vector<char>(200, 0));
        try {
            readAll(path);
            QFAIL("zero header not detected");
        } catch (const TraceFormatError& e) {
            QVERIFY2(QString(e.what()).contains("never finished"), e.what());
        }
    }

    void corruptedBlockReportsItsOffset() {
        const QString path = writeTrace("blk.ctrace", makeRandomRecords(3'000, 8), 1'000);
        auto bytes = readBytes(path);
        // Flip a byte in the middle of the second block's payload.
        TraceReader probe(path.toStdString());
        (void)probe;
        const std::size_t target = bytes.size() / 2;
        bytes[target] = static_cast<char>(bytes[target] ^ 0x5A);
        writeBytes(path, bytes);
        try {
            readAll(path);
            QFAIL("block corruption not detected");
        } catch (const TraceFormatError& e) {
            QVERIFY2(QString(e.what()).contains("corrupt"), e.what());
            QVERIFY(e.byteOffset() <= target);
            QVERIFY(e.byteOffset() > 64);
        }
    }

    // Every single-byte corruption anywhere in the file is detected: a reader never returns
    // records it could not verify.
    void everySingleByteFlipIsDetected() {
        const auto records = makeRandomRecords(40, 9);
        const QString path = writeTrace("flip.ctrace", records, 16, {25, 15});
        const auto original = readBytes(path);
        const QString damaged = dir_.filePath("flipped.ctrace");
        for (std::size_t i = 0; i < original.size(); ++i) {
            auto bytes = original;
            bytes[i] = static_cast<char>(bytes[i] ^ 0x01);
            writeBytes(damaged, bytes);
            bool detected = false;
            try {
                readAll(damaged);
            } catch (const TraceFormatError&) {
                detected = true;
            }
            QVERIFY2(detected, qPrintable(QString("flip at byte %1 not detected").arg(i)));
        }
    }
};

QTEST_APPLESS_MAIN(TraceFormatTest)
#include "TraceFormatTest.moc"
