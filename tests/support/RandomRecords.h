#pragma once
// Deterministic pseudo-random trace records for format tests: every class, every branch kind with
// the registers a real branch of that kind uses, several operands, and memory addresses with
// large jumps so that the varint deltas are exercised.

#include "trace/ArchReg.h"
#include "trace/TraceRecord.h"

#include <random>
#include <vector>

namespace concorde::testing {

inline std::vector<TraceRecord> makeRandomRecords(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<TraceRecord> records;
    std::uint64_t pc = 0x401000;
    const auto anyGpr = [&] { return static_cast<std::uint8_t>(ArchReg::kRax + rng() % 16); };
    for (std::size_t i = 0; i < count; ++i) {
        TraceRecord r;
        r.pc = pc;
        r.size = static_cast<std::uint8_t>(1 + rng() % 15);
        r.instrClass = static_cast<InstrClass>(rng() % kInstrClassCount);
        if (r.instrClass == InstrClass::Branch) {
            r.branchKind = static_cast<BranchKind>(1 + rng() % (kBranchKindCount - 1));
            r.taken = r.branchKind != BranchKind::DirectConditional || rng() % 2;
            r.branchTarget = rng() % 2 ? pc - 64 : 0x500000 + rng() % 100000;
            switch (r.branchKind) {
            case BranchKind::DirectConditional:
                r.addSource(ArchReg::kFlags);
                break;
            case BranchKind::Indirect:
                r.addSource(anyGpr() == ArchReg::kRsp ? ArchReg::kRax : ArchReg::kRdx);
                break;
            case BranchKind::Call:
            case BranchKind::Return:
                r.addSource(ArchReg::kRsp);
                r.addDestination(ArchReg::kRsp);
                (r.branchKind == BranchKind::Call ? r.addStore(0x7ffe0000 + rng() % 512 * 8, 8)
                                                  : r.addLoad(0x7ffe0000 + rng() % 512 * 8, 8));
                break;
            default:
                break;
            }
        } else {
            for (int s = 0; s < static_cast<int>(rng() % 4); ++s) {
                const auto reg = static_cast<std::uint8_t>(1 + rng() % (ArchReg::kCount - 1));
                if (reg != ArchReg::kRip) // real records never list rip as an operand
                    r.addSource(reg);
            }
            if (rng() % 4)
                r.addDestination(rng() % 2 ? anyGpr()
                                           : ArchReg::vector(static_cast<int>(rng() % 16)));
            if (rng() % 3 == 0)
                r.addLoad(rng() % 2 ? 0x7ffd0000 + rng() % 4096 : rng() >> 8, 8);
            if (rng() % 5 == 0)
                r.addStore(0x600000 + (rng() % 1000) * 8,
                           static_cast<std::uint16_t>(1 << (rng() % 6)));
        }
        records.push_back(r);
        pc = r.nextPc();
    }
    return records;
}

} // namespace concorde::testing
