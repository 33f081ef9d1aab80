// Study tool (not built by CMake): concorde simulate's core on region 0 of a .ctrace, with
// class latencies and per-PC class rewrites that the CLI does not expose. Build with build.sh.
//   simvar TRACE [--set k=v]... [--lat CLASS=N]... [--as-class PCFILE CLASS] [--no-store PCFILE]
// PCFILE: one hex PC per line (as in the trace); every record at such a PC gets CLASS
// (--as-class) or loses its stores (--no-store: no SQ entry, no memory dependence through them).
#include "analysis/LatencyTable.h"
#include "analysis/WarmState.h"
#include "params/PresetLibrary.h"
#include "refsim/OutOfOrderCore.h"
#include "refsim/StallBreakdownCollector.h"
#include "trace/TraceReader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

using namespace concorde;

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
        if (noStore.count(r.pc) && r.storeCount > 0) {
            r.storeCount = 0;
            ++rewritten;
        }
    }
    const auto& region = reader.info().regions[0];
    const auto warm = WarmState::ofRegion(region, argv[1]);
    OutOfOrderCore core(config, {}, {}, lat);
    StallBreakdownCollector stalls;
    core.addListener(stalls);
    const std::uint64_t cycles = core.run(records, region.warmup, warm.get());
    const double n = static_cast<double>(records.size() - region.warmup);
    std::printf("cpi %.4f cycles %llu rewritten %zu\n", cycles / n,
                static_cast<unsigned long long>(cycles), rewritten);
    std::cout << stalls.toJson().dump() << "\n";
    return 0;
}
