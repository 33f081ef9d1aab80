#pragma once

#include "trace/InstrClass.h"

#include <cstdint>

namespace concorde {

/// Which issue width an instruction competes for, shared by the reference simulator and the
/// analytical width models so that both count the same instructions:
/// - any instruction with a memory access issues as a memory op (`ls_issue`, pipes);
/// - FP and SIMD operations use `fp_issue`;
/// - nops are eliminated at rename (like register moves on current cores) and use no width;
/// - everything else (integer ops, branches, fences) uses `alu_issue`.
enum class IssueGroup : std::uint8_t { Alu, Fp, Memory, Eliminated };
inline constexpr std::size_t kIssueGroupCount = 4;

inline IssueGroup issueGroupOf(InstrClass cls, bool accessesMemory) {
    if (accessesMemory)
        return IssueGroup::Memory;
    switch (cls) {
    case InstrClass::Nop:
        return IssueGroup::Eliminated;
    case InstrClass::FpAdd:
    case InstrClass::FpMul:
    case InstrClass::FpDiv:
    case InstrClass::Simd:
        return IssueGroup::Fp;
    default:
        return IssueGroup::Alu;
    }
}

} // namespace concorde
