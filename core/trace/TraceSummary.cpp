#include "trace/TraceSummary.h"

#include "trace/TraceReader.h"

#include <nlohmann/json.hpp>

namespace concorde {

void TraceSummary::add(const TraceRecord& r) {
    ++instructions;
    ++byClass[static_cast<std::size_t>(r.instrClass)];
    ++byBranchKind[static_cast<std::size_t>(r.branchKind)];
    withLoad += r.loadCount > 0;
    withStore += r.storeCount > 0;
    if (r.isBranch()) {
        ++branches;
        takenBranches += r.taken;
    }
}

TraceSummary TraceSummary::of(TraceReader& reader) {
    TraceSummary summary;
    reader.seekRecord(0);
    TraceRecord record;
    while (reader.next(record))
        summary.add(record);
    return summary;
}

nlohmann::json TraceSummary::toJson() const {
    nlohmann::json classes = nlohmann::json::object();
    for (std::size_t i = 0; i < kInstrClassCount; ++i)
        classes[std::string(instrClassName(static_cast<InstrClass>(i)))] = byClass[i];
    nlohmann::json kinds = nlohmann::json::object();
    for (std::size_t i = 1; i < kBranchKindCount; ++i)
        kinds[std::string(branchKindName(static_cast<BranchKind>(i)))] = byBranchKind[i];
    return {{"instructions", instructions},
            {"class_mix", classes},
            {"branch_kinds", kinds},
            {"load_fraction", fraction(withLoad)},
            {"store_fraction", fraction(withStore)},
            {"branch_fraction", fraction(branches)},
            {"taken_fraction_of_branches",
             branches ? static_cast<double>(takenBranches) / static_cast<double>(branches) : 0.0}};
}

} // namespace concorde
