#pragma once

#include "trace/InstrClass.h"

#include <array>
#include <cstdint>

namespace concorde {

/// One memory access of an instruction.
struct MemoryAccess {
    std::uint64_t address = 0;
    std::uint16_t size = 0;
    bool operator==(const MemoryAccess&) const = default;
};

/// One executed instruction, as stored in a .ctrace and consumed by analysis and the simulator.
struct TraceRecord {
    static constexpr std::size_t kMaxSources = 8;
    static constexpr std::size_t kMaxDestinations = 4;
    static constexpr std::size_t kMaxLoads = 2;
    static constexpr std::size_t kMaxStores = 2;

    std::uint64_t pc = 0;
    /// For branches: where control goes when the branch is taken. Meaningful when `taken`;
    /// for a not-taken conditional branch it is the would-be target if known, otherwise 0.
    std::uint64_t branchTarget = 0;
    std::array<std::uint8_t, kMaxSources> sources{};           ///< ArchReg numbers read
    std::array<std::uint8_t, kMaxDestinations> destinations{}; ///< ArchReg numbers written
    std::array<MemoryAccess, kMaxLoads> loads{};
    std::array<MemoryAccess, kMaxStores> stores{};
    std::uint8_t sourceCount = 0;
    std::uint8_t destinationCount = 0;
    std::uint8_t loadCount = 0;
    std::uint8_t storeCount = 0;
    std::uint8_t size = 0; ///< instruction length in bytes
    InstrClass instrClass = InstrClass::IntAlu;
    BranchKind branchKind = BranchKind::None;
    bool taken = false;

    bool isBranch() const { return branchKind != BranchKind::None; }
    /// The PC of the next instruction executed: the target when taken, otherwise pc + size.
    std::uint64_t nextPc() const { return taken ? branchTarget : pc + size; }

    /// Add operands; each returns false (and adds nothing) when the fixed capacity is full.
    bool addSource(std::uint8_t reg);
    bool addDestination(std::uint8_t reg);
    bool addLoad(std::uint64_t address, std::uint16_t size);
    bool addStore(std::uint64_t address, std::uint16_t size);

    bool operator==(const TraceRecord& other) const;
};

} // namespace concorde
