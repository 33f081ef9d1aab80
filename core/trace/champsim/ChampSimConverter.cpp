#include "trace/champsim/ChampSimConverter.h"

#include "common/ConcordeError.h"
#include "io/CompressedFileReader.h"
#include "io/CompressedFileWriter.h"
#include "trace/ArchReg.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"
#include "trace/champsim/ChampSimInstr.h"

#include <vector>

namespace concorde {
namespace {

constexpr std::uint8_t kDefaultSize = 4;
constexpr std::uint16_t kAssumedAccessBytes = 8;

// Builds our record from a ChampSim one; `next` (if any) supplies the fall-through size and the
// taken target, which the ChampSim format does not store.
TraceRecord toRecord(const ChampSimInstr& in, const ChampSimInstr* next, bool& truncated) {
    TraceRecord r;
    r.pc = in.ip;
    r.branchKind = in.isBranch ? in.inferBranchKind() : BranchKind::None;
    if (in.isBranch && r.branchKind == BranchKind::None)
        r.branchKind = BranchKind::DirectConditional; // flagged a branch but writes no IP
    r.taken = r.isBranch() && in.branchTaken;
    if (r.taken && next)
        r.branchTarget = next->ip;
    r.size = kDefaultSize;
    if (next && !r.taken && next->ip > in.ip && next->ip - in.ip <= 15)
        r.size = static_cast<std::uint8_t>(next->ip - in.ip);

    for (auto number : in.sourceRegisters) {
        const std::uint8_t reg = ChampSimInstr::toArchReg(number);
        if (number != 0 && reg != ArchReg::kRip && number != ChampSimInstr::kIndirectMarker)
            truncated |= !r.addSource(reg);
    }
    for (auto number : in.destinationRegisters) {
        const std::uint8_t reg = ChampSimInstr::toArchReg(number);
        if (number != 0 && reg != ArchReg::kRip)
            truncated |= !r.addDestination(reg);
    }
    for (auto address : in.sourceMemory)
        if (address != 0)
            truncated |= !r.addLoad(address, kAssumedAccessBytes);
    for (auto address : in.destinationMemory)
        if (address != 0)
            truncated |= !r.addStore(address, kAssumedAccessBytes);

    if (r.isBranch())
        r.instrClass = InstrClass::Branch;
    else if (r.loadCount > 0 && r.storeCount == 0)
        r.instrClass = InstrClass::Load;
    else if (r.storeCount > 0 && r.loadCount == 0)
        r.instrClass = InstrClass::Store;
    else
        r.instrClass = InstrClass::IntAlu;
    return r;
}

} // namespace

ChampSimConversionStats ChampSimConverter::importTrace(const std::filesystem::path& input,
                                                       const std::filesystem::path& output,
                                                       const ImportOptions& options) {
    CompressedFileReader reader(input);
    TraceInfo info;
    info.source = "champsim-import";
    info.commandLine = "concorde import-champsim " + input.string();
    info.properties["champsim_file"] = input.filename().string();
    info.properties["skip"] = std::to_string(options.skip);
    TraceWriter writer(output, info);

    unsigned char bytes[ChampSimInstr::kBytes];
    std::uint64_t skipped = 0;
    for (; skipped < options.skip; ++skipped)
        if (!reader.readExactly(bytes, sizeof bytes))
            throw badInput(input.string() + ": only " + std::to_string(skipped) +
                           " records, fewer than --skip " + std::to_string(options.skip));

    ChampSimConversionStats stats;
    const std::uint64_t wanted =
        options.length == UINT64_MAX ? UINT64_MAX : options.warmup + options.length;
    writer.beginRegion(options.skip + options.warmup, options.warmup);
    bool haveCurrent = reader.readExactly(bytes, sizeof bytes);
    if (!haveCurrent)
        throw badInput(input.string() + ": no ChampSim records to import");
    ChampSimInstr current = ChampSimInstr::fromBytes(bytes);
    while (haveCurrent && stats.records < wanted) {
        ChampSimInstr next;
        const bool haveNext = reader.readExactly(bytes, sizeof bytes);
        if (haveNext)
            next = ChampSimInstr::fromBytes(bytes);
        bool truncated = false;
        writer.append(toRecord(current, haveNext ? &next : nullptr, truncated));
        stats.truncatedOperands += truncated;
        ++stats.records;
        current = next;
        haveCurrent = haveNext;
    }
    writer.endRegion();
    writer.finish();
    return stats;
}

ChampSimConversionStats ChampSimConverter::exportTrace(const std::filesystem::path& input,
                                                       const std::filesystem::path& output,
                                                       const ExportOptions& options) {
    TraceReader reader(input);
    CompressedFileWriter writer(output);
    ChampSimConversionStats stats;
    std::vector<unsigned char> buffer;
    buffer.reserve(ChampSimInstr::kBytes * 4096);
    unsigned char bytes[ChampSimInstr::kBytes];
    const auto put = [&](const TraceRecord& record) {
        ChampSimInstr instr;
        stats.truncatedOperands += !ChampSimInstr::fromRecord(record, instr);
        instr.toBytes(bytes);
        buffer.insert(buffer.end(), bytes, bytes + sizeof bytes);
        if (buffer.size() == buffer.capacity()) {
            writer.write(buffer.data(), buffer.size());
            buffer.clear();
        }
        ++stats.records;
    };
    const std::vector<Region> regions = reader.info().regions;
    std::vector<TraceRecord> records;
    for (std::size_t r = 0; r < regions.size(); ++r) {
        std::vector<TraceRecord> prelude;
        if (options.regionPrelude)
            prelude = options.regionPrelude(r, regions[r]);
        stats.preludeRecords.push_back(prelude.size());
        for (const TraceRecord& record : prelude)
            put(record);
        reader.readRegion(r, records);
        for (const TraceRecord& record : records)
            put(record);
    }
    writer.write(buffer.data(), buffer.size());
    writer.commit();
    return stats;
}

} // namespace concorde
