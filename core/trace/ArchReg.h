#pragma once

#include <cstdint>
#include <string>

namespace concorde {

/// Architectural register numbers stored in trace records (amd64). 0 means "no register".
/// The flags (the VEX condition-code thunk) count as one register.
namespace ArchReg {
inline constexpr std::uint8_t kNone = 0;
inline constexpr std::uint8_t kRax = 1; ///< rax..r15 are 1..16 in hardware encoding order
inline constexpr std::uint8_t kRcx = 2;
inline constexpr std::uint8_t kRdx = 3;
inline constexpr std::uint8_t kRbx = 4;
inline constexpr std::uint8_t kRsp = 5;
inline constexpr std::uint8_t kRbp = 6;
inline constexpr std::uint8_t kRsi = 7;
inline constexpr std::uint8_t kRdi = 8;
inline constexpr std::uint8_t kR8 = 9;
inline constexpr std::uint8_t kR15 = 16;
inline constexpr std::uint8_t kFlags = 17;
inline constexpr std::uint8_t kRip = 18;
inline constexpr std::uint8_t kVector0 = 19; ///< xmm/ymm 0..15 are 19..34
inline constexpr std::uint8_t kVector15 = 34;
inline constexpr std::uint8_t kX87 = 35;       ///< the x87 register stack, as one register
inline constexpr std::uint8_t kFpControl = 36; ///< mxcsr / x87 control and status
inline constexpr std::uint8_t kSegment = 37;   ///< fs/gs bases and other system state
inline constexpr std::uint8_t kCount = 38;
/// Registers 64..255 carry register numbers of foreign traces (ChampSim imports) that have no
/// amd64 meaning here; they still express dependencies exactly.
inline constexpr std::uint8_t kForeignBase = 64;

/// True for the numbers a trace record may hold.
inline constexpr bool isValid(std::uint8_t reg) {
    return reg < kCount || reg >= kForeignBase;
}

inline constexpr std::uint8_t gpr(int n) {
    return static_cast<std::uint8_t>(kRax + n);
}
inline constexpr std::uint8_t vector(int n) {
    return static_cast<std::uint8_t>(kVector0 + n);
}

/// "rax", "flags", "ymm3", ...
std::string name(std::uint8_t reg);
} // namespace ArchReg

} // namespace concorde
