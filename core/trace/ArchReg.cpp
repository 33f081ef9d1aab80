#include "trace/ArchReg.h"

#include <array>

namespace concorde::ArchReg {

std::string name(std::uint8_t reg) {
    static constexpr std::array<const char*, 16> kGpr = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp",
                                                         "rsi", "rdi", "r8",  "r9",  "r10", "r11",
                                                         "r12", "r13", "r14", "r15"};
    if (reg >= kRax && reg <= kR15)
        return kGpr[reg - kRax];
    if (reg >= kVector0 && reg <= kVector15)
        return "ymm" + std::to_string(reg - kVector0);
    switch (reg) {
    case kNone:
        return "none";
    case kFlags:
        return "flags";
    case kRip:
        return "rip";
    case kX87:
        return "x87";
    case kFpControl:
        return "fpctl";
    case kSegment:
        return "seg";
    default:
        if (reg >= kForeignBase)
            return "ext" + std::to_string(reg - kForeignBase);
        return "r?" + std::to_string(reg);
    }
}

} // namespace concorde::ArchReg
