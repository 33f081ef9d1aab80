// Study tool (not built by CMake): concorde simulate's core on region 0 of a .ctrace, with
// class latencies and per-PC class rewrites that the CLI does not expose. Build with build.sh.
//   simvar TRACE [--set k=v]... [--lat CLASS=N]... [--as-class PCFILE CLASS] [--no-store PCFILE]
//          [--timeline FIRST COUNT] [--no-flags-source PCFILE]
// --drop-rmw-flags drops the flags source of every register-only int-alu record that reads and
// writes one register and the flags (shifts and rotates by an immediate, inc, dec; also adc/sbb
// with an immediate, which really read the carry, but are rare).
// --l1-latency N sets the L1d load-to-use latency (MemorySystemSpec; default 4).
// --no-flags-source drops the flags register from the sources of the records at those PCs.
// --timeline prints pc, issue, complete and commit cycles of measured instructions
// [FIRST, FIRST + COUNT) after the summary.
// PCFILE: one hex PC per line (as in the trace); every record at such a PC gets CLASS
// (--as-class) or loses its stores (--no-store: no SQ entry, no memory dependence through them).
#include "analysis/LatencyTable.h"
#include "analysis/WarmState.h"
#include "params/PresetLibrary.h"
#include "refsim/OutOfOrderCore.h"
#include "refsim/StallBreakdownCollector.h"
#include "trace/ArchReg.h"
#include "trace/TraceReader.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

using namespace concorde;

namespace {
class Timeline : public SimulationListener {
public:
    Timeline(std::uint64_t first, std::uint64_t count) : first_(first), rows_(count) {}
    void onIssue(const IssueEvent& e) override {
        if (Row* r = row(e.index)) {
            r->issue = e.cycle;
            r->complete = e.completeCycle;
        }
    }
    void onCommit(const CommitEvent& e) override {
        if (Row* r = row(e.index))
            r->commit = e.cycle;
    }
    void print(const std::vector<TraceRecord>& measured) const {
        for (std::size_t k = 0; k < rows_.size() && first_ + k < measured.size(); ++k)
            std::printf("%llu\t%llx\t%llu\t%llu\t%llu\n",
                        static_cast<unsigned long long>(first_ + k),
                        static_cast<unsigned long long>(measured[first_ + k].pc),
                        static_cast<unsigned long long>(rows_[k].issue),
                        static_cast<unsigned long long>(rows_[k].complete),
                        static_cast<unsigned long long>(rows_[k].commit));
    }

private:
    struct Row {
        std::uint64_t issue = 0, complete = 0, commit = 0;
    };
    Row* row(std::uint64_t i) {
        return i >= first_ && i - first_ < rows_.size() ? &rows_[i - first_] : nullptr;
    }
    std::uint64_t first_;
    std::vector<Row> rows_;
};
} // namespace

// int-alu, no memory, sources {R, flags}, destinations {R, flags}.
static bool isRmwFlags(const TraceRecord& r) {
    if (r.instrClass != InstrClass::IntAlu || r.loadCount || r.storeCount || r.sourceCount != 2 ||
        r.destinationCount != 2)
        return false;
    const bool f0 = r.sources[0] == ArchReg::kFlags, f1 = r.sources[1] == ArchReg::kFlags;
    if (f0 == f1)
        return false;
    const std::uint8_t reg = f0 ? r.sources[1] : r.sources[0];
    const bool d0 = r.destinations[0] == ArchReg::kFlags, d1 = r.destinations[1] == ArchReg::kFlags;
    return d0 != d1 && (d0 ? r.destinations[1] : r.destinations[0]) == reg;
}

static std::set<std::uint64_t> readPcs(const char* path) {
    std::set<std::uint64_t> pcs;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty())
            pcs.insert(std::stoull(line, nullptr, 16));
    return pcs;
}

int main(int argc, char** argv) {
    if (argc < 2)
        return 2;
    CoreConfig config = PresetLibrary::loadDefault().require("n1-like").config;
    LatencyTable lat;
    std::set<std::uint64_t> pcs;
    InstrClass asClass = InstrClass::Nop;
    std::set<std::uint64_t> noStore;
    std::uint64_t tlFirst = 0, tlCount = 0;
    std::set<std::uint64_t> noFlags;
    MemorySystemSpec memory;
    bool dropRmwFlags = false;
    for (int k = 2; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--set" && k + 1 < argc) {
            config.applyAssignment(argv[++k]);
        } else if (a == "--lat" && k + 1 < argc) {
            const std::string s = argv[++k];
            const auto eq = s.find('=');
            lat.set(*parseInstrClass(s.substr(0, eq)), std::stoul(s.substr(eq + 1)));
        } else if (a == "--as-class" && k + 2 < argc) {
            pcs = readPcs(argv[++k]);
            asClass = *parseInstrClass(argv[++k]);
        } else if (a == "--timeline" && k + 2 < argc) {
            tlFirst = std::stoull(argv[++k]);
            tlCount = std::stoull(argv[++k]);
        } else if (a == "--drop-rmw-flags") {
            dropRmwFlags = true;
        } else if (a == "--l1-latency" && k + 1 < argc) {
            memory.latencies[0] = static_cast<std::uint32_t>(std::stoul(argv[++k]));
        } else if (a == "--no-flags-source" && k + 1 < argc) {
            noFlags = readPcs(argv[++k]);
        } else if (a == "--no-store" && k + 1 < argc) {
            noStore = readPcs(argv[++k]);
        } else {
            std::cerr << "unknown argument " << a << "\n";
            return 2;
        }
    }
    TraceReader reader(argv[1]);
    std::vector<TraceRecord> records;
    reader.readRegion(0, records);
    std::size_t rewritten = 0;
    for (auto& r : records) {
        if (pcs.count(r.pc)) {
            r.instrClass = asClass;
            ++rewritten;
        }
        if (noFlags.count(r.pc)) {
            std::uint8_t n = 0;
            for (std::uint8_t s = 0; s < r.sourceCount; ++s)
                if (r.sources[s] != ArchReg::kFlags)
                    r.sources[n++] = r.sources[s];
            rewritten += n != r.sourceCount;
            r.sourceCount = n;
        }
        if (dropRmwFlags && isRmwFlags(r)) {
            r.sourceCount = 1;
            r.sources[0] = r.sources[0] == ArchReg::kFlags ? r.sources[1] : r.sources[0];
            ++rewritten;
        }
        if (noStore.count(r.pc) && r.storeCount > 0) {
            r.storeCount = 0;
            ++rewritten;
        }
    }
    const auto& region = reader.info().regions[0];
    const auto warm = WarmState::ofRegion(region, argv[1]);
    OutOfOrderCore core(config, memory, {}, lat);
    StallBreakdownCollector stalls;
    core.addListener(stalls);
    Timeline timeline(tlFirst, tlCount);
    core.addListener(timeline);
    const std::uint64_t cycles = core.run(records, region.warmup, warm.get());
    const double n = static_cast<double>(records.size() - region.warmup);
    std::printf("cpi %.4f cycles %llu rewritten %zu\n", cycles / n,
                static_cast<unsigned long long>(cycles), rewritten);
    std::cout << stalls.toJson().dump() << "\n";
    std::cout.flush();
    if (tlCount > 0)
        timeline.print(std::vector<TraceRecord>(records.begin() + region.warmup, records.end()));
    return 0;
}
