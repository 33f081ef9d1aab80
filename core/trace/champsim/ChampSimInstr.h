#pragma once

#include "trace/TraceRecord.h"

#include <array>
#include <cstdint>

namespace concorde {

/// ChampSim's 64-byte `input_instr` trace record (little-endian, no padding):
///   u64 ip; u8 is_branch; u8 branch_taken; u8 destination_registers[2];
///   u8 source_registers[4]; u64 destination_memory[2]; u64 source_memory[4]
/// ChampSim infers branch kinds from which registers a branch reads and writes, using register
/// numbers 6 (stack pointer), 25 (flags) and 26 (instruction pointer); conversions here follow
/// that convention so ChampSim classifies exported branches as we do. Register 0 and address 0
/// mean "unused".
struct ChampSimInstr {
    static constexpr std::size_t kBytes = 64;
    static constexpr std::uint8_t kStackPointer = 6;
    static constexpr std::uint8_t kFlags = 25;
    static constexpr std::uint8_t kInstructionPointer = 26;
    /// Read by indirect branches that have no register source of their own (jmp [mem]), so that
    /// ChampSim still classifies them as indirect; never written, so it adds no dependency.
    static constexpr std::uint8_t kIndirectMarker = 63;

    std::uint64_t ip = 0;
    bool isBranch = false;
    bool branchTaken = false;
    std::array<std::uint8_t, 2> destinationRegisters{};
    std::array<std::uint8_t, 4> sourceRegisters{};
    std::array<std::uint64_t, 2> destinationMemory{};
    std::array<std::uint64_t, 4> sourceMemory{};

    void toBytes(unsigned char* out) const;
    static ChampSimInstr fromBytes(const unsigned char* in);

    /// Converts one of our records. Operands beyond ChampSim's capacity are dropped; the return
    /// value says whether anything was.
    static bool fromRecord(const TraceRecord& record, ChampSimInstr& out);

    /// ChampSim's own branch classification of this record (by its registers).
    BranchKind inferBranchKind() const;

    /// Our register number for a ChampSim one and back (the two are inverse on the numbers
    /// that export produces).
    static std::uint8_t toArchReg(std::uint8_t champsimRegister);
    static std::uint8_t fromArchReg(std::uint8_t archReg);
};

} // namespace concorde
