#include "analysis/LatencyTable.h"

#include "common/ConcordeError.h"

#include <string>

namespace concorde {

LatencyTable::LatencyTable() {
    set(InstrClass::IntAlu, 1);
    set(InstrClass::IntMul, 3);
    set(InstrClass::IntDiv, 20);
    set(InstrClass::FpAdd, 3);
    set(InstrClass::FpMul, 4);
    set(InstrClass::FpDiv, 12);
    set(InstrClass::Simd, 3);
    set(InstrClass::Load, 0);
    set(InstrClass::Store, 1);
    set(InstrClass::Branch, 1);
    set(InstrClass::Fence, 1);
    set(InstrClass::Nop, 1);
}

void LatencyTable::set(InstrClass cls, std::uint32_t cycles) {
    if (cycles > 1000)
        throw badInput("latency of " + std::string(instrClassName(cls)) +
                       " must be at most 1000 cycles, not " + std::to_string(cycles));
    cycles_[static_cast<std::size_t>(cls)] = static_cast<std::uint16_t>(cycles);
}

} // namespace concorde
