#include "trace/champsim/ChampSimInstr.h"

#include "common/LittleEndian.h"
#include "trace/ArchReg.h"

#include <algorithm>

namespace concorde {
namespace {

struct RegisterTables {
    std::array<std::uint8_t, 256> toChampSim{};
    std::array<std::uint8_t, 256> toArch{};
};

// Native registers get the special numbers ChampSim expects and otherwise the next free number,
// skipping 0 (unused) and the three special ones. Foreign registers (from an import) map back to
// the number they came with.
RegisterTables makeTables() {
    RegisterTables t;
    std::uint8_t next = 1;
    for (std::uint8_t reg = 1; reg < ArchReg::kCount; ++reg) {
        std::uint8_t number = 0;
        if (reg == ArchReg::kRsp)
            number = ChampSimInstr::kStackPointer;
        else if (reg == ArchReg::kFlags)
            number = ChampSimInstr::kFlags;
        else if (reg == ArchReg::kRip)
            number = ChampSimInstr::kInstructionPointer;
        else {
            while (next == ChampSimInstr::kStackPointer || next == ChampSimInstr::kFlags ||
                   next == ChampSimInstr::kInstructionPointer)
                ++next;
            number = next++;
        }
        t.toChampSim[reg] = number;
        t.toArch[number] = reg;
    }
    for (int number = 1; number < 256; ++number) {
        if (t.toArch[number] != 0)
            continue;
        // Numbers no native register uses become foreign registers 64..255 (numbers ≥ 192 wrap;
        // the ChampSim tracer's register numbers stay far below that).
        const auto foreign = static_cast<std::uint8_t>(ArchReg::kForeignBase + number % 192);
        t.toArch[number] = foreign;
        if (t.toChampSim[foreign] == 0)
            t.toChampSim[foreign] = static_cast<std::uint8_t>(number);
    }
    return t;
}

const RegisterTables& tables() {
    static const RegisterTables t = makeTables();
    return t;
}

template <std::size_t N>
bool pushUnique(std::array<std::uint8_t, N>& slots, std::uint8_t value) {
    for (auto& slot : slots) {
        if (slot == value)
            return true;
        if (slot == 0) {
            slot = value;
            return true;
        }
    }
    return false;
}

} // namespace

std::uint8_t ChampSimInstr::toArchReg(std::uint8_t number) {
    return number == 0 ? 0 : tables().toArch[number];
}

std::uint8_t ChampSimInstr::fromArchReg(std::uint8_t reg) {
    return reg == 0 ? 0 : tables().toChampSim[reg];
}

void ChampSimInstr::toBytes(unsigned char* out) const {
    le::store64(out, ip);
    out[8] = isBranch ? 1 : 0;
    out[9] = branchTaken ? 1 : 0;
    std::copy(destinationRegisters.begin(), destinationRegisters.end(), out + 10);
    std::copy(sourceRegisters.begin(), sourceRegisters.end(), out + 12);
    for (std::size_t i = 0; i < 2; ++i)
        le::store64(out + 16 + 8 * i, destinationMemory[i]);
    for (std::size_t i = 0; i < 4; ++i)
        le::store64(out + 32 + 8 * i, sourceMemory[i]);
}

ChampSimInstr ChampSimInstr::fromBytes(const unsigned char* in) {
    ChampSimInstr instr;
    instr.ip = le::load64(in);
    instr.isBranch = in[8] != 0;
    instr.branchTaken = in[9] != 0;
    std::copy(in + 10, in + 12, instr.destinationRegisters.begin());
    std::copy(in + 12, in + 16, instr.sourceRegisters.begin());
    for (std::size_t i = 0; i < 2; ++i)
        instr.destinationMemory[i] = le::load64(in + 16 + 8 * i);
    for (std::size_t i = 0; i < 4; ++i)
        instr.sourceMemory[i] = le::load64(in + 32 + 8 * i);
    return instr;
}

bool ChampSimInstr::fromRecord(const TraceRecord& r, ChampSimInstr& out) {
    out = ChampSimInstr{};
    out.ip = r.pc;
    out.isBranch = r.isBranch();
    out.branchTaken = r.taken;
    bool complete = true;
    const auto src = [&](std::uint8_t number) {
        complete &= pushUnique(out.sourceRegisters, number);
    };
    const auto dst = [&](std::uint8_t number) {
        complete &= pushUnique(out.destinationRegisters, number);
    };
    // Ordinary register operands, without the three registers whose presence encodes the
    // branch kind (added below exactly as ChampSim's classifier wants them).
    const auto isSpecial = [](std::uint8_t reg) {
        return reg == ArchReg::kRsp || reg == ArchReg::kFlags || reg == ArchReg::kRip;
    };
    bool readsOther = false;
    switch (r.branchKind) {
    case BranchKind::None:
        for (std::size_t i = 0; i < r.sourceCount; ++i)
            if (r.sources[i] != ArchReg::kRip)
                src(fromArchReg(r.sources[i]));
        for (std::size_t i = 0; i < r.destinationCount; ++i)
            if (r.destinations[i] != ArchReg::kRip)
                dst(fromArchReg(r.destinations[i]));
        break;
    case BranchKind::DirectUnconditional:
        src(kInstructionPointer);
        dst(kInstructionPointer);
        break;
    case BranchKind::DirectConditional:
        src(kInstructionPointer);
        src(kFlags);
        for (std::size_t i = 0; i < r.sourceCount; ++i)
            if (!isSpecial(r.sources[i]))
                src(fromArchReg(r.sources[i]));
        dst(kInstructionPointer);
        break;
    case BranchKind::Indirect:
        for (std::size_t i = 0; i < r.sourceCount; ++i)
            if (!isSpecial(r.sources[i])) {
                src(fromArchReg(r.sources[i]));
                readsOther = true;
            }
        if (!readsOther)
            src(kIndirectMarker);
        dst(kInstructionPointer);
        break;
    case BranchKind::Call:
        src(kStackPointer);
        src(kInstructionPointer);
        for (std::size_t i = 0; i < r.sourceCount; ++i)
            if (!isSpecial(r.sources[i]))
                src(fromArchReg(r.sources[i]));
        dst(kStackPointer);
        dst(kInstructionPointer);
        break;
    case BranchKind::Return:
        src(kStackPointer);
        dst(kStackPointer);
        dst(kInstructionPointer);
        break;
    }
    for (std::size_t i = 0; i < r.loadCount; ++i)
        out.sourceMemory[i] = r.loads[i].address;
    for (std::size_t i = 0; i < r.storeCount; ++i)
        out.destinationMemory[i] = r.stores[i].address;
    return complete;
}

BranchKind ChampSimInstr::inferBranchKind() const {
    const auto reads = [&](std::uint8_t n) {
        return std::find(sourceRegisters.begin(), sourceRegisters.end(), n) !=
               sourceRegisters.end();
    };
    const auto writes = [&](std::uint8_t n) {
        return std::find(destinationRegisters.begin(), destinationRegisters.end(), n) !=
               destinationRegisters.end();
    };
    const bool readsSp = reads(kStackPointer);
    const bool readsFlags = reads(kFlags);
    const bool readsIp = reads(kInstructionPointer);
    const bool writesSp = writes(kStackPointer);
    const bool writesIp = writes(kInstructionPointer);
    const bool readsOther = std::any_of(sourceRegisters.begin(), sourceRegisters.end(), [](auto n) {
        return n != 0 && n != kStackPointer && n != kFlags && n != kInstructionPointer;
    });
    if (!writesIp)
        return BranchKind::None;
    if (!readsSp && !readsFlags && !readsOther)
        return BranchKind::DirectUnconditional;
    if (!readsSp && !readsIp && !readsFlags && readsOther)
        return BranchKind::Indirect;
    if (!readsSp && readsIp && !writesSp && (readsFlags || readsOther))
        return BranchKind::DirectConditional;
    if (readsSp && readsIp && writesSp && !readsFlags)
        return BranchKind::Call; // direct or indirect
    if (readsSp && !readsIp && writesSp)
        return BranchKind::Return;
    // Writes the IP in some other way: ChampSim's BRANCH_OTHER, closest to an indirect jump.
    return BranchKind::Indirect;
}

} // namespace concorde
