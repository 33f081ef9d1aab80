#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace concorde {

/// What an instruction does, as the execution units see it. An instruction with a memory operand
/// keeps the class of its operation (an `add` from memory is IntAlu with one load); Load and
/// Store are instructions whose only work is the memory access.
enum class InstrClass : std::uint8_t {
    IntAlu,
    IntMul,
    IntDiv,
    FpAdd,
    FpMul,
    FpDiv, ///< divide and square root
    Simd,
    Load,
    Store,
    Branch,
    Fence, ///< fences and serialising instructions
    Nop,
};
inline constexpr std::size_t kInstrClassCount = 12;

/// Control-flow kind; None for every non-branch.
enum class BranchKind : std::uint8_t {
    None,
    DirectUnconditional,
    DirectConditional,
    Indirect,
    Call, ///< direct or indirect call
    Return,
};
inline constexpr std::size_t kBranchKindCount = 6;

/// Stable names, used in JSON, CSV and on the command line: "int-alu", "fp-div", "call", ...
std::string_view instrClassName(InstrClass cls);
std::string_view branchKindName(BranchKind kind);
std::optional<InstrClass> parseInstrClass(std::string_view name);

} // namespace concorde
