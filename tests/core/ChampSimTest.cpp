// ChampSim import/export: round trips, ChampSim's branch classification, inference on import,
// and bad input.
#include "../support/RandomRecords.h"
#include "common/ConcordeError.h"
#include "io/CompressedFileWriter.h"
#include "trace/ArchReg.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"
#include "trace/champsim/ChampSimConverter.h"
#include "trace/champsim/ChampSimInstr.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace concorde;

namespace {

std::vector<TraceRecord> readAll(const std::string& path) {
    TraceReader reader(path);
    std::vector<TraceRecord> records;
    TraceRecord r;
    while (reader.next(r))
        records.push_back(r);
    return records;
}

void writeCtrace(const std::string& path, const std::vector<TraceRecord>& records) {
    TraceWriter writer(path, TraceInfo{});
    writer.beginRegion(0, 0);
    for (const auto& r : records)
        writer.append(r);
    writer.finish();
}

void writeRawChampSim(const std::string& path, const std::vector<ChampSimInstr>& instrs) {
    CompressedFileWriter out(path);
    for (const auto& instr : instrs) {
        unsigned char bytes[ChampSimInstr::kBytes];
        instr.toBytes(bytes);
        out.write(bytes, sizeof bytes);
    }
    out.commit();
}

} // namespace

class ChampSimTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private slots:
    void recordIsSixtyFourBytesLittleEndian() {
        ChampSimInstr instr;
        instr.ip = 0x0102030405060708ULL;
        instr.isBranch = true;
        instr.branchTaken = true;
        instr.destinationRegisters = {26, 0};
        instr.sourceRegisters = {26, 25, 0, 0};
        instr.sourceMemory[3] = 0xAABBCCDDULL;
        unsigned char bytes[64];
        instr.toBytes(bytes);
        QCOMPARE(int(bytes[0]), 0x08);
        QCOMPARE(int(bytes[7]), 0x01);
        QCOMPARE(int(bytes[8]), 1);
        QCOMPARE(int(bytes[10]), 26);
        QCOMPARE(int(bytes[13]), 25);
        QCOMPARE(int(bytes[56]), 0xDD); // source_memory[3] starts at byte 32 + 24
        const ChampSimInstr back = ChampSimInstr::fromBytes(bytes);
        QCOMPARE(back.ip, instr.ip);
        QCOMPARE(back.sourceMemory[3], instr.sourceMemory[3]);
    }

    // ChampSim's own classifier (reimplemented by inferBranchKind) must see every exported
    // branch as the kind we recorded.
    void exportedBranchesClassifyAsRecorded() {
        const auto records = testing::makeRandomRecords(5'000, 11);
        int branches = 0;
        for (const auto& r : records) {
            ChampSimInstr instr;
            ChampSimInstr::fromRecord(r, instr);
            QCOMPARE(instr.isBranch, r.isBranch());
            QCOMPARE(instr.inferBranchKind(), r.branchKind);
            branches += r.isBranch();
        }
        QVERIFY(branches > 300);
        // jmp [mem]: an indirect jump with no register source still classifies as indirect.
        TraceRecord jump;
        jump.branchKind = BranchKind::Indirect;
        jump.taken = true;
        jump.addLoad(0x1000, 8);
        ChampSimInstr instr;
        ChampSimInstr::fromRecord(jump, instr);
        QCOMPARE(instr.inferBranchKind(), BranchKind::Indirect);
    }

    void specialRegisterNumbers() {
        QCOMPARE(int(ChampSimInstr::fromArchReg(ArchReg::kRsp)), 6);
        QCOMPARE(int(ChampSimInstr::fromArchReg(ArchReg::kFlags)), 25);
        QCOMPARE(int(ChampSimInstr::fromArchReg(ArchReg::kRip)), 26);
        for (std::uint8_t reg = 1; reg < ArchReg::kCount; ++reg)
            QCOMPARE(ChampSimInstr::toArchReg(ChampSimInstr::fromArchReg(reg)), reg);
        // A foreign number survives import and export unchanged.
        QCOMPARE(int(ChampSimInstr::fromArchReg(ChampSimInstr::toArchReg(120))), 120);
    }

    void exportImportRoundTrip_data() {
        QTest::addColumn<QString>("extension");
        QTest::newRow("xz") << ".champsimtrace.xz";
        QTest::newRow("gz") << ".champsimtrace.gz";
        QTest::newRow("raw") << ".champsimtrace";
    }

    void exportImportRoundTrip() {
        QFETCH(QString, extension);
        const auto records = testing::makeRandomRecords(20'000, 12);
        const std::string original = path("orig.ctrace");
        writeCtrace(original, records);
        const std::string exported = dir_.filePath("t" + extension).toStdString();
        const auto exportStats = ChampSimConverter::exportTrace(original, exported);
        QCOMPARE(exportStats.records, std::uint64_t(records.size()));
        const std::string imported = path("back.ctrace");
        ChampSimConverter::importTrace(exported, imported, {});
        const auto back = readAll(imported);
        QCOMPARE(back.size(), records.size());
        for (std::size_t i = 0; i < records.size(); ++i) {
            const auto& a = records[i];
            const auto& b = back[i];
            QCOMPARE(b.pc, a.pc);
            QCOMPARE(b.branchKind, a.branchKind);
            QCOMPARE(b.taken, a.taken);
            if (a.taken)
                QCOMPARE(b.branchTarget, a.branchTarget);
            QCOMPARE(b.loadCount, a.loadCount);
            for (std::size_t l = 0; l < a.loadCount; ++l)
                QCOMPARE(b.loads[l].address, a.loads[l].address);
            QCOMPARE(b.storeCount, a.storeCount);
            for (std::size_t s = 0; s < a.storeCount; ++s)
                QCOMPARE(b.stores[s].address, a.stores[s].address);
            if (!a.isBranch() && a.sourceCount <= 4) {
                QCOMPARE(b.sourceCount, a.sourceCount);
                for (std::size_t s = 0; s < a.sourceCount; ++s)
                    QCOMPARE(b.sources[s], a.sources[s]);
            }
            if (!a.taken && i + 1 < records.size())
                QCOMPARE(b.size, a.size); // fall-through sizes are recovered from the next PC
        }
    }

    void importInfersSizesAndClasses() {
        std::vector<ChampSimInstr> in(4);
        in[0].ip = 0x1000; // load-only: 3 bytes to the next PC
        in[0].sourceMemory[0] = 0x8000;
        in[0].destinationRegisters[0] = 1;
        in[1].ip = 0x1003; // store-only
        in[1].destinationMemory[0] = 0x9000;
        in[2].ip = 0x1007; // taken conditional branch back to 0x1000
        in[2].isBranch = in[2].branchTaken = true;
        in[2].sourceRegisters = {26, 25, 0, 0};
        in[2].destinationRegisters = {26, 0};
        in[3].ip = 0x1000;
        const std::string raw = path("hand.champsimtrace");
        writeRawChampSim(raw, in);
        const std::string out = path("hand.ctrace");
        ChampSimConverter::ImportOptions options;
        options.warmup = 1;
        ChampSimConverter::importTrace(raw, out, options);
        TraceReader reader(out);
        QCOMPARE(reader.info().regions.at(0).warmup, std::uint64_t(1));
        QCOMPARE(reader.info().regions.at(0).length, std::uint64_t(3));
        const auto records = readAll(out);
        QCOMPARE(records[0].instrClass, InstrClass::Load);
        QCOMPARE(int(records[0].size), 3);
        QCOMPARE(records[1].instrClass, InstrClass::Store);
        QCOMPARE(int(records[1].size), 4);
        QCOMPARE(records[2].branchKind, BranchKind::DirectConditional);
        QVERIFY(records[2].taken);
        QCOMPARE(records[2].branchTarget, std::uint64_t(0x1000));
        QCOMPARE(records[2].nextPc(), records[3].pc);
    }

    void skipAndLength() {
        std::vector<ChampSimInstr> in(100);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i].ip = 0x4000 + 4 * i;
        const std::string raw = path("seq.champsimtrace.xz");
        writeRawChampSim(raw, in);
        ChampSimConverter::ImportOptions options;
        options.skip = 10;
        options.warmup = 5;
        options.length = 20;
        ChampSimConverter::importTrace(raw, path("seq.ctrace"), options);
        const auto records = readAll(path("seq.ctrace"));
        QCOMPARE(records.size(), std::size_t(25));
        QCOMPARE(records.front().pc, std::uint64_t(0x4000 + 40));
        options.skip = 1000;
        QVERIFY_THROWS_EXCEPTION(ConcordeError,
                                 ChampSimConverter::importTrace(raw, path("x.ctrace"), options));
        QVERIFY(!QFile::exists(dir_.filePath("x.ctrace")));
    }

    void corruptInputsAreReported() {
        std::vector<ChampSimInstr> in(1000);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i].ip = 0x4000 + 4 * i;
        const std::string xz = path("c.champsimtrace.xz");
        writeRawChampSim(xz, in);
        std::ifstream file(xz, std::ios::binary);
        std::vector<char> bytes{std::istreambuf_iterator<char>(file), {}};
        bytes.resize(bytes.size() / 2);
        const std::string cut = path("cut.champsimtrace.xz");
        std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
        try {
            ChampSimConverter::importTrace(cut, path("cut.ctrace"), {});
            QFAIL("truncated xz accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("cut.champsimtrace.xz"), e.what());
            QCOMPARE(e.exitCode(), 2);
        }
        QVERIFY(!QFile::exists(dir_.filePath("cut.ctrace")));
        // A raw file whose length is not a multiple of 64 bytes.
        const std::string odd = path("odd.champsimtrace");
        std::ofstream(odd, std::ios::binary) << std::string(100, '\1');
        try {
            ChampSimConverter::importTrace(odd, path("odd.ctrace"), {});
            QFAIL("partial record accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("part-way through a record"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ConcordeError, ChampSimConverter::importTrace(
                                                    path("none.xz"), path("none.ctrace"), {}));
    }
};

QTEST_APPLESS_MAIN(ChampSimTest)
#include "ChampSimTest.moc"
