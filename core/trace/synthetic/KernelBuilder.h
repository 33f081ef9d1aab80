#pragma once

#include "trace/ArchReg.h"
#include "trace/InstrClass.h"
#include "trace/TraceRecord.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace concorde {
class RecordSink;
}

namespace concorde::synthetic {

/// Emits well-formed records for kernels so that no kernel builds TraceRecords by hand.
///
/// The builder owns the program counter: every record is placed at pc() and the PC then moves to
/// the record's nextPc(), so a generated trace always satisfies "record i's nextPc() is record
/// i+1's pc". Kernels lay out a loop by remembering pc() at the loop head and closing the body
/// with jump(head); emitting the same static sequence each iteration keeps the same instruction
/// (class, registers) at each PC, as in a real binary, and keeps the I-cache footprint small.
///
/// Register conventions (amd64 numbers from ArchReg):
/// - rax and rbx carry dependence chains (kChainGpr, kSecondChainGpr); ymm0 the vector chain;
/// - r12..r15 and ymm12..ymm15 are read-only: no kernel writes them, so reading them never
///   creates a dependency (r14 is the load base, r15 the store base);
/// - independent results rotate over rcx, rdx, rsi, rdi, r8..r11 and ymm1..ymm11.
/// Operand forms follow three-operand encodings (lea, vaddsd...) so that an independent op does
/// not read its own destination; integer ops are modelled without a flags result, so only the
/// explicit compare of the branch kernels writes the flags.
///
/// With a null sink the builder only counts: MicrobenchKernel uses a counting pass to learn the
/// warm-up length that RecordSink::beginRegion() needs before the first record.
class KernelBuilder {
public:
    // Address-space layout shared by all kernels (disjoint, so streams never alias).
    static constexpr std::uint64_t kCodeBase = 0x401000;
    static constexpr std::uint64_t kHotLoadBase = 0x0800'0000;  ///< L1-resident load set
    static constexpr std::uint64_t kHotStoreBase = 0x0810'0000; ///< L1-resident store set
    static constexpr std::uint64_t kHotSetBytes = 4096;
    static constexpr std::uint64_t kChaseBase = 0x1000'0000;   ///< pointer chases, ≤ 1 GiB
    static constexpr std::uint64_t kStreamBase = 0x8000'0000;  ///< strided streams, ≤ 1 GiB
    static constexpr std::uint64_t kFreshBase = 0x1'0000'0000; ///< lines touched once, 4 GiB
    static constexpr std::uint64_t kLineBytes = 64;
    static constexpr std::uint16_t kAccessBytes = 8;

    static constexpr std::uint8_t kJumpSize = 5;              ///< jmp rel32
    static constexpr std::uint8_t kShortJumpSize = 2;         ///< jmp rel8
    static constexpr std::uint8_t kCallSize = 5;              ///< call rel32
    static constexpr std::uint8_t kReturnSize = 1;            ///< ret
    static constexpr std::uint8_t kIndirectJumpSize = 2;      ///< jmp *reg
    static constexpr std::uint8_t kConditionalBranchSize = 2; ///< jcc rel8
    static constexpr std::uint8_t kCompareSize = 3;           ///< test r64, r64

    static constexpr std::uint8_t kChainGpr = ArchReg::kRax;
    static constexpr std::uint8_t kSecondChainGpr = ArchReg::kRbx;
    static constexpr std::uint8_t kChainVector = ArchReg::vector(0);
    static constexpr std::uint8_t kConstGprA = ArchReg::gpr(12);
    static constexpr std::uint8_t kConstGprB = ArchReg::gpr(13);
    static constexpr std::uint8_t kLoadBase = ArchReg::gpr(14);
    static constexpr std::uint8_t kStoreBase = ArchReg::gpr(15);
    static constexpr std::uint8_t kConstVectorA = ArchReg::vector(12);
    static constexpr std::uint8_t kConstVectorB = ArchReg::vector(13);
    static constexpr std::size_t kRotatingGprCount = 8;
    static constexpr std::size_t kRotatingVectorCount = 11;

    /// `sink` may be null (count only). The first record is placed at kCodeBase.
    explicit KernelBuilder(RecordSink* sink);

    std::uint64_t pc() const { return pc_; }
    /// Records emitted so far (warm-up and measured).
    std::uint64_t recordCount() const { return count_; }

    /// Marks the end of the warm-up: records emitted from now on are measured.
    void beginMeasurement();
    bool measurementBegun() const { return measuring_; }
    /// Records emitted before beginMeasurement().
    std::uint64_t warmupRecords() const { return warmup_; }

    /// A computational op (not load, store, branch) writing `destination` (kNone for none).
    void op(InstrClass cls, std::uint8_t destination, std::initializer_list<std::uint8_t> sources);
    /// A load of kAccessBytes at `address` into `destination`, address formed from `sources`.
    void load(std::uint8_t destination, std::initializer_list<std::uint8_t> sources,
              std::uint64_t address);
    /// A store of kAccessBytes at `address`; `sources` are the address and data registers.
    void store(std::initializer_list<std::uint8_t> sources, std::uint64_t address);
    /// `test reg, reg`: an int-alu op of kCompareSize bytes that writes only the flags.
    void compare(std::initializer_list<std::uint8_t> sources);
    /// A taken direct unconditional jump of `size` bytes (kJumpSize or kShortJumpSize).
    void jump(std::uint64_t target, std::uint8_t size = kJumpSize);
    /// A direct call; its return address (pc + kCallSize) goes on the builder's call stack.
    void call(std::uint64_t target);
    /// A return to the address of the innermost open call(). Throws std::logic_error when no
    /// call is open.
    void ret();
    /// A taken indirect jump through a register (`sources`) to `target`.
    void indirectJump(std::uint64_t target, std::initializer_list<std::uint8_t> sources);
    /// A direct conditional branch; `target` is recorded whether or not it is taken.
    void conditionalBranch(bool taken, std::uint64_t target,
                           std::initializer_list<std::uint8_t> sources);

    /// One link of a dependence chain of class `cls` (int-alu, int-mul, int-div, fp-add, fp-mul,
    /// fp-div, simd): reads the chain register and writes it back (rax or ymm0).
    void chainOp(InstrClass cls);
    /// An op of class `cls` with no register input written by any kernel. `slot` (the op's
    /// position in the loop body) picks the destination register and, for loads and stores, an
    /// 8-byte word of the L1-resident hot set, so a given PC always has the same operands.
    /// Supports every class but branch and fence.
    void independentOp(InstrClass cls, std::size_t slot);

    /// The destination register for independent results at loop-body position `slot`.
    static std::uint8_t rotatingGpr(std::size_t slot);
    static std::uint8_t rotatingVector(std::size_t slot);
    /// Encoded length used for `cls` (typical amd64 encodings).
    static std::uint8_t instructionSize(InstrClass cls);
    /// True for the classes that execute on the FP/SIMD side (vector registers).
    static bool usesVectorRegisters(InstrClass cls);

private:
    void commit(TraceRecord& record);

    RecordSink* sink_;
    std::uint64_t pc_ = kCodeBase;
    std::vector<std::uint64_t> returnAddresses_; ///< of the open calls, innermost last
    std::uint64_t count_ = 0;
    std::uint64_t warmup_ = 0;
    bool measuring_ = false;
};

} // namespace concorde::synthetic
