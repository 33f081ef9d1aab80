// Runs `concorde trace` (the ctrace Valgrind tool) on real programs and checks the traces it
// writes against independent evidence: Valgrind's own instruction counter, a tiny C program whose
// loop, branch pattern and memory addresses are known, the requested region table, the traced
// program's output and exit code, and failure cases (missing program, killed tracer, full disk).
#include "trace/ArchReg.h"
#include "trace/TraceReader.h"
#include "trace/TracerProtocol.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

using namespace concorde;

namespace {

struct Run {
    int exitCode = -1; ///< -2 when the process crashed, -1 when it did not finish in time
    QString out;
    QString err;
};

Run runProcess(const QString& program, const QStringList& args, int timeoutMs = 600'000,
               const QString& workingDirectory = {}) {
    QProcess process;
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(program, args);
    if (!process.waitForStarted(30'000))
        return {-3, {}, "could not start " + program};
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(10'000);
        return {-1, {}, program + " did not finish in time"};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QString concordePath() {
    return QString(CONCORDE_BINARY_DIR) + "/bin/concorde";
}

Run runConcorde(const QStringList& args, int timeoutMs = 600'000) {
    return runProcess(concordePath(), args, timeoutMs);
}

/// "traced N instructions (of M executed) ..." → (N, M).
std::optional<std::pair<std::uint64_t, std::uint64_t>> tracedCounts(const QString& out) {
    static const QRegularExpression re(
        R"(traced (\d+) instructions \(of (\d+) executed\) in (\d+) regions)");
    QRegularExpressionMatch last;
    for (auto it = re.globalMatch(out); it.hasNext();)
        last = it.next();
    if (!last.hasMatch())
        return std::nullopt;
    return std::make_pair(last.captured(1).toULongLong(), last.captured(2).toULongLong());
}

/// Deterministic pseudo-text (xorshift64*), so every run of the test traces the same program run.
QByteArray generatedText(std::size_t bytes) {
    static const char* const syllables[] = {"ka", "lo", "mi",  "ne", "ru",  "sta", "ve", "tor",
                                            "an", "el", "qui", "zo", "bri", "ph",  "ou", "ng"};
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    const auto next = [&state] {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return (state * 2685821657736338717ull) >> 33;
    };
    QByteArray text;
    text.reserve(static_cast<qsizetype>(bytes + 64));
    int column = 0;
    while (static_cast<std::size_t>(text.size()) < bytes) {
        const int n = 1 + static_cast<int>(next() % 4);
        QByteArray word;
        for (int i = 0; i < n; ++i)
            word += syllables[next() % 16];
        if (next() % 11 == 0)
            word += QByteArray::number(static_cast<qulonglong>(next() % 100000));
        text += word;
        column += word.size() + 1;
        if (column > 70) {
            text += next() % 5 == 0 ? ".\n" : "\n";
            column = 0;
        } else {
            text += ' ';
        }
    }
    return text;
}

/// Processes whose parent is `parent` (scans /proc, so it needs no CONFIG_PROC_CHILDREN).
QList<qint64> childrenOf(qint64 parent) {
    QList<qint64> children;
    const QStringList entries = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // pid (comm) state ppid ...; comm may contain spaces and parentheses.
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent)
            children << pid;
    }
    return children;
}

bool processAlive(qint64 pid) {
    QFile stat(QString("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close >= 0 && line.size() > close + 2 && line[close + 2] != 'Z';
}

/// The files in `dir` whose names start with `prefix`.
QStringList filesStartingWith(const QString& dir, const QString& prefix) {
    return QDir(dir).entryList({prefix + "*"}, QDir::Files | QDir::Hidden);
}

/// True when the file opens and verifies as a .ctrace.
bool opensAsTrace(const QString& path, QString* why = nullptr) {
    try {
        TraceReader reader(path.toStdString());
        reader.verifyAll();
        return true;
    } catch (const std::exception& e) {
        if (why)
            *why = QString::fromStdString(e.what());
        return false;
    }
}

std::vector<TraceRecord> readAll(const QString& path) {
    TraceReader reader(path.toStdString());
    std::vector<TraceRecord> records;
    records.reserve(reader.recordCount());
    TraceRecord record;
    while (reader.next(record))
        records.push_back(record);
    return records;
}

/// The first C compiler found (cc, gcc, clang), or empty.
QString cCompiler() {
    for (const char* name : {"cc", "gcc", "clang"})
        if (const QString found = QStandardPaths::findExecutable(name); !found.isEmpty())
            return found;
    return {};
}

bool hasRegister(const std::uint8_t* regs, std::uint8_t count, std::uint8_t reg) {
    return std::find(regs, regs + count, reg) != regs + count;
}
bool readsFlags(const TraceRecord& r) {
    return hasRegister(r.sources.data(), r.sourceCount, ArchReg::kFlags);
}
bool writesFlags(const TraceRecord& r) {
    return hasRegister(r.destinations.data(), r.destinationCount, ArchReg::kFlags);
}

} // namespace

class TracerTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString gzip_;
    QString input_;     ///< 200 kB of generated text: `gzip -c` on it runs ~70 M instructions
    QString fullTrace_; ///< the whole gzip run, traced once (shared by several tests)
    std::uint64_t fullRunInstructions_ = 0;

    QString path(const QString& name) const { return dir_.filePath(name); }

    /// Writes `source` to name.c and compiles it (-O1) to name; empty on failure (the test then
    /// fails on `*error`).
    QString buildProgram(const QString& name, const QByteArray& source, QString* error) const {
        const QString cc = cCompiler();
        QFile file(path(name + ".c"));
        if (cc.isEmpty() || !file.open(QIODevice::WriteOnly)) {
            *error = "no C compiler or cannot write " + file.fileName();
            return {};
        }
        file.write(source);
        file.close();
        const Run compile = runProcess(cc, {"-O1", "-o", path(name), file.fileName()});
        if (compile.exitCode != 0) {
            *error = compile.err;
            return {};
        }
        return path(name);
    }

    /// Traces the whole `gzip -c input` run once; later tests reuse it.
    void ensureFullTrace() {
        if (!fullTrace_.isEmpty())
            return;
        const QString out = path("gzip-full.ctrace");
        const Run run = runConcorde({"trace", "-o", out, "--", gzip_, "-c", input_});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto counts = tracedCounts(run.out);
        QVERIFY2(counts, qPrintable(run.out.right(300)));
        QCOMPARE(counts->first, counts->second); // without --length everything is traced
        fullTrace_ = out;
        fullRunInstructions_ = counts->second;
    }

private slots:
    void initTestCase() {
        QVERIFY2(dir_.isValid(), "cannot create a temporary directory");
        QVERIFY2(QFileInfo(concordePath()).isExecutable(),
                 qPrintable("build the concorde target first: " + concordePath()));
        if (QStandardPaths::findExecutable("valgrind").isEmpty())
            QSKIP("valgrind is not installed (packaging/install-deps.sh installs it)");
        if (!QFileInfo::exists(QString(CONCORDE_BINARY_DIR) +
                               "/lib/concorde-valgrind/ctrace-amd64-linux"))
            QSKIP("the ctrace Valgrind tool is not built (target 'ctrace', x86-64 only)");
        gzip_ = QStandardPaths::findExecutable("gzip");
        QVERIFY2(!gzip_.isEmpty(), "gzip is needed (packaging/install-deps.sh installs it)");
        input_ = path("input.txt");
        QFile file(input_);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(generatedText(200'000));
        file.close();
    }

    // The whole run traced has as many instructions as Valgrind's own counter (lackey) counts.
    // Lackey runs with --vex-guest-chase=no: with chasing, VEX merges "if (a && b)" shapes into
    // one block and lackey then also counts instructions that were skipped (about 0.3 % too many
    // on gzip); ctrace always translates without chasing.
    void instructionCountMatchesLackey() {
        ensureFullTrace();
        QVERIFY2(!fullTrace_.isEmpty(), "tracing the whole gzip run failed");
        const Run lackey = runProcess("valgrind", {"--tool=lackey", "--basic-counts=yes",
                                                   "--vex-guest-chase=no", gzip_, "-c", input_});
        QVERIFY2(lackey.exitCode == 0, qPrintable(lackey.err.right(500)));
        const QRegularExpression re(R"(guest instrs:\s+([\d,]+))");
        const auto match = re.match(lackey.err);
        QVERIFY2(match.hasMatch(), qPrintable(lackey.err.right(500)));
        const double expected = match.captured(1).remove(',').toDouble();
        TraceReader reader(fullTrace_.toStdString());
        const double traced = static_cast<double>(reader.recordCount());
        QCOMPARE(reader.recordCount(), fullRunInstructions_);
        QVERIFY2(expected > 1e7, "the reference run is unexpectedly short");
        const double error = std::abs(traced - expected) / expected;
        QVERIFY2(error < 0.001, qPrintable(QString("traced %1 instructions, lackey counted %2 "
                                                   "(%3 % apart)")
                                               .arg(traced, 0, 'f', 0)
                                               .arg(expected, 0, 'f', 0)
                                               .arg(error * 100, 0, 'f', 3)));
        // One region covering the run, with a basic-block vector that adds up to it (up to the
        // one superblock execution that straddles each boundary).
        QCOMPARE(reader.info().regions.size(), std::size_t{1});
        const Region& region = reader.info().regions[0];
        QCOMPARE(region.programStart, std::uint64_t{0});
        QCOMPARE(region.length, reader.recordCount());
        std::uint64_t bbvTotal = 0;
        for (const auto& [pc, count] : region.basicBlockVector)
            bbvTotal += count;
        QVERIFY2(bbvTotal + 200 >= region.length && bbvTotal <= region.length + 200,
                 qPrintable(QString("bbv adds up to %1 of %2").arg(bbvTotal).arg(region.length)));
    }

    // A loop of exactly N iterations compiled here: N executions of its data-dependent branch
    // with the i % 3 pattern, N loads at &a[i] and a store at &b[i] for every third i.
    void loopBranchesAndAddresses() {
        const QString cc = cCompiler();
        if (cc.isEmpty())
            QSKIP("no C compiler (cc, gcc or clang) to build the loop program");
        constexpr int N = 1000;
        const QString source = path("loop.c");
        QFile file(source);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"(#include <stdio.h>
#define N 1000
long a[N], b[N];
__attribute__((noinline, noclone)) void kernel(long *x, long *y, int n) {
    for (int i = 0; i < n; ++i) {
        long v = x[i];
        if (v % 3 == 0)
            y[i] = v * 5;
    }
}
int main(void) {
    for (int i = 0; i < N; ++i)
        a[i] = i;
    printf("kernel=%p a=%p b=%p\n", (void *)kernel, (void *)a, (void *)b);
    fflush(stdout);
    kernel(a, b, N);
    return (int)(b[999] % 7);
}
)");
        file.close();
        const QString binary = path("loop");
        const Run compile = runProcess(cc, {"-O1", "-o", binary, source});
        QVERIFY2(compile.exitCode == 0, qPrintable(compile.err));

        const QString trace = path("loop.ctrace");
        const Run run = runConcorde({"trace", "-o", trace, "--", binary});
        QCOMPARE(run.exitCode, 4995 % 7); // b[999] = 999 * 5, and the exit code passes through
        const QRegularExpression re("kernel=(0x[0-9a-f]+) a=(0x[0-9a-f]+) b=(0x[0-9a-f]+)");
        const auto match = re.match(run.out);
        QVERIFY2(match.hasMatch(), qPrintable(run.out));
        const std::uint64_t kernel = match.captured(1).toULongLong(nullptr, 16);
        const std::uint64_t a = match.captured(2).toULongLong(nullptr, 16);
        const std::uint64_t b = match.captured(3).toULongLong(nullptr, 16);

        // The dynamic extent of kernel(): from the call to it up to its (first) return; it is a
        // leaf function.
        const std::vector<TraceRecord> records = readAll(trace);
        std::size_t begin = records.size();
        for (std::size_t i = 0; i < records.size(); ++i)
            if (records[i].branchKind == BranchKind::Call && records[i].taken &&
                records[i].branchTarget == kernel) {
                begin = i + 1;
                break;
            }
        QVERIFY2(begin < records.size(), "no call to kernel() in the trace");
        QCOMPARE(records[begin].pc, kernel);
        std::size_t end = begin;
        while (end < records.size() && records[end].branchKind != BranchKind::Return)
            ++end;
        QVERIFY2(end < records.size(), "kernel() never returns in the trace");

        // Per conditional branch: its outcomes in order.
        std::map<std::uint64_t, std::vector<bool>> outcomes;
        std::vector<std::uint64_t> loads, stores;
        for (std::size_t i = begin; i <= end; ++i) {
            const TraceRecord& r = records[i];
            if (r.branchKind == BranchKind::DirectConditional)
                outcomes[r.pc].push_back(r.taken);
            for (int k = 0; k < r.loadCount; ++k) {
                const auto& access = r.loads[static_cast<std::size_t>(k)];
                if (access.address >= a && access.address < a + 8 * N) {
                    QCOMPARE(access.size, std::uint16_t{8});
                    loads.push_back(access.address);
                }
                QVERIFY2(!(access.address >= b && access.address < b + 8 * N),
                         "kernel() never loads from b");
            }
            for (int k = 0; k < r.storeCount; ++k) {
                const auto& access = r.stores[static_cast<std::size_t>(k)];
                QVERIFY2(!(access.address >= a && access.address < a + 8 * N),
                         "kernel() never stores to a");
                if (access.address >= b && access.address < b + 8 * N) {
                    QCOMPARE(access.size, std::uint16_t{8});
                    stores.push_back(access.address);
                }
            }
        }
        // The data-dependent branch: exactly N executions, outcome (i % 3 == 0) or its negation
        // depending on the compiler's layout, and exactly one such branch.
        int patternBranches = 0, loopBranches = 0;
        for (const auto& [pc, taken] : outcomes) {
            if (taken.size() == N) {
                bool matches = taken[0] != taken[1];
                for (int i = 0; i < N && matches; ++i)
                    matches = taken[static_cast<std::size_t>(i)] == ((i % 3 == 0) == taken[0]);
                patternBranches += matches;
            }
            // The loop-closing test: N or N + 1 executions, the same outcome except the last.
            if (taken.size() == N || taken.size() == N + 1) {
                bool loop = taken.back() != taken.front();
                for (std::size_t i = 0; i + 1 < taken.size() && loop; ++i)
                    loop = taken[i] == taken.front();
                loopBranches += loop;
            }
        }
        QVERIFY2(patternBranches == 1,
                 qPrintable(QString("%1 branches with N executions and the i % 3 pattern; "
                                    "conditional branches seen: %2")
                                .arg(patternBranches)
                                .arg(outcomes.size())));
        QCOMPARE(loopBranches, 1);
        QCOMPARE(loads.size(), std::size_t{N});
        for (int i = 0; i < N; ++i)
            QCOMPARE(loads[static_cast<std::size_t>(i)], a + 8 * static_cast<std::uint64_t>(i));
        QCOMPARE(stores.size(), std::size_t{(N + 2) / 3});
        for (std::size_t k = 0; k < stores.size(); ++k)
            QCOMPARE(stores[k], b + 8 * 3 * k);
    }

    // Which instructions read the flags, on one probe function of hand-written instructions run
    // once. Shifts and rotates by a nonzero immediate and inc/dec only write the flags: VEX's
    // "flags unchanged when the count is 0" select and the carry inc/dec preserve are not data
    // inputs on real cores (and an Arm `lsl` writes no flags). Everything that computes from the
    // flags keeps them as a source, and so do a shift by CL (the count may be 0 at run time) and
    // a shift by an immediate 0 (the flags then pass through unchanged).
    void flagsSourcesOfShiftsIncDecAndFlagReaders() {
        if (cCompiler().isEmpty())
            QSKIP("no C compiler (cc, gcc or clang) to build the probe program");
        struct Expect {
            const char* insn;
            bool reads;
            bool writes;
        };
        const std::vector<Expect> expected = {
            {"shl $3, %rdi", false, true},
            {"shl %rdi", false, true},
            {"sar $2, %rdi", false, true},
            {"shrl $5, %eax", false, true},
            {"rol $5, %rdx", false, true},
            {"ror %rdx", false, true},
            {"shld $4, %rsi, %rdi", false, true},
            {"shrd $4, %rsi, %rdi", false, true},
            {"inc %rsi", false, true},
            {"decl %esi", false, true},
            {"add %rsi, %rdi", false, true},
            {"shl $0, %rdi", true, true},
            {"adc %rsi, %rdi", true, true},
            {"sbb %rsi, %rdi", true, true},
            {"rcl $1, %rdx", true, true},
            {"rcr $3, %rdx", true, true},
            {"mov %edx, %ecx", false, false},
            {"shl %cl, %rsi", true, true},
            {"ror %cl, %rsi", true, true},
            {"cmp %rsi, %rdi", false, true},
            {"cmovl %rsi, %rdi", true, false},
            {"setb %al", true, false},
            {"lahf", true, false},
            {"pushfq", true, false},
            {"popq %rax", false, false},
            {"xor %eax, %eax", false, true},
            {"jnz 1f", true, false}, // not taken: xor set ZF
            {"nop", false, false},
            {"1: ret", false, false},
        };
        QByteArray body;
        for (const Expect& e : expected)
            body += QByteArray("        \"") + e.insn + "\\n\"\n";
        const QByteArray source = "#include <stdio.h>\n"
                                  "void probe(void);\n"
                                  "__asm__(\".text\\n.globl probe\\n.type probe,@function\\n"
                                  "probe:\\n\"\n" +
                                  body +
                                  ");\n"
                                  "int main(void) {\n"
                                  "    printf(\"probe=%p\\n\", (void *)probe);\n"
                                  "    fflush(stdout);\n"
                                  "    probe();\n"
                                  "    return 0;\n"
                                  "}\n";
        QString error;
        const QString binary = buildProgram("flags-probe", source, &error);
        QVERIFY2(!binary.isEmpty(), qPrintable(error));
        const QString trace = path("flags-probe.ctrace");
        const Run run =
            runConcorde({"trace", "-o", trace, "--functional-warmup", "0", "--", binary});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto match = QRegularExpression("probe=(0x[0-9a-f]+)").match(run.out);
        QVERIFY2(match.hasMatch(), qPrintable(run.out));
        const std::uint64_t probe = match.captured(1).toULongLong(nullptr, 16);

        const std::vector<TraceRecord> records = readAll(trace);
        const auto begin = std::find_if(records.begin(), records.end(),
                                        [&](const TraceRecord& r) { return r.pc == probe; });
        QVERIFY2(begin != records.end(), "probe() is not in the trace");
        QVERIFY(records.end() - begin >= static_cast<std::ptrdiff_t>(expected.size()));
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const TraceRecord& r = begin[static_cast<std::ptrdiff_t>(i)];
            const QString what = QString("%1 (pc %2)").arg(expected[i].insn).arg(r.pc, 0, 16);
            QVERIFY2(readsFlags(r) == expected[i].reads,
                     qPrintable(what + (expected[i].reads ? " does not read" : " reads") +
                                " the flags"));
            QVERIFY2(writesFlags(r) == expected[i].writes,
                     qPrintable(what + (expected[i].writes ? " does not write" : " writes") +
                                " the flags"));
        }
        QCOMPARE(begin[static_cast<std::ptrdiff_t>(expected.size() - 1)].branchKind,
                 BranchKind::Return);
        // Traces made with this analysis say so; older ones have no such property.
        const TraceReader reader(trace.toStdString());
        const auto& properties = reader.info().properties;
        QVERIFY(properties.count("tracer_analysis") == 1);
        QCOMPARE(properties.at("tracer_analysis"), std::to_string(CTP_ANALYSIS_VERSION));
    }

    // Timing on the simulator, from first principles. Two independent chains, each three
    // (shl $1; add) pairs per iteration, plus dec/jnz: 14 instructions, 13 integer-ALU
    // operations. With 1-cycle ALU operations each chain is 6 cycles long per iteration; the 3
    // ALU pipes need 13/3 = 4.33 cycles and the 4-wide front end 14/4 = 3.5, so the chains bind:
    // 6 cycles per iteration. Were the shifts (and dec) to read the flags the adds write, the 13
    // operations would form one chain: 13 cycles.
    void shiftChainsAreNotSerialisedThroughTheFlags() {
        if (cCompiler().isEmpty())
            QSKIP("no C compiler (cc, gcc or clang) to build the kernel");
        const QByteArray source = R"(#include <stdio.h>
int main(void) {
    unsigned long a = 1, b = 2, k = 3, n = 400000;
    __asm__ volatile("1:\n\t"
                     "shl $1, %0\n\t" "add %3, %0\n\t"
                     "shl $1, %1\n\t" "add %3, %1\n\t"
                     "shl $1, %0\n\t" "add %3, %0\n\t"
                     "shl $1, %1\n\t" "add %3, %1\n\t"
                     "shl $1, %0\n\t" "add %3, %0\n\t"
                     "shl $1, %1\n\t" "add %3, %1\n\t"
                     "dec %2\n\t"
                     "jnz 1b\n\t"
                     : "+r"(a), "+r"(b), "+r"(n) : "r"(k));
    printf("%lu\n", a ^ b);
    return 0;
}
)";
        QString error;
        const QString binary = buildProgram("shift-chains", source, &error);
        QVERIFY2(!binary.isEmpty(), qPrintable(error));
        // 400,000 iterations = 5.6 M instructions; the region [1 M, 3 M) is inside the loop
        // (the dynamic loader and libc start-up take about 0.15 M).
        const QString trace = path("shift-chains.ctrace");
        const Run traced =
            runConcorde({"trace", "-o", trace, "--skip", "1000000", "--length", "2000000",
                         "--warmup", "100000", "--functional-warmup", "0", "--", binary});
        QVERIFY2(traced.exitCode == 0, qPrintable(traced.err));
        const Run sim = runConcorde({"simulate", trace, "--preset", "n1-like", "--set",
                                     "alu_issue=3", "--set", "fetch_width=4", "--set",
                                     "decode_width=4", "--set", "rename_width=4", "--json"});
        QVERIFY2(sim.exitCode == 0, qPrintable(sim.err));
        const QJsonObject doc = QJsonDocument::fromJson(sim.out.toUtf8()).object();
        const double cyclesPerIteration = doc["cpi"].toDouble() * 14;
        QVERIFY2(
            std::abs(cyclesPerIteration - 6.0) < 0.1,
            qPrintable(QString("%1 cycles per iteration, expected 6").arg(cyclesPerIteration)));
    }

    // --skip/--length/--warmup/--regions/--interval give exactly the requested region table,
    // and each region holds the same records (PCs, branch outcomes, registers, memory addresses)
    // as the same slice of the full trace.
    void regionTable() {
        ensureFullTrace();
        QVERIFY2(!fullTrace_.isEmpty(), "tracing the whole gzip run failed");
        constexpr std::uint64_t skip = 1'000'000, length = 20'000, warmup = 5'000,
                                interval = 3'000'000, regions = 4;
        const QString trace = path("regions.ctrace");
        const Run run =
            runConcorde({"trace", "-o", trace, "--skip", QString::number(skip), "--length",
                         QString::number(length), "--warmup", QString::number(warmup), "--regions",
                         QString::number(regions), "--interval", QString::number(interval), "--",
                         gzip_, "-c", input_});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(!run.err.contains("warning"), qPrintable(run.err));
        TraceReader reader(trace.toStdString());
        const auto& table = reader.info().regions;
        QCOMPARE(table.size(), std::size_t{regions});
        QCOMPARE(reader.recordCount(), regions * (warmup + length));
        QCOMPARE(reader.info().source, std::string("tracer"));
        QVERIFY(QString::fromStdString(reader.info().commandLine).contains("-c"));

        TraceReader full(fullTrace_.toStdString());
        for (std::uint64_t k = 0; k < regions; ++k) {
            const Region& region = table[k];
            QCOMPARE(region.programStart, skip + k * interval);
            QCOMPARE(region.warmup, warmup);
            QCOMPARE(region.length, length);
            QCOMPARE(region.firstRecord, k * (warmup + length));
            QVERIFY2(!region.basicBlockVector.empty(), qPrintable(QString("region %1").arg(k)));
            std::uint64_t bbvTotal = 0;
            for (const auto& [pc, count] : region.basicBlockVector) {
                QVERIFY(count > 0);
                bbvTotal += count;
            }
            QVERIFY2(bbvTotal + 200 >= length && bbvTotal <= length + 200,
                     qPrintable(QString("region %1: bbv adds up to %2").arg(k).arg(bbvTotal)));

            std::vector<TraceRecord> records;
            reader.readRegion(k, records);
            QCOMPARE(records.size(), std::size_t{warmup + length});
            full.seekRecord(region.programStart - warmup);
            TraceRecord expected;
            for (std::size_t i = 0; i < records.size(); ++i) {
                QVERIFY(full.next(expected));
                if (!(records[i] == expected))
                    QFAIL(qPrintable(QString("region %1, record %2: pc %3 taken %4, full trace "
                                             "pc %5 taken %6")
                                         .arg(k)
                                         .arg(i)
                                         .arg(records[i].pc, 0, 16)
                                         .arg(records[i].taken)
                                         .arg(expected.pc, 0, 16)
                                         .arg(expected.taken)));
            }
        }
    }

    // Without --interval, K regions go in the middles of K equal slices of the whole run, which
    // is counted by a first, fast-forward-only run; the records are the full trace's at those
    // places. Regions that cannot fit are refused before anything is traced.
    void regionsSpreadOverTheWholeRun() {
        ensureFullTrace();
        QVERIFY2(!fullTrace_.isEmpty(), "tracing the whole gzip run failed");
        constexpr std::uint64_t length = 20'000, warmup = 5'000, regions = 4;
        const QString trace = path("spread.ctrace");
        const Run run =
            runConcorde({"trace", "-o", trace, "--length", QString::number(length), "--warmup",
                         QString::number(warmup), "--functional-warmup", "0", "--regions",
                         QString::number(regions), "--", gzip_, "-c", input_});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const std::uint64_t total = fullRunInstructions_;
        QVERIFY2(run.out.contains(QString("spreading 4 regions over %1 instructions").arg(total)),
                 qPrintable(run.out.right(400)));
        const std::uint64_t slice = total / regions;
        TraceReader reader(trace.toStdString());
        TraceReader full(fullTrace_.toStdString());
        QCOMPARE(reader.info().regions.size(), std::size_t{regions});
        for (std::uint64_t k = 0; k < regions; ++k) {
            const Region& region = reader.info().regions[k];
            QCOMPARE(region.programStart, (slice - length) / 2 + k * slice);
            QCOMPARE(region.length, length);
            std::vector<TraceRecord> records;
            reader.readRegion(k, records);
            full.seekRecord(region.programStart - region.warmup);
            TraceRecord expected;
            for (std::size_t i = 0; i < records.size(); i += 997) {
                full.seekRecord(region.programStart - region.warmup + i);
                QVERIFY(full.next(expected));
                QVERIFY2(records[i] == expected,
                         qPrintable(QString("region %1 record %2").arg(k).arg(i)));
            }
        }

        const QString tooMany = path("too-many.ctrace");
        const Run refused =
            runConcorde({"trace", "-o", tooMany, "--length", QString::number(total / 2),
                         "--regions", "3", "--", gzip_, "-c", input_});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("do not fit"), qPrintable(refused.err));
        QVERIFY(filesStartingWith(dir_.path(), "too-many.ctrace").isEmpty());
    }

    // A program that ends during the last regions: the region it is in is kept, shorter, the
    // ones after it are not written, and a warning says so.
    void programEndingEarlyTruncatesTheLastRegion() {
        ensureFullTrace();
        QVERIFY2(!fullTrace_.isEmpty(), "tracing the whole gzip run failed");
        const std::uint64_t total = fullRunInstructions_;
        constexpr std::uint64_t length = 20'000, warmup = 5'000, interval = 25'000;
        const std::uint64_t skip = total - 30'000; // region 1 starts 5 000 before the end
        const QString trace = path("truncated.ctrace");
        const Run run =
            runConcorde({"trace", "-o", trace, "--skip", QString::number(skip), "--length",
                         QString::number(length), "--warmup", QString::number(warmup), "--regions",
                         "3", "--interval", QString::number(interval), "--", gzip_, "-c", input_});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("warning") && run.err.contains("2 of 3 regions"),
                 qPrintable(run.err));
        const auto counts = tracedCounts(run.out);
        QVERIFY(counts);
        const std::uint64_t executed = counts->second;
        QVERIFY2(executed > skip + interval && executed < skip + interval + length,
                 "the run length changed between two identical runs");
        TraceReader reader(trace.toStdString());
        const auto& table = reader.info().regions;
        QCOMPARE(table.size(), std::size_t{2});
        QCOMPARE(table[0].programStart, skip);
        QCOMPARE(table[0].length, length);
        QCOMPARE(table[1].programStart, skip + interval);
        QCOMPARE(table[1].warmup, warmup);
        QCOMPARE(table[1].length, executed - (skip + interval));
        QVERIFY(table[1].length < length);
        QVERIFY(!table[1].basicBlockVector.empty());
        QCOMPARE(reader.recordCount(), 2 * warmup + length + table[1].length);
    }

    // The traced program's standard output, standard error and exit code pass through.
    void outputAndExitCodePassThrough() {
        const QString trace = path("sh.ctrace");
        const Run run =
            runConcorde({"trace", "-o", trace, "--", "sh", "-c", "echo out; echo err >&2; exit 7"});
        QCOMPARE(run.exitCode, 7);
        QVERIFY2(run.out.startsWith("out\n"), qPrintable(run.out));
        QVERIFY2(run.err.contains("err\n"), qPrintable(run.err));
        QVERIFY2(!run.out.contains("err") && !run.err.contains("out\n"), "streams are mixed up");
        QString why;
        QVERIFY2(opensAsTrace(trace, &why), qPrintable(why));
        TraceReader reader(trace.toStdString());
        QVERIFY(reader.recordCount() > 10'000); // sh's start-up alone
        QVERIFY(QString::fromStdString(reader.info().commandLine).contains("exit 7"));
    }

    // The words after "--" reach the program exactly as given, also those that look like options
    // or like the parser's own list syntax.
    void wordsAfterDoubleDashPassUntouched() {
        const QString trace = path("words.ctrace");
        const QStringList words = {"[a,b]", "{}", "", "--help", "-o", "--", "x y"};
        const Run run = runConcorde(
            QStringList{"trace", "-o", trace, "--", "sh", "-c", "printf '<%s>' \"$@\"", "sh"} +
            words);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.startsWith("<[a,b]><{}><><--help><-o><--><x y>"), qPrintable(run.out));
    }

    void missingProgramIsABadInput() {
        const QString trace = path("missing.ctrace");
        const Run run = runConcorde({"trace", "-o", trace, "--", path("no-such-program")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("no-such-program") && run.err.contains("not found"),
                 qPrintable(run.err));
        QVERIFY(filesStartingWith(dir_.path(), "missing.ctrace").isEmpty());

        // A file that is not executable is refused the same way.
        QFile data(path("not-executable"));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.write("#!/bin/sh\n");
        data.close();
        const Run notExec = runConcorde({"trace", "-o", trace, "--", data.fileName()});
        QCOMPARE(notExec.exitCode, 2);
        QVERIFY2(notExec.err.contains("not-executable"), qPrintable(notExec.err));
        QVERIFY(filesStartingWith(dir_.path(), "missing.ctrace").isEmpty());

        QCOMPARE(runConcorde({"trace", "--", "true"}).exitCode, 2); // no -o
        QCOMPARE(runConcorde({"trace", "-o", trace}).exitCode, 2);  // no program
        QCOMPARE(runConcorde({"trace", "-o", trace, "--regions", "2", "--", "true"}).exitCode,
                 2); // several regions need --length
        QVERIFY(filesStartingWith(dir_.path(), "missing.ctrace").isEmpty());
    }

    // SIGKILL to the Valgrind process while it traces: an error, and no output file.
    // SIGKILL to `concorde trace` itself: no output file, the tracer goes away, and the
    // temporary file it leaves does not open as a trace.
    void killedTracerLeavesNoTrace() {
        const QString loop = "while :; do i=$((i+1)); done";
        for (const bool killConcorde : {false, true}) {
            const QString name = killConcorde ? "killed-cli.ctrace" : "killed-tool.ctrace";
            const QString trace = path(name);
            QProcess process;
            process.start(concordePath(), {"trace", "-o", trace, "--", "sh", "-c", loop});
            QVERIFY(process.waitForStarted(30'000));
            // Wait until records are being written (the temporary file has grown).
            QElapsedTimer clock;
            clock.start();
            qint64 tracer = 0;
            while (clock.elapsed() < 60'000) {
                const QStringList partial = filesStartingWith(dir_.path(), name + ".tmp");
                if (!partial.isEmpty() && QFileInfo(path(partial.front())).size() > 100'000) {
                    const QList<qint64> children = childrenOf(process.processId());
                    if (!children.isEmpty())
                        tracer = children.front();
                    break;
                }
                QThread::msleep(100);
            }
            QVERIFY2(tracer > 0, "the tracer did not start writing within a minute");
            if (killConcorde) {
                process.kill();
                QVERIFY(process.waitForFinished(30'000));
                // The tool writes continuously here, so it notices the closed pipe at once.
                clock.restart();
                while (processAlive(tracer) && clock.elapsed() < 30'000)
                    QThread::msleep(100);
                const bool orphan = processAlive(tracer);
                if (orphan)
                    ::kill(static_cast<pid_t>(tracer), SIGKILL);
                QVERIFY2(!orphan, "the Valgrind process outlived `concorde trace`");
            } else {
                QVERIFY(::kill(static_cast<pid_t>(tracer), SIGKILL) == 0);
                QVERIFY(process.waitForFinished(60'000));
                QCOMPARE(process.exitStatus(), QProcess::NormalExit);
                QCOMPARE(process.exitCode(), 1);
                const QString err = QString::fromUtf8(process.readAllStandardError());
                QVERIFY2(err.contains("killed by signal 9") && err.contains("no trace"),
                         qPrintable(err));
            }
            QVERIFY2(!QFileInfo::exists(trace), qPrintable(trace + " exists"));
            for (const QString& leftover : filesStartingWith(dir_.path(), name)) {
                QString why;
                QVERIFY2(!opensAsTrace(path(leftover), &why),
                         qPrintable(leftover + " opens as a valid trace"));
                QVERIFY2(!why.isEmpty(), qPrintable(leftover));
                QFile::remove(path(leftover));
            }
        }
    }

    // A program that dies of SIGILL under the tracer (ud2, which Valgrind delivers as the CPU
    // would): exit 1, an error naming the signal and the likely cause, and no trace.
    void illegalInstructionIsAClearError() {
        QString error;
        const QString binary =
            buildProgram("illegal", "int main(void) { __builtin_trap(); return 0; }\n", &error);
        QVERIFY2(!binary.isEmpty(), qPrintable(error));
        const QString out = path("illegal.ctrace");
        const Run run = runConcorde({"trace", "-o", out, "--", binary});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("killed by signal 4 (Illegal instruction)") &&
                     run.err.contains("unhandled instruction bytes") &&
                     run.err.contains("no trace written"),
                 qPrintable(run.err.right(600)));
        QVERIFY2(!QFileInfo::exists(out), qPrintable(out + " exists"));
    }

    // A full disk (a 64 KiB tmpfs in a private mount namespace): exit 1, an error that names the
    // file, and no output file left behind.
    void fullDiskIsAClearError() {
        const QString unshare = QStandardPaths::findExecutable("unshare");
        if (unshare.isEmpty())
            QSKIP("unshare (util-linux) is not installed");
        const QString mountPoint = path("small-disk");
        QVERIFY(QDir().mkpath(mountPoint));
        const Run probe = runProcess(
            unshare, {"-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs \"$1\" && echo mounted",
                      "sh", mountPoint});
        if (probe.exitCode != 0 || !probe.out.contains("mounted"))
            QSKIP(qPrintable("cannot mount a tmpfs in a private namespace here (" +
                             probe.err.trimmed() + ")"));
        // Everything happens inside the namespace: the tmpfs disappears with it.
        const Run run = runProcess(
            unshare, {"-rm", "sh", "-c",
                      "mount -t tmpfs -o size=64k tmpfs \"$1\" || exit 99\n"
                      "\"$2\" trace -o \"$1/out.ctrace\" -- \"$3\" -c \"$4\" >/dev/null\n"
                      "rc=$?\n"
                      "echo \"files:$(ls -A \"$1\" | tr '\\n' ' ')\"\n"
                      "exit $rc",
                      "sh", mountPoint, concordePath(), gzip_, input_});
        QVERIFY2(run.exitCode == 1,
                 qPrintable(QString("exit %1: %2").arg(run.exitCode).arg(run.err)));
        QVERIFY2(run.err.contains(mountPoint + "/out.ctrace"), qPrintable(run.err));
        QVERIFY2(run.err.contains("No space left"), qPrintable(run.err));
        QVERIFY2(run.out.contains("files:"), qPrintable(run.out));
        QVERIFY2(!run.out.contains("out.ctrace"),
                 qPrintable("files left on the full disk: " + run.out));
    }

    // ChampSim export then import of a real traced program keeps every PC, branch kind and
    // outcome and every memory address, record by record.
    void champsimRoundTripOfARealProgram() {
        const QString trace = path("gzip-region.ctrace");
        const Run traced = runConcorde({"trace", "-o", trace, "--skip", "2000000", "--length",
                                        "300000", "--", gzip_, "-c", input_});
        QVERIFY2(traced.exitCode == 0, qPrintable(traced.err));
        const QString exported = path("gzip-region.champsimtrace.xz");
        // The region has a functional warm-up (the default); --cold leaves its replay out.
        const Run out = runConcorde({"export-champsim", trace, "-o", exported, "--cold"});
        QVERIFY2(out.exitCode == 0, qPrintable(out.err));
        const QString back = path("gzip-region-back.ctrace");
        const Run in = runConcorde({"import-champsim", exported, "-o", back});
        QVERIFY2(in.exitCode == 0, qPrintable(in.err));

        const std::vector<TraceRecord> original = readAll(trace);
        const std::vector<TraceRecord> imported = readAll(back);
        QCOMPARE(original.size(), std::size_t{300'000});
        QCOMPARE(imported.size(), original.size());
        {
            // Without --cold the warm state comes first, as loads and fetches of its lines.
            const QString warmExport = path("gzip-region-warm.champsimtrace.xz");
            const Run warm = runConcorde({"export-champsim", trace, "-o", warmExport});
            QVERIFY2(warm.exitCode == 0, qPrintable(warm.err));
            const QRegularExpression count("region 0: (\\d+) records replay its warm state");
            const auto match = count.match(warm.out);
            QVERIFY2(match.hasMatch(), qPrintable(warm.out));
            const std::size_t replayed = match.captured(1).toULongLong();
            QVERIFY(replayed > 100);
            const QString warmBack = path("gzip-region-warm-back.ctrace");
            QCOMPARE(runConcorde({"import-champsim", warmExport, "-o", warmBack}).exitCode, 0);
            const std::vector<TraceRecord> withReplay = readAll(warmBack);
            QCOMPARE(withReplay.size(), original.size() + replayed);
            QCOMPARE(withReplay[replayed].pc, original.front().pc);
            QCOMPARE(withReplay.back().pc, original.back().pc);
        }
        std::size_t branches = 0, taken = 0, withMemory = 0;
        for (std::size_t i = 0; i < original.size(); ++i) {
            const TraceRecord& a = original[i];
            const TraceRecord& b = imported[i];
            const auto where = [&] { return QString("record %1 (pc %2)").arg(i).arg(a.pc, 0, 16); };
            if (a.pc != b.pc)
                QFAIL(qPrintable(where() + QString(": pc became %1").arg(b.pc, 0, 16)));
            if (a.branchKind != b.branchKind || a.taken != b.taken)
                QFAIL(qPrintable(where() + QString(": branch kind %1 taken %2 became %3 %4")
                                               .arg(int(a.branchKind))
                                               .arg(a.taken)
                                               .arg(int(b.branchKind))
                                               .arg(b.taken)));
            if (a.loadCount != b.loadCount || a.storeCount != b.storeCount)
                QFAIL(qPrintable(where() + QString(": %1 loads %2 stores became %3 %4")
                                               .arg(a.loadCount)
                                               .arg(a.storeCount)
                                               .arg(b.loadCount)
                                               .arg(b.storeCount)));
            for (int k = 0; k < a.loadCount; ++k)
                if (a.loads[k].address != b.loads[k].address)
                    QFAIL(qPrintable(where() + ": load address changed"));
            for (int k = 0; k < a.storeCount; ++k)
                if (a.stores[k].address != b.stores[k].address)
                    QFAIL(qPrintable(where() + ": store address changed"));
            branches += a.isBranch();
            taken += a.isBranch() && a.taken;
            withMemory += a.loadCount + a.storeCount > 0;
        }
        // The slice is a real mix, so the comparison above covered every kind of record.
        QVERIFY(branches > 10'000 && taken > 1'000 && taken < branches);
        QVERIFY(withMemory > 30'000);
    }
};

QTEST_GUILESS_MAIN(TracerTest)
#include "TracerTest.moc"
