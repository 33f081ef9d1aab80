// Synthetic microbenchmark kernels (core/trace/synthetic): every kernel is generated through the
// .ctrace writer and read back, then checked against its definition: instruction mix,
// register dependencies, addresses, branch outcomes and PC continuity.
#include "../support/ErrorCapture.h"
#include "common/ConcordeError.h"
#include "trace/ArchReg.h"
#include "trace/TraceReader.h"
#include "trace/synthetic/KernelBuilder.h"
#include "trace/synthetic/KernelCatalog.h"
#include "trace/synthetic/MissPairKernel.h"
#include "trace/synthetic/TakenGroupsKernel.h"
#include "trace/synthetic/VectorSink.h"

#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <map>
#include <set>
#include <span>

using namespace concorde;
using namespace concorde::synthetic;

using Params = std::map<std::string, std::string>;

namespace {

/// A kernel written to a .ctrace and read back.
struct Generated {
    TraceInfo info;
    std::vector<TraceRecord> records; ///< warm-up then measured
    Region region;
    std::filesystem::path path;

    std::span<const TraceRecord> measured() const {
        return std::span<const TraceRecord>(records).subspan(region.warmup);
    }
};

/// Index of the last writer of each register while walking a record stream.
class LastWriters {
public:
    static constexpr std::int64_t kNever = -1;
    std::int64_t of(std::uint8_t reg) const { return last_[reg]; }
    void update(const TraceRecord& record, std::int64_t index) {
        for (std::size_t d = 0; d < record.destinationCount; ++d)
            last_[record.destinations[d]] = index;
    }

private:
    std::array<std::int64_t, 256> last_ = [] {
        std::array<std::int64_t, 256> a{};
        a.fill(kNever);
        return a;
    }();
};

std::set<std::uint8_t> writtenRegisters(const std::vector<TraceRecord>& records) {
    std::set<std::uint8_t> regs;
    for (const auto& r : records)
        for (std::size_t d = 0; d < r.destinationCount; ++d)
            regs.insert(r.destinations[d]);
    return regs;
}

std::uint64_t lineOf(std::uint64_t address) {
    return address / 64;
}

QString describe(const TraceRecord& r) {
    return QString("pc=%1 class=%2 kind=%3 taken=%4")
        .arg(r.pc, 0, 16)
        .arg(QString::fromStdString(std::string(instrClassName(r.instrClass))))
        .arg(QString::fromStdString(std::string(branchKindName(r.branchKind))))
        .arg(r.taken);
}

/// A trace property, or "<missing>" (so a missing key fails a comparison instead of throwing).
std::string traceProperty(const TraceInfo& info, const std::string& key) {
    const auto it = info.properties.find(key);
    return it == info.properties.end() ? "<missing>" : it->second;
}

using concorde::testing::errorOf;

} // namespace

class MicrobenchKernelsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    KernelCatalog catalog_;
    int fileCounter_ = 0;

    Generated generate(const std::string& name, const Params& params, std::uint64_t iterations) {
        const MicrobenchKernel& kernel = catalog_.require(name);
        const KernelParams resolved = kernel.resolve(params);
        Generated g;
        g.path = std::filesystem::path(dir_.path().toStdString()) /
                 (name + "-" + std::to_string(fileCounter_++) + ".ctrace");
        const Region written = kernel.writeTrace(g.path, resolved, iterations);
        TraceReader reader(g.path);
        g.info = reader.info();
        if (g.info.regions.size() != 1)
            throw std::runtime_error("expected one region");
        g.region = g.info.regions.front();
        reader.readRegion(0, g.records);
        if (written.warmup != g.region.warmup || written.length != g.region.length)
            throw std::runtime_error("writeTrace reported a different region than the file");
        return g;
    }

    /// Small parameters per kernel so that the generic checks stay fast.
    static Params smallParams(const std::string& name) {
        if (name == "pointer-chase")
            return {{"ws_kb", "16"}};
        if (name == "stride-load" || name == "stride-store")
            return {{"ws_kb", "8"}, {"stride", "128"}};
        if (name.find("knee") != std::string::npos)
            return {{"fillers", "10"}};
        return {};
    }

    /// Number of iterations that gives a few thousand records for `name`.
    static std::uint64_t smallIterations(const std::string& name) {
        if (name == "pointer-chase" || name == "chain-load" || name == "stride-load" ||
            name == "stride-store")
            return 3;
        return 40;
    }

    /// Outcomes of the measured conditional branches, checking the branch-slot structure on
    /// the way (fillers, compare writing flags, jcc reading them, then-op, loop jump).
    static std::vector<bool> branchOutcomes(const Generated& g, std::uint64_t fillers) {
        std::vector<bool> outcomes;
        const auto m = g.measured();
        std::size_t i = 0;
        const auto take = [&]() -> const TraceRecord& {
            if (i >= m.size())
                throw std::runtime_error("measured records end inside a branch slot");
            return m[i++];
        };
        const std::uint64_t head = m.front().pc;
        while (i < m.size()) {
            for (std::uint64_t f = 0; f < fillers; ++f) {
                const TraceRecord& filler = take();
                if (filler.instrClass != InstrClass::IntAlu || filler.isBranch())
                    throw std::runtime_error("expected a filler at " + std::to_string(i - 1));
                for (std::size_t s = 0; s < filler.sourceCount; ++s)
                    if (filler.sources[s] == ArchReg::kFlags)
                        throw std::runtime_error("filler reads flags");
            }
            const TraceRecord& cmp = take();
            const TraceRecord& br = take();
            if (cmp.instrClass != InstrClass::IntAlu || cmp.destinationCount != 1 ||
                cmp.destinations[0] != ArchReg::kFlags)
                throw std::runtime_error("expected a compare writing flags");
            if (br.branchKind != BranchKind::DirectConditional || br.sourceCount != 1 ||
                br.sources[0] != ArchReg::kFlags)
                throw std::runtime_error("expected jcc reading flags");
            if (br.branchTarget != br.pc + br.size + 4)
                throw std::runtime_error("jcc target does not skip exactly the then-op");
            outcomes.push_back(br.taken);
            if (!br.taken) {
                const TraceRecord& thenOp = take();
                if (thenOp.instrClass != InstrClass::IntAlu || thenOp.pc != br.pc + br.size)
                    throw std::runtime_error("not-taken jcc must fall into the then-op");
            }
            const TraceRecord& jmp = take();
            if (jmp.branchKind != BranchKind::DirectUnconditional || !jmp.taken ||
                jmp.branchTarget != head)
                throw std::runtime_error("expected the loop-closing jump");
        }
        return outcomes;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void catalogHasEveryKernelFamily() {
        for (const char* name : {"chain-int-alu",      "chain-int-mul", "chain-int-div",
                                 "chain-fp-add",       "chain-fp-mul",  "chain-fp-div",
                                 "chain-simd",         "chain-load",    "independent",
                                 "pointer-chase",      "stride-load",   "stride-store",
                                 "rob-knee",           "lq-knee",       "sq-knee",
                                 "store-miss",         "branch-taken",  "branch-not-taken",
                                 "branch-alternating", "branch-random", "taken-groups",
                                 "btb-footprint",      "call-depth",    "indirect-dispatch"})
            QVERIFY2(catalog_.find(name) != nullptr, name);
        std::set<std::string> names;
        for (const auto& kernel : catalog_.kernels()) {
            QVERIFY(names.insert(kernel->name()).second);
            QVERIFY(!kernel->description().empty());
            QVERIFY(!kernel->iterationMeaning().empty());
            std::set<std::string> keys;
            for (const auto& p : kernel->parameters()) {
                QVERIFY2(keys.insert(p.key).second, p.key.c_str());
                QVERIFY(!p.description.empty());
                if (!p.isChoice())
                    QVERIFY2(p.defaultNumber >= p.min && p.defaultNumber <= p.max, p.key.c_str());
            }
            QVERIFY2(keys.count("warmup") == 1, kernel->name().c_str());
            const KernelParams defaults = kernel->resolve();
            QVERIFY(kernel->defaultIterations(defaults) >= 1);
        }
    }

    void everyKernelIsWellFormed_data() {
        QTest::addColumn<QString>("name");
        for (const auto& kernel : catalog_.kernels())
            QTest::newRow(kernel->name().c_str()) << QString::fromStdString(kernel->name());
    }

    void everyKernelIsWellFormed() {
        QFETCH(QString, name);
        const std::string kernelName = name.toStdString();
        const Params params = smallParams(kernelName);
        const std::uint64_t iterations = smallIterations(kernelName);
        const Generated g = generate(kernelName, params, iterations);

        // Provenance.
        QCOMPARE(g.info.source, std::string("microbench"));
        QCOMPARE(traceProperty(g.info, "kernel"), kernelName);
        QCOMPARE(traceProperty(g.info, "iterations"), std::to_string(iterations));
        const MicrobenchKernel& kernel = catalog_.require(kernelName);
        for (const auto& p : kernel.parameters()) {
            const auto given = params.find(p.key);
            const std::string expected = given != params.end() ? given->second : p.defaultText();
            QCOMPARE(traceProperty(g.info, "param." + p.key), expected);
            QVERIFY(g.info.commandLine.find("--param " + p.key + "=" + expected) !=
                    std::string::npos);
        }
        const std::string prefix =
            "concorde microbench " + kernelName + " --iterations " + std::to_string(iterations);
        QCOMPARE(g.info.commandLine.substr(0, prefix.size()), prefix);
        QVERIFY(g.info.commandLine.find(" -o ") != std::string::npos);

        // One region: warm-up first, programStart = warm-up length, non-empty measured part.
        QCOMPARE(g.region.firstRecord, std::uint64_t(0));
        QCOMPARE(g.region.programStart, g.region.warmup);
        QVERIFY(g.region.length > 0);
        QVERIFY2(g.region.warmup > 0, "every kernel warms up by default");
        QCOMPARE(g.info.recordCount, g.region.totalRecords());

        // The in-memory path produces exactly what the file holds.
        VectorSink sink;
        kernel.generate(kernel.resolve(params), iterations, sink);
        QCOMPARE(sink.regions().size(), std::size_t(1));
        QCOMPARE(sink.regions().front().warmup, g.region.warmup);
        QCOMPARE(sink.regions().front().length, g.region.length);
        QCOMPARE(sink.records().size(), g.records.size());
        QVERIFY(sink.records() == g.records);

        // Records are realistic: PCs continue through nextPc(), each PC holds one static
        // instruction, memory operands have 8-byte sizes, branch fields agree with the class.
        std::map<std::uint64_t, const TraceRecord*> staticCode;
        for (std::size_t i = 0; i < g.records.size(); ++i) {
            const TraceRecord& r = g.records[i];
            QVERIFY(r.size > 0);
            if (i + 1 < g.records.size())
                QVERIFY2(r.nextPc() == g.records[i + 1].pc,
                         qPrintable(QString("record %1: %2").arg(i).arg(describe(r))));
            QCOMPARE(r.isBranch(), r.instrClass == InstrClass::Branch);
            if (r.isBranch())
                QVERIFY(r.branchTarget != 0);
            QCOMPARE(r.loadCount, std::uint8_t(r.instrClass == InstrClass::Load ? 1 : 0));
            QCOMPARE(r.storeCount, std::uint8_t(r.instrClass == InstrClass::Store ? 1 : 0));
            for (std::size_t k = 0; k < r.loadCount; ++k)
                QVERIFY(r.loads[k].size == 8 && r.loads[k].address != 0);
            for (std::size_t k = 0; k < r.storeCount; ++k)
                QVERIFY(r.stores[k].size == 8 && r.stores[k].address != 0);
            auto [it, inserted] = staticCode.emplace(r.pc, &r);
            if (!inserted) {
                const TraceRecord& first = *it->second;
                QVERIFY2(first.instrClass == r.instrClass && first.size == r.size &&
                             first.branchKind == r.branchKind &&
                             first.sourceCount == r.sourceCount &&
                             first.destinationCount == r.destinationCount &&
                             std::equal(r.sources.begin(), r.sources.begin() + r.sourceCount,
                                        first.sources.begin()) &&
                             std::equal(r.destinations.begin(),
                                        r.destinations.begin() + r.destinationCount,
                                        first.destinations.begin()),
                         qPrintable("two different instructions at " + describe(r)));
            }
        }
        // A loop: PCs repeat, and the code stays small.
        QVERIFY(staticCode.size() < g.records.size() / 2);
        QVERIFY(staticCode.rbegin()->first - staticCode.begin()->first < 32 * 1024);
    }

    void chainKernels_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("cls");
        for (const InstrClass cls :
             {InstrClass::IntAlu, InstrClass::IntMul, InstrClass::IntDiv, InstrClass::FpAdd,
              InstrClass::FpMul, InstrClass::FpDiv, InstrClass::Simd}) {
            const std::string name = "chain-" + std::string(instrClassName(cls));
            QTest::newRow(name.c_str()) << QString::fromStdString(name) << static_cast<int>(cls);
        }
    }

    void chainKernels() {
        QFETCH(QString, name);
        QFETCH(int, cls);
        const std::uint64_t unroll = 16, iterations = 50;
        const Generated g =
            generate(name.toStdString(), {{"unroll", "16"}, {"warmup", "2"}}, iterations);
        QCOMPARE(g.region.warmup, 2 * (unroll + 1));
        const auto written = writtenRegisters(g.records);

        LastWriters writers;
        std::int64_t previousChainOp = LastWriters::kNever;
        std::uint64_t measuredOps = 0, measuredJumps = 0;
        for (std::size_t i = 0; i < g.records.size(); ++i) {
            const TraceRecord& r = g.records[i];
            const bool measured = i >= g.region.warmup;
            if (r.isBranch()) {
                QCOMPARE(r.branchKind, BranchKind::DirectUnconditional);
                QCOMPARE(r.sourceCount + r.destinationCount, 0);
                measuredJumps += measured;
            } else {
                QCOMPARE(static_cast<int>(r.instrClass), cls);
                QCOMPARE(r.destinationCount, std::uint8_t(1));
                // Exactly one source was written before, by the previous chain op; every other
                // source is a register nothing in the trace writes.
                int fromPredecessor = 0;
                for (std::size_t s = 0; s < r.sourceCount; ++s) {
                    const std::uint8_t reg = r.sources[s];
                    if (writers.of(reg) == LastWriters::kNever) {
                        QVERIFY2(previousChainOp == LastWriters::kNever || !written.count(reg),
                                 qPrintable("reads a written register out of chain: " +
                                            QString::fromStdString(ArchReg::name(reg))));
                    } else {
                        QCOMPARE(writers.of(reg), previousChainOp);
                        ++fromPredecessor;
                    }
                }
                if (previousChainOp != LastWriters::kNever)
                    QCOMPARE(fromPredecessor, 1);
                previousChainOp = static_cast<std::int64_t>(i);
                measuredOps += measured;
            }
            writers.update(r, static_cast<std::int64_t>(i));
        }
        QCOMPARE(measuredOps, unroll * iterations);
        QCOMPARE(measuredJumps, iterations);
    }

    void independentStream_data() {
        QTest::addColumn<QString>("cls");
        for (const char* cls : {"int-alu", "int-mul", "int-div", "fp-add", "fp-mul", "fp-div",
                                "simd", "load", "store", "nop"})
            QTest::newRow(cls) << cls;
    }

    void independentStream() {
        QFETCH(QString, cls);
        const std::uint64_t iterations = 30;
        const Generated g =
            generate("independent", {{"class", cls.toStdString()}, {"unroll", "64"}}, iterations);
        QVERIFY(g.records.size() > 1024);
        const InstrClass expected = *parseInstrClass(cls.toStdString());

        LastWriters writers;
        std::uint64_t ops = 0, jumps = 0;
        std::set<std::uint8_t> destinations;
        for (std::size_t i = 0; i < g.records.size(); ++i) {
            const TraceRecord& r = g.records[i];
            // No RAW dependency within the previous 512 instructions.
            for (std::size_t s = 0; s < r.sourceCount; ++s) {
                const std::int64_t w = writers.of(r.sources[s]);
                QVERIFY2(w == LastWriters::kNever || static_cast<std::int64_t>(i) - w > 512,
                         qPrintable(QString("record %1 reads %2 written by record %3")
                                        .arg(i)
                                        .arg(QString::fromStdString(ArchReg::name(r.sources[s])))
                                        .arg(w)));
            }
            writers.update(r, static_cast<std::int64_t>(i));
            if (i < g.region.warmup)
                continue;
            if (r.isBranch()) {
                ++jumps;
                continue;
            }
            QCOMPARE(r.instrClass, expected);
            ++ops;
            for (std::size_t d = 0; d < r.destinationCount; ++d)
                destinations.insert(r.destinations[d]);
        }
        QCOMPARE(ops, 64 * iterations);
        QCOMPARE(jumps, iterations);
        if (expected != InstrClass::Store && expected != InstrClass::Nop)
            QVERIFY2(destinations.size() >= 8, "results rotate over many registers");
    }

    void pointerChase_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("wsKb");
        QTest::newRow("chain-load 4 kB") << "chain-load" << 4;
        QTest::newRow("pointer-chase 64 kB") << "pointer-chase" << 64;
        QTest::newRow("pointer-chase 1000 kB") << "pointer-chase" << 1000;
    }

    void pointerChase() {
        QFETCH(QString, name);
        QFETCH(int, wsKb);
        const std::uint64_t passes = 3;
        const std::uint64_t lines = static_cast<std::uint64_t>(wsKb) * 1024 / 64;
        const Params params = {{"ws_kb", std::to_string(wsKb)}, {"seed", "7"}, {"warmup", "1"}};
        const Generated g = generate(name.toStdString(), params, passes);

        std::vector<std::uint64_t> warmLines, measuredLines;
        LastWriters writers;
        std::int64_t previousLoad = LastWriters::kNever;
        for (std::size_t i = 0; i < g.records.size(); ++i) {
            const TraceRecord& r = g.records[i];
            if (r.instrClass == InstrClass::Load) {
                // mov rax, [rax]: the address register is the previous load's destination.
                QCOMPARE(r.sourceCount, std::uint8_t(1));
                QCOMPARE(r.destinationCount, std::uint8_t(1));
                QCOMPARE(r.sources[0], r.destinations[0]);
                QCOMPARE(writers.of(r.sources[0]), previousLoad);
                QCOMPARE(r.loads[0].address % 64, std::uint64_t(0));
                previousLoad = static_cast<std::int64_t>(i);
                (i < g.region.warmup ? warmLines : measuredLines)
                    .push_back(lineOf(r.loads[0].address));
            } else {
                QCOMPARE(r.branchKind, BranchKind::DirectUnconditional);
            }
            writers.update(r, static_cast<std::int64_t>(i));
        }
        QCOMPARE(warmLines.size(), lines); // one warm-up pass
        QCOMPARE(measuredLines.size(), passes * lines);
        QCOMPARE(std::set<std::uint64_t>(measuredLines.begin(), measuredLines.end()).size(), lines);
        // Each line once per pass, and every pass (warm-up included) in the same cyclic order.
        for (std::uint64_t p = 0; p < passes; ++p) {
            const auto begin = measuredLines.begin() + static_cast<long>(p * lines);
            QCOMPARE(std::set<std::uint64_t>(begin, begin + static_cast<long>(lines)).size(),
                     lines);
            QVERIFY(std::equal(begin, begin + static_cast<long>(lines), warmLines.begin()));
        }
        // Random order: hardly any step goes to the next line.
        std::uint64_t sequentialSteps = 0;
        for (std::size_t i = 1; i < lines; ++i)
            sequentialSteps += measuredLines[i] == measuredLines[i - 1] + 1;
        QVERIFY2(sequentialSteps * 10 < lines, qPrintable(QString::number(sequentialSteps)));

        // The seed decides the order.
        Params otherSeed = params;
        otherSeed["seed"] = "8";
        const Generated h = generate(name.toStdString(), otherSeed, 1);
        std::vector<std::uint64_t> otherLines;
        for (const auto& r : h.measured())
            if (r.instrClass == InstrClass::Load)
                otherLines.push_back(lineOf(r.loads[0].address));
        QCOMPARE(otherLines.size(), lines);
        QVERIFY(!std::equal(otherLines.begin(), otherLines.end(), measuredLines.begin()));
        QVERIFY(std::set<std::uint64_t>(otherLines.begin(), otherLines.end()) ==
                std::set<std::uint64_t>(measuredLines.begin(), measuredLines.end()));
    }

    void stridedLoads_data() {
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("wsKb");
        QTest::newRow("stride 8, 1 kB") << 8 << 1;
        QTest::newRow("stride 192, 12 kB") << 192 << 12;
        QTest::newRow("stride 4096, 256 kB") << 4096 << 256;
    }

    void stridedLoads() {
        QFETCH(int, stride);
        QFETCH(int, wsKb);
        for (const bool stores : {false, true}) {
            const std::uint64_t passes = 3;
            const std::uint64_t perPass = static_cast<std::uint64_t>(wsKb) * 1024 / stride;
            const Generated g = generate(
                stores ? "stride-store" : "stride-load",
                {{"stride", std::to_string(stride)}, {"ws_kb", std::to_string(wsKb)}}, passes);
            checkStridedAccesses(g, stores, passes, perPass, static_cast<std::uint64_t>(stride));
        }
    }

    // store-miss: store to a never-touched line, N independent int-alu fillers, loop jump.
    void storeMissStream() {
        const std::uint64_t fillers = 5, iterations = 50, warmup = 4;
        const std::uint64_t perIteration = fillers + 2;
        const Generated g = generate(
            "store-miss",
            {{"fillers", std::to_string(fillers)}, {"warmup", std::to_string(warmup)}}, iterations);
        QCOMPARE(g.region.warmup, warmup * perIteration);
        QCOMPARE(g.region.length, iterations * perIteration);
        const auto written = writtenRegisters(g.records);
        std::set<std::uint64_t> lines;
        for (std::size_t i = 0; i < g.records.size(); ++i) {
            const TraceRecord& r = g.records[i];
            const std::uint64_t pos = i % perIteration;
            if (pos == 0) {
                QCOMPARE(r.instrClass, InstrClass::Store);
                QCOMPARE(r.loadCount, std::uint8_t(0));
                QVERIFY2(lines.insert(lineOf(r.stores[0].address)).second,
                         "every store writes a never-touched line");
            } else if (pos == perIteration - 1) {
                QCOMPARE(r.branchKind, BranchKind::DirectUnconditional);
                QCOMPARE(r.branchTarget, g.records[i - pos].pc);
            } else {
                QCOMPARE(r.instrClass, InstrClass::IntAlu);
            }
            for (std::size_t s = 0; s < r.sourceCount; ++s)
                QVERIFY2(!written.count(r.sources[s]), "nothing in store-miss depends on anything");
        }
        QCOMPARE(lines.size(), warmup + iterations);
    }

private:
    void checkStridedAccesses(const Generated& g, bool stores, std::uint64_t passes,
                              std::uint64_t perPass, std::uint64_t stride) {
        const auto written = writtenRegisters(g.records);
        std::vector<std::uint64_t> addresses;
        for (const auto& r : g.measured()) {
            if (r.isBranch())
                continue;
            QCOMPARE(r.instrClass, stores ? InstrClass::Store : InstrClass::Load);
            for (std::size_t s = 0; s < r.sourceCount; ++s)
                QVERIFY2(!written.count(r.sources[s]), "strided accesses must be independent");
            addresses.push_back(stores ? r.stores[0].address : r.loads[0].address);
        }
        QCOMPARE(addresses.size(), passes * perPass);
        const std::uint64_t base = addresses.front();
        for (std::size_t i = 1; i < addresses.size(); ++i) {
            if (i % perPass == 0) {
                QCOMPARE(addresses[i], base); // wrap to the start of the working set
                QCOMPARE(addresses[i - 1], base + (perPass - 1) * stride);
            } else {
                QCOMPARE(addresses[i] - addresses[i - 1], stride);
            }
        }
    }

private slots:

    void missPairKnees_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("fillers");
        QTest::addColumn<int>("fillerClass");
        for (const auto& [name, cls] :
             std::vector<std::pair<std::string, InstrClass>>{{"rob-knee", InstrClass::IntAlu},
                                                             {"lq-knee", InstrClass::Load},
                                                             {"sq-knee", InstrClass::Store}})
            for (const int n : {0, 1, 37, 600})
                QTest::newRow((name + " N=" + std::to_string(n)).c_str())
                    << QString::fromStdString(name) << n << static_cast<int>(cls);
    }

    void missPairKnees() {
        QFETCH(QString, name);
        QFETCH(int, fillers);
        QFETCH(int, fillerClass);
        const std::uint64_t iterations = 20, warmup = 3;
        const std::uint64_t n = static_cast<std::uint64_t>(fillers);
        const std::uint64_t perIteration = 2 * n + 3;
        const Generated g = generate(
            name.toStdString(),
            {{"fillers", std::to_string(fillers)}, {"warmup", std::to_string(warmup)}}, iterations);
        QCOMPARE(g.region.warmup, warmup * perIteration);
        QCOMPARE(g.region.length, iterations * perIteration);
        const auto written = writtenRegisters(g.records);

        std::set<std::uint64_t> touched;
        std::set<std::uint64_t> fillerLines;
        LastWriters writers;
        std::int64_t previousA = LastWriters::kNever, previousB = LastWriters::kNever;
        std::uint64_t longLoads = 0;
        for (std::size_t i = 0; i < g.records.size(); ++i) {
            const TraceRecord& r = g.records[i];
            const std::uint64_t pos = i % perIteration;
            const bool isA = pos == 0, isB = pos == n + 1;
            if (isA || isB) {
                QCOMPARE(r.instrClass, InstrClass::Load);
                const std::uint64_t line = lineOf(r.loads[0].address);
                QVERIFY2(!touched.count(line), "a long load must touch a never-touched line");
                // Each long load continues its own chain: it reads only the register its
                // predecessor in the same chain wrote.
                QCOMPARE(r.sourceCount, std::uint8_t(1));
                QCOMPARE(writers.of(r.sources[0]), isA ? previousA : previousB);
                (isA ? previousA : previousB) = static_cast<std::int64_t>(i);
                longLoads += i >= g.region.warmup;
            } else if (pos == perIteration - 1) {
                QCOMPARE(r.branchKind, BranchKind::DirectUnconditional);
                QCOMPARE(r.branchTarget, g.records[i - pos].pc);
            } else {
                QCOMPARE(static_cast<int>(r.instrClass), fillerClass);
                for (std::size_t s = 0; s < r.sourceCount; ++s)
                    QVERIFY2(!written.count(r.sources[s]), "fillers must be independent");
                for (std::size_t k = 0; k < r.loadCount; ++k)
                    fillerLines.insert(lineOf(r.loads[k].address));
                for (std::size_t k = 0; k < r.storeCount; ++k)
                    fillerLines.insert(lineOf(r.stores[k].address));
            }
            if (isB) {
                // B is independent of A: follow A's result forward through the fillers.
                std::set<std::uint8_t> tainted = {g.records[i - n - 1].destinations[0]};
                for (std::size_t j = i - n; j < i; ++j) {
                    const TraceRecord& f = g.records[j];
                    bool readsTainted = false;
                    for (std::size_t s = 0; s < f.sourceCount; ++s)
                        readsTainted = readsTainted || tainted.count(f.sources[s]);
                    for (std::size_t d = 0; d < f.destinationCount; ++d)
                        readsTainted ? (void)tainted.insert(f.destinations[d])
                                     : (void)tainted.erase(f.destinations[d]);
                }
                QVERIFY2(!tainted.count(r.sources[0]), "miss B must not depend on miss A");
            }
            for (std::size_t k = 0; k < r.loadCount; ++k)
                touched.insert(lineOf(r.loads[k].address));
            for (std::size_t k = 0; k < r.storeCount; ++k)
                touched.insert(lineOf(r.stores[k].address));
            writers.update(r, static_cast<std::int64_t>(i));
        }
        QCOMPARE(longLoads, 2 * iterations);
        QVERIFY2(fillerLines.size() <= 64, "filler accesses stay in an L1-resident 4 kB set");
        if (fillers > 0 && fillerClass != static_cast<int>(InstrClass::IntAlu))
            QVERIFY(!fillerLines.empty());
    }

    void freshLinesAreABijection() {
        // The knee kernels rely on freshLine() never repeating within its 2^26 range.
        std::set<std::uint64_t> seen;
        for (std::uint64_t i = 0; i < 200'000; ++i) {
            const std::uint64_t line = MissPairKernel::freshLine(i, 1);
            QVERIFY(line < MissPairKernel::kFreshLines);
            QVERIFY(seen.insert(line).second);
        }
        // ...and looks random to a stride prefetcher: consecutive differences vary.
        std::set<std::int64_t> deltas;
        for (std::uint64_t i = 1; i < 100; ++i)
            deltas.insert(static_cast<std::int64_t>(MissPairKernel::freshLine(i, 1)) -
                          static_cast<std::int64_t>(MissPairKernel::freshLine(i - 1, 1)));
        QVERIFY(deltas.size() > 90);
    }

    void branchPatterns_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("taken") << "branch-taken";
        QTest::newRow("not-taken") << "branch-not-taken";
        QTest::newRow("alternating") << "branch-alternating";
        QTest::newRow("random") << "branch-random";
    }

    void branchPatterns() {
        QFETCH(QString, name);
        const std::uint64_t iterations = 4000, fillers = 3;
        const Generated g = generate(name.toStdString(), {{"fillers", "3"}}, iterations);
        std::vector<bool> outcomes;
        try {
            outcomes = branchOutcomes(g, fillers);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(outcomes.size(), iterations);
        const auto taken = std::count(outcomes.begin(), outcomes.end(), true);
        std::size_t changes = 0;
        for (std::size_t i = 1; i < outcomes.size(); ++i)
            changes += outcomes[i] != outcomes[i - 1];

        if (name == "branch-taken") {
            QCOMPARE(static_cast<std::uint64_t>(taken), iterations);
        } else if (name == "branch-not-taken") {
            QCOMPARE(taken, std::ptrdiff_t(0));
        } else if (name == "branch-alternating") {
            QCOMPARE(changes, outcomes.size() - 1);
        } else {
            const double fraction = static_cast<double>(taken) / static_cast<double>(iterations);
            QVERIFY2(fraction > 0.45 && fraction < 0.55, qPrintable(QString::number(fraction)));
            // Not a simple pattern: runs change direction about half of the time.
            const double changeRate =
                static_cast<double>(changes) / static_cast<double>(iterations - 1);
            QVERIFY2(changeRate > 0.4 && changeRate < 0.6, qPrintable(QString::number(changeRate)));
            // Reproducible from the seed, and a different seed gives different outcomes.
            const auto same =
                branchOutcomes(generate("branch-random", {{"fillers", "3"}}, iterations), fillers);
            QVERIFY(same == outcomes);
            const auto other = branchOutcomes(
                generate("branch-random", {{"fillers", "3"}, {"seed", "99"}}, iterations), fillers);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < iterations; ++i)
                differ += other[i] != outcomes[i];
            QVERIFY2(differ > iterations / 3, qPrintable(QString::number(differ)));
        }
    }

    void takenGroups_data() {
        QTest::addColumn<int>("group");
        for (const int g : {1, 3, 8, 16, 17, 64})
            QTest::newRow(("g=" + std::to_string(g)).c_str()) << g;
    }

    void takenGroups() {
        QFETCH(int, group);
        const std::uint64_t iterations = 10, groups = 5;
        const std::uint64_t g = static_cast<std::uint64_t>(group);
        const Generated gen = generate(
            "taken-groups", {{"group", std::to_string(group)}, {"groups", "5"}}, iterations);
        const auto m = gen.measured();
        QCOMPARE(static_cast<std::uint64_t>(m.size()), iterations * groups * g);
        std::set<std::uint64_t> targets;
        for (std::size_t i = 0; i < m.size(); ++i) {
            const TraceRecord& r = m[i];
            if (i % g == g - 1) {
                QVERIFY2(r.isBranch() && r.taken, qPrintable(describe(r)));
                QVERIFY2(r.branchTarget != r.pc + r.size, "a jump to the fall-through address");
                targets.insert(r.branchTarget);
            } else {
                QVERIFY2(!r.isBranch(), qPrintable(describe(r)));
                QCOMPARE(r.instrClass, InstrClass::IntAlu);
            }
            if (i + 1 < m.size())
                QCOMPARE(r.nextPc(), m[i + 1].pc);
        }
        QCOMPARE(static_cast<std::uint64_t>(targets.size()), groups);
        QCOMPARE(*std::next(targets.begin()) - *targets.begin(), TakenGroupsKernel::groupStride(g));
    }

    // btb-footprint: only taken jumps, 4 bytes apart, each to the next slot and the last back to
    // the head, so one iteration touches exactly `branches` distinct branch PCs in order.
    void btbFootprint() {
        const std::uint64_t branches = 37, iterations = 5;
        const Generated g =
            generate("btb-footprint", {{"branches", std::to_string(branches)}}, iterations);
        const auto m = g.measured();
        QCOMPARE(static_cast<std::uint64_t>(m.size()), branches * iterations);
        const std::uint64_t head = m[0].pc;
        for (std::size_t i = 0; i < m.size(); ++i) {
            const std::uint64_t k = i % branches;
            QCOMPARE(m[i].branchKind, BranchKind::DirectUnconditional);
            QVERIFY(m[i].taken);
            QCOMPARE(m[i].pc, head + 4 * k);
            QCOMPARE(m[i].branchTarget, k + 1 < branches ? head + 4 * (k + 1) : head);
            QVERIFY(m[i].branchTarget != m[i].pc + m[i].size);
        }
    }

    // call-depth: d calls then d returns, each return going to the instruction after its call,
    // from d distinct call sites (so d distinct return addresses), then the loop jump.
    void callDepth() {
        const std::uint64_t depth = 5, iterations = 3;
        const Generated g = generate("call-depth", {{"depth", std::to_string(depth)}}, iterations);
        const auto m = g.measured();
        QCOMPARE(static_cast<std::uint64_t>(m.size()), (2 * depth + 1) * iterations);
        std::set<std::uint64_t> returnAddresses;
        std::vector<std::uint64_t> stack;
        for (std::size_t i = 0; i < m.size(); ++i) {
            const std::uint64_t k = i % (2 * depth + 1);
            const TraceRecord& r = m[i];
            QVERIFY(r.taken);
            if (k < depth) {
                QCOMPARE(r.branchKind, BranchKind::Call);
                stack.push_back(r.pc + r.size);
                returnAddresses.insert(r.pc + r.size);
            } else if (k < 2 * depth) {
                QCOMPARE(r.branchKind, BranchKind::Return);
                QCOMPARE(r.branchTarget, stack.back());
                stack.pop_back();
            } else {
                QCOMPARE(r.branchKind, BranchKind::DirectUnconditional);
                QVERIFY(stack.empty());
            }
        }
        QCOMPARE(static_cast<std::uint64_t>(returnAddresses.size()), depth);
    }

    // indirect-dispatch: dispatch, handler op, jump back. Cyclic order 0,1,0,2,0,3 for 4
    // handlers (continuing across the warm-up); random order uses each handler about 1/h of the
    // time.
    void indirectDispatch() {
        const std::uint64_t iterations = 6000;
        for (const std::string pattern : {"cyclic", "random"}) {
            const Generated g =
                generate("indirect-dispatch",
                         {{"handlers", "4"}, {"pattern", pattern}, {"warmup", "0"}}, iterations);
            const auto m = g.measured();
            QCOMPARE(static_cast<std::uint64_t>(m.size()), 3 * iterations);
            const std::uint64_t head = m[0].pc;
            std::map<std::uint64_t, std::uint64_t> uses;
            for (std::uint64_t d = 0; d < iterations; ++d) {
                const TraceRecord& dispatch = m[3 * d];
                QCOMPARE(dispatch.branchKind, BranchKind::Indirect);
                QCOMPARE(dispatch.pc, head);
                const std::uint64_t handler = (dispatch.branchTarget - head) / 64 - 1;
                QVERIFY(handler < 4);
                ++uses[handler];
                if (pattern == "cyclic") {
                    const std::uint64_t position = d % 6;
                    QCOMPARE(handler, position % 2 == 0 ? 0 : position / 2 + 1);
                }
                QCOMPARE(m[3 * d + 1].instrClass, InstrClass::IntAlu);
                QCOMPARE(m[3 * d + 2].branchTarget, head);
            }
            if (pattern == "random")
                for (const auto& [handler, count] : uses)
                    QVERIFY2(count > 1300 && count < 1700, qPrintable(QString::number(count)));
        }
    }

    void errorsNameWhatIsWrong() {
        ErrorKind kind = ErrorKind::Runtime;
        QString message = errorOf([&] { catalog_.require("chain-quux"); }, &kind);
        QVERIFY2(message.contains("chain-quux") && message.contains("pointer-chase"),
                 qPrintable(message));
        QCOMPARE(kind, ErrorKind::Usage);

        const MicrobenchKernel& chase = catalog_.require("pointer-chase");
        message = errorOf([&] { chase.resolve({{"wss_kb", "4"}}); }, &kind);
        QVERIFY2(message.contains("wss_kb") && message.contains("pointer-chase") &&
                     message.contains("ws_kb"),
                 qPrintable(message));
        QCOMPARE(kind, ErrorKind::Usage);

        message = errorOf([&] { chase.resolve({{"ws_kb", "0"}}); }, &kind);
        QVERIFY2(message.contains("ws_kb") && message.contains("1–1048576"), qPrintable(message));
        QCOMPARE(kind, ErrorKind::BadInput);

        message = errorOf([&] { catalog_.require("chain-load").resolve({{"ws_kb", "32"}}); });
        QVERIFY2(message.contains("ws_kb") && message.contains("1–16"), qPrintable(message));

        message = errorOf([&] { chase.resolve({{"ws_kb", "12k"}}); }, &kind);
        QVERIFY2(message.contains("ws_kb") && message.contains("12k"), qPrintable(message));
        QCOMPARE(kind, ErrorKind::BadInput);

        message = errorOf([&] { chase.resolve({{"ws_kb", ""}}); });
        QVERIFY2(message.contains("ws_kb"), qPrintable(message));

        message = errorOf(
            [&] {
                catalog_.require("independent").resolve({{"class", "branch"}});
            },
            &kind);
        QVERIFY2(message.contains("class") && message.contains("branch") &&
                     message.contains("int-alu"),
                 qPrintable(message));
        QCOMPARE(kind, ErrorKind::BadInput);

        // seed is declared only where it matters.
        message = errorOf([&] { catalog_.require("branch-taken").resolve({{"seed", "3"}}); });
        QVERIFY2(message.contains("seed"), qPrintable(message));

        VectorSink sink;
        const MicrobenchKernel& strided = catalog_.require("stride-load");
        message = errorOf([&] {
            strided.generate(strided.resolve({{"stride", "8192"}, {"ws_kb", "4"}}), 1, sink);
        });
        QVERIFY2(message.contains("stride") && message.contains("4096"), qPrintable(message));

        message = errorOf([&] { chase.generate(chase.resolve(), 0, sink); });
        QVERIFY2(message.contains("iterations"), qPrintable(message));

        const MicrobenchKernel& rob = catalog_.require("rob-knee");
        message = errorOf([&] { rob.generate(rob.resolve(), 40'000'000, sink); });
        QVERIFY2(message.contains("iterations"), qPrintable(message));
        QVERIFY(sink.records().empty()); // nothing generated before a rejection
    }

    void invocationReproducesTheTrace() {
        // The recorded command line lists every parameter, so re-resolving it gives the trace.
        const MicrobenchKernel& kernel = catalog_.require("independent");
        const KernelParams params = kernel.resolve({{"class", "fp-mul"}});
        const std::string line = kernel.invocation(params, 7);
        QCOMPARE(line, std::string("concorde microbench independent --iterations 7 --param "
                                   "class=fp-mul --param unroll=256 --param warmup=4"));
        const TraceInfo info = kernel.traceInfo(params, 7);
        QCOMPARE(traceProperty(info, "param.class"), std::string("fp-mul"));
        QCOMPARE(traceProperty(info, "microbench_version"), std::string("1"));
    }
};

QTEST_GUILESS_MAIN(MicrobenchKernelsTest)
#include "MicrobenchKernelsTest.moc"
