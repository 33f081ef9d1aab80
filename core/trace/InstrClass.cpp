#include "trace/InstrClass.h"

#include <array>

namespace concorde {
namespace {

constexpr std::array<std::string_view, kInstrClassCount> kClassNames = {
    "int-alu", "int-mul", "int-div", "fp-add", "fp-mul", "fp-div",
    "simd",    "load",    "store",   "branch", "fence",  "nop"};

constexpr std::array<std::string_view, kBranchKindCount> kBranchNames = {
    "none", "direct-uncond", "direct-cond", "indirect", "call", "return"};

} // namespace

std::string_view instrClassName(InstrClass cls) {
    const auto i = static_cast<std::size_t>(cls);
    return i < kClassNames.size() ? kClassNames[i] : "invalid";
}

std::string_view branchKindName(BranchKind kind) {
    const auto i = static_cast<std::size_t>(kind);
    return i < kBranchNames.size() ? kBranchNames[i] : "invalid";
}

std::optional<InstrClass> parseInstrClass(std::string_view name) {
    for (std::size_t i = 0; i < kClassNames.size(); ++i)
        if (kClassNames[i] == name)
            return static_cast<InstrClass>(i);
    return std::nullopt;
}

} // namespace concorde
