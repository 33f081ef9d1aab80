#include "params/ParameterSpace.h"

#include "common/ConcordeError.h"
#include "params/NearestValue.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace concorde {
namespace {

std::vector<double> range(int first, int last) {
    std::vector<double> values;
    for (int v = first; v <= last; ++v)
        values.push_back(v);
    return values;
}

const std::vector<double> kFrontEndWidthGrid = {1, 2, 3, 4, 6, 8, 12, 16};
const std::vector<double> kQueueGrid = {8, 12, 16, 24, 32, 48, 64, 96, 128};
const std::vector<double> kPowerOfTwoTo32 = {1, 2, 4, 8, 16, 32};

using G = ParamGroup;
using K = ParamKind;

// Defaults are a moderate modern core; the named presets live in resources/presets as JSON.
const std::array<ParameterSpec, kParamCount> kSpecs = {{
    {ParamId::Rob,
     "rob",
     "ROB",
     "reorder buffer entries",
     "entries",
     G::BackEnd,
     K::Integer,
     8,
     1024,
     {16, 32, 48, 64, 96, 128, 192, 256, 384, 512},
     128,
     {}},
    {ParamId::CommitWidth,
     "commit_width",
     "Commit width",
     "instructions committed per cycle",
     "instr/cycle",
     G::BackEnd,
     K::Integer,
     1,
     12,
     range(1, 12),
     4,
     {}},
    {ParamId::LoadQueue,
     "lq",
     "Load queue",
     "load queue entries",
     "entries",
     G::BackEnd,
     K::Integer,
     4,
     256,
     kQueueGrid,
     48,
     {}},
    {ParamId::StoreQueue,
     "sq",
     "Store queue",
     "store queue entries",
     "entries",
     G::BackEnd,
     K::Integer,
     4,
     256,
     kQueueGrid,
     32,
     {}},
    {ParamId::AluIssue,
     "alu_issue",
     "ALU issue",
     "integer ALU issue width",
     "instr/cycle",
     G::BackEnd,
     K::Integer,
     1,
     8,
     range(1, 8),
     3,
     {}},
    {ParamId::FpIssue,
     "fp_issue",
     "FP issue",
     "floating-point/SIMD issue width",
     "instr/cycle",
     G::BackEnd,
     K::Integer,
     1,
     8,
     range(1, 8),
     2,
     {}},
    {ParamId::LsIssue,
     "ls_issue",
     "LS issue",
     "load/store issue width",
     "instr/cycle",
     G::BackEnd,
     K::Integer,
     1,
     8,
     range(1, 8),
     2,
     {}},
    {ParamId::LsPipes,
     "ls_pipes",
     "LS pipes",
     "load-store pipes (loads and stores)",
     "pipes",
     G::BackEnd,
     K::Integer,
     1,
     8,
     range(1, 4),
     2,
     {}},
    {ParamId::LoadPipes,
     "load_pipes",
     "Load pipes",
     "load-only pipes",
     "pipes",
     G::BackEnd,
     K::Integer,
     0,
     8,
     range(0, 4),
     0,
     {}},
    {ParamId::FetchWidth,
     "fetch_width",
     "Fetch width",
     "instructions fetched per cycle",
     "instr/cycle",
     G::FrontEnd,
     K::Integer,
     1,
     16,
     kFrontEndWidthGrid,
     4,
     {}},
    {ParamId::DecodeWidth,
     "decode_width",
     "Decode width",
     "instructions decoded per cycle",
     "instr/cycle",
     G::FrontEnd,
     K::Integer,
     1,
     16,
     kFrontEndWidthGrid,
     4,
     {}},
    {ParamId::RenameWidth,
     "rename_width",
     "Rename width",
     "instructions renamed per cycle",
     "instr/cycle",
     G::FrontEnd,
     K::Integer,
     1,
     16,
     kFrontEndWidthGrid,
     4,
     {}},
    {ParamId::FetchBuffers,
     "fetch_buffers",
     "Fetch buffers",
     "fetch buffer entries (cache lines in flight to decode)",
     "lines",
     G::FrontEnd,
     K::Integer,
     1,
     32,
     kPowerOfTwoTo32,
     8,
     {}},
    {ParamId::IcacheFills,
     "icache_fills",
     "I-cache fills",
     "maximum outstanding I-cache misses",
     "misses",
     G::FrontEnd,
     K::Integer,
     1,
     32,
     kPowerOfTwoTo32,
     8,
     {}},
    {ParamId::BranchPredictor,
     "bp",
     "Branch predictor",
     "branch predictor",
     "",
     G::FrontEnd,
     K::Choice,
     0,
     1,
     {0, 1},
     1,
     {"simple", "tage"}},
    {ParamId::BpMissPct,
     "bp_miss_pct",
     "Simple BP miss rate",
     "misprediction rate of the simple predictor",
     "%",
     G::FrontEnd,
     K::Real,
     0,
     20,
     {0, 1, 2, 5, 10, 20},
     2,
     {}},
    {ParamId::L1dKb,
     "l1d_kb",
     "L1d size",
     "L1 data cache size",
     "kB",
     G::Memory,
     K::Integer,
     16,
     256,
     {32, 64, 128},
     64,
     {}},
    {ParamId::L1iKb,
     "l1i_kb",
     "L1i size",
     "L1 instruction cache size",
     "kB",
     G::Memory,
     K::Integer,
     16,
     256,
     {32, 64, 128},
     64,
     {}},
    {ParamId::L2Kb,
     "l2_kb",
     "L2 size",
     "L2 cache size",
     "kB",
     G::Memory,
     K::Integer,
     256,
     4096,
     {512, 1024, 2048},
     1024,
     {}},
    {ParamId::PrefetchDegree,
     "pf_degree",
     "Prefetch degree",
     "L1d stride prefetcher degree (0 = off)",
     "lines",
     G::Memory,
     K::Integer,
     0,
     8,
     {0, 2},
     0,
     {}},
}};

std::string formatNumber(double value) {
    if (std::floor(value) == value && std::fabs(value) < 1e15)
        return std::to_string(static_cast<long long>(value));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

} // namespace

std::string ParameterSpec::formatValue(double value) const {
    // A choice's index is only cast once it is known to be one: converting a huge, negative or
    // NaN double to an integer is undefined (fuzz_session found bp = 1e70 in a session file).
    if (kind == ParamKind::Choice && value >= 0 && value < static_cast<double>(choices.size()) &&
        std::floor(value) == value)
        return choices[static_cast<std::size_t>(value)];
    return formatNumber(value);
}

std::string ParameterSpec::formatWithUnit(double value) const {
    const std::string text = formatValue(value);
    if (unit.empty())
        return text;
    return unit == "%" ? text + " %" : text + " " + unit;
}

std::string ParameterSpec::describeRange() const {
    if (kind == ParamKind::Choice) {
        std::string list;
        for (const auto& c : choices)
            list += (list.empty() ? "" : ", ") + c;
        return list;
    }
    return formatNumber(min) + "–" + formatNumber(max);
}

std::size_t ParameterSpec::nearestGridIndex(double value) const {
    return nearestValueIndex(grid, value);
}

std::string_view groupName(ParamGroup group) {
    switch (group) {
    case ParamGroup::FrontEnd:
        return "Front end";
    case ParamGroup::BackEnd:
        return "Back end";
    case ParamGroup::Memory:
        return "Memory";
    }
    return "?";
}

std::span<const ParameterSpec> ParameterSpace::all() {
    return kSpecs;
}

const ParameterSpec& ParameterSpace::spec(ParamId id) {
    return kSpecs[index(id)];
}

std::optional<ParamId> ParameterSpace::find(std::string_view key) {
    for (const auto& s : kSpecs)
        if (s.key == key)
            return s.id;
    return std::nullopt;
}

ParamId ParameterSpace::require(std::string_view key) {
    if (auto id = find(key))
        return *id;
    throw badInput("unknown parameter '" + std::string(key) + "'; valid keys are: " + keyList());
}

std::string ParameterSpace::keyList() {
    std::string list;
    for (const auto& s : kSpecs)
        list += (list.empty() ? "" : ", ") + s.key;
    return list;
}

int ParameterSpace::betterDirection(ParamId id) {
    if (spec(id).kind == ParamKind::Choice)
        return 0;
    return id == ParamId::BpMissPct ? -1 : 1;
}

} // namespace concorde
