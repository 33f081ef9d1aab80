#pragma once

#include "trace/InstrClass.h"

#include <array>
#include <cstdint>

namespace concorde {

/// Execution latency in cycles per instruction class: from issue until a dependent instruction
/// may issue. A runtime value type; the defaults are the documented ones, used by both the
/// reference simulator and the analytical models so that they agree.
///
/// Defaults (a recent big core, roughly Skylake/Zen/Neoverse-N1 scalar latencies):
/// | class  | cycles | why |
/// |--------|--------|-----|
/// | int-alu | 1 | simple integer ops |
/// | int-mul | 3 | imul r64 on every recent x86 and N1 |
/// | int-div | 20 | 64-bit divide, middle of the 12–40 cycle range of current cores |
/// | fp-add | 3 | Zen/N1 2–3, Skylake 4 |
/// | fp-mul | 4 | Skylake and Zen mulsd/FMA |
/// | fp-div | 12 | divsd/sqrtsd 11–15 on current cores |
/// | simd | 3 | mix of vector integer (1) and vector FP (3–4) ops |
/// | load | 0 | nothing on top of the memory latency (see below) |
/// | store | 1 | address generation and data hand-off to the store queue |
/// | branch | 1 | resolution in one ALU cycle |
/// | fence | 1 | the drain is ordering, not latency: see below |
/// | nop | 1 | occupies a slot; nothing depends on it |
///
/// A fence's cost is that it waits for all older instructions and holds back younger memory
/// operations; the simulator and the models apply that ordering themselves.
///
/// An instruction with loads takes the memory latency of its slowest load (load-to-use, from
/// MemorySystemSpec) plus its class latency; a pure Load adds 0. Every instruction takes at
/// least one cycle.
class LatencyTable {
public:
    /// The documented defaults.
    LatencyTable();

    std::uint32_t latency(InstrClass cls) const { return cycles_[static_cast<std::size_t>(cls)]; }
    /// Throws a bad-input ConcordeError for a latency above 1000 cycles.
    void set(InstrClass cls, std::uint32_t cycles);

    /// Execution latency of an instruction of class `cls`; `memoryLatency` is the load-to-use
    /// latency of its slowest load, or 0 when it has none.
    std::uint32_t instructionLatency(InstrClass cls, std::uint32_t memoryLatency) const {
        const std::uint32_t total = memoryLatency + latency(cls);
        return total > 0 ? total : 1;
    }

    bool operator==(const LatencyTable&) const = default;

private:
    std::array<std::uint16_t, kInstrClassCount> cycles_{};
};

} // namespace concorde
