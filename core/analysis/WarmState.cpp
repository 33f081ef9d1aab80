#include "analysis/WarmState.h"

#include "analysis/CacheHierarchy.h"
#include "analysis/MemorySystemSpec.h"
#include "common/ConcordeError.h"
#include "common/Varint.h"
#include "common/ZstdFrame.h"
#include "params/ParameterSpace.h"

#include <algorithm>

namespace concorde {
namespace {

std::uint32_t setsAt(double maxKb, std::uint32_t ways, std::uint32_t lineBytes) {
    return static_cast<std::uint32_t>(maxKb * 1024 / lineBytes / ways);
}

} // namespace

std::uint32_t WarmState::finestSets() {
    const MemorySystemSpec spec;
    const auto maxKb = [](ParamId id) { return ParameterSpace::spec(id).max; };
    return std::max({setsAt(maxKb(ParamId::L1dKb), spec.l1dWays, spec.lineBytes),
                     setsAt(maxKb(ParamId::L1iKb), spec.l1iWays, spec.lineBytes),
                     setsAt(maxKb(ParamId::L2Kb), spec.l2Ways, spec.lineBytes),
                     setsAt(spec.llcKb, spec.llcWays, spec.lineBytes)});
}

std::uint32_t WarmState::ways() {
    const MemorySystemSpec spec;
    return std::max({spec.l1dWays, spec.l1iWays, spec.l2Ways, spec.llcWays});
}

namespace {

/// 1: lines, loads, TAGE. 2: and the branch-target front end. 3: the version-2 body in one zstd
/// frame, after its size (TAGE's tables are mostly empty: 120 kB of state becomes about 40 kB).
constexpr std::uint64_t kEncodingVersion = 3;
/// A bound on a decoded body: the largest state the parameter space allows is a few MB.
constexpr std::uint64_t kMaxBodyBytes = std::uint64_t{256} << 20;

} // namespace

std::vector<std::uint8_t> WarmState::encode(int compressionLevel) const {
    std::vector<std::uint8_t> out;
    varint::put(out, instructions);
    varint::put(out, lines.size());
    std::uint64_t previous = 0;
    for (const Line& line : lines) {
        // The delta from the previous line, with the instruction flag in the low bit.
        const auto delta = static_cast<std::int64_t>(line.line - previous);
        varint::put(out, (varint::zigzag(delta) << 1) | (line.instruction ? 1 : 0));
        previous = line.line;
    }
    varint::put(out, recentLoads.size());
    std::uint64_t previousPc = 0;
    std::uint64_t previousAddress = 0;
    for (const Load& load : recentLoads) {
        varint::put(out, varint::zigzag(static_cast<std::int64_t>(load.pc - previousPc)));
        varint::put(out, varint::zigzag(static_cast<std::int64_t>(load.address - previousAddress)));
        previousPc = load.pc;
        previousAddress = load.address;
    }
    const std::vector<std::uint8_t> predictor =
        tage ? tage->saveState() : std::vector<std::uint8_t>{};
    varint::put(out, predictor.size());
    out.insert(out.end(), predictor.begin(), predictor.end());
    const std::vector<std::uint8_t> front =
        targets ? targets->saveState() : std::vector<std::uint8_t>{};
    varint::put(out, front.size());
    out.insert(out.end(), front.begin(), front.end());
    std::vector<std::uint8_t> encoded;
    varint::put(encoded, kEncodingVersion);
    varint::put(encoded, out.size());
    const std::vector<std::uint8_t> frame = zstd::compress(out, compressionLevel);
    encoded.insert(encoded.end(), frame.begin(), frame.end());
    return encoded;
}

std::shared_ptr<const WarmState> WarmState::ofRegion(const Region& region,
                                                     const std::string& what) {
    return fromBytes(region.warmState, what);
}

std::shared_ptr<const WarmState> WarmState::fromBytes(std::span<const std::uint8_t> bytes,
                                                      const std::string& what) {
    if (bytes.empty())
        return nullptr;
    return std::make_shared<const WarmState>(decode(bytes, what));
}

std::vector<TraceRecord> WarmState::replayRecords() const {
    constexpr std::uint32_t kLineShift = 6;
    std::vector<TraceRecord> records;
    records.reserve(lines.size() + recentLoads.size());
    const auto load = [](std::uint64_t pc, std::uint64_t address) {
        TraceRecord r;
        r.pc = pc;
        r.size = 4;
        r.instrClass = InstrClass::Load;
        r.addLoad(address, 8);
        return r;
    };
    for (const Line& line : lines) {
        if (line.instruction) {
            TraceRecord r;
            r.pc = line.line << kLineShift;
            r.size = 4;
            r.instrClass = InstrClass::IntAlu;
            records.push_back(r);
        } else {
            records.push_back(load(kReplayPc, line.line << kLineShift));
        }
    }
    for (const Load& l : recentLoads)
        records.push_back(load(l.pc, l.address));
    return records;
}

WarmState WarmState::decode(std::span<const std::uint8_t> bytes, const std::string& what) {
    const std::uint8_t* cursor = bytes.data();
    const std::uint8_t* end = bytes.data() + bytes.size();
    std::uint64_t version = 0;
    if (!varint::get(cursor, end, version))
        throw badInput(what + ": the warm state is damaged (version)");
    if (version == 1 || version == 2)
        return decodeBody(bytes.subspan(cursor - bytes.data()), version, what);
    if (version != kEncodingVersion)
        throw badInput(what + ": unsupported warm state version " + std::to_string(version));
    std::uint64_t bodyBytes = 0;
    if (!varint::get(cursor, end, bodyBytes) || bodyBytes > kMaxBodyBytes)
        throw badInput(what + ": the warm state is damaged (size)");
    const std::vector<std::uint8_t> body =
        zstd::decompress({cursor, end}, bodyBytes, what + ": the warm state");
    return decodeBody(body, 2, what);
}

WarmState WarmState::decodeBody(std::span<const std::uint8_t> bytes, std::uint64_t version,
                                const std::string& what) {
    const std::uint8_t* cursor = bytes.data();
    const std::uint8_t* end = bytes.data() + bytes.size();
    const auto next = [&](const char* field) {
        std::uint64_t value = 0;
        if (!varint::get(cursor, end, value))
            throw badInput(what + ": the warm state is damaged (" + field + ")");
        return value;
    };
    // Counts are bounded by the bytes left, so damaged counts cannot drive huge allocations.
    const auto count = [&](const char* field) {
        const std::uint64_t n = next(field);
        if (n > static_cast<std::uint64_t>(end - cursor))
            throw badInput(what + ": the warm state is damaged (" + field + ")");
        return static_cast<std::size_t>(n);
    };
    WarmState state;
    state.instructions = next("instructions");
    state.lines.resize(count("line count"));
    std::uint64_t previous = 0;
    for (Line& line : state.lines) {
        const std::uint64_t packed = next("lines");
        line.line = previous + static_cast<std::uint64_t>(varint::unzigzag(packed >> 1));
        line.instruction = packed & 1;
        previous = line.line;
    }
    state.recentLoads.resize(count("load count"));
    std::uint64_t previousPc = 0;
    std::uint64_t previousAddress = 0;
    for (Load& load : state.recentLoads) {
        load.pc = previousPc + static_cast<std::uint64_t>(varint::unzigzag(next("loads")));
        load.address =
            previousAddress + static_cast<std::uint64_t>(varint::unzigzag(next("loads")));
        previousPc = load.pc;
        previousAddress = load.address;
    }
    const std::size_t predictorBytes = count("TAGE state size");
    if (predictorBytes > 0) {
        auto predictor = std::make_shared<TagePredictor>();
        try {
            predictor->restoreState({cursor, predictorBytes});
        } catch (const ConcordeError& e) {
            throw badInput(what + ": " + e.what());
        }
        state.tage = std::move(predictor);
        cursor += predictorBytes;
    }
    const std::size_t frontBytes = version >= 2 ? count("branch-target state size") : 0;
    if (frontBytes > 0) {
        try {
            state.targets = std::make_shared<const BranchTargetPredictor>(
                BranchTargetPredictor::restoreState({cursor, frontBytes}));
        } catch (const ConcordeError& e) {
            throw badInput(what + ": " + e.what());
        }
        cursor += frontBytes;
    }
    if (cursor != end)
        throw badInput(what + ": the warm state has trailing bytes");
    return state;
}

void WarmState::warm(CacheHierarchy& caches) const {
    const std::uint32_t shift = caches.spec().lineShift();
    for (const Line& line : lines) {
        if (line.instruction)
            caches.accessInstruction(line.line << shift);
        else
            caches.warmDataLine(line.line);
    }
    for (const Load& load : recentLoads)
        caches.accessData(load.pc, load.address, false);
    caches.resetStats();
}

TagePredictor WarmState::tagePredictor(const TagePredictor::Geometry& geometry) const {
    if (tage && tage->geometry() == geometry)
        return *tage;
    return TagePredictor(geometry);
}

BranchTargetPredictor WarmState::targetPredictor(const BranchTargetSpec& spec) const {
    if (targets && targets->spec() == spec)
        return *targets;
    return BranchTargetPredictor(spec);
}

} // namespace concorde
