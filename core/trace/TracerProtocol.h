/*
 * TracerProtocol.h: the raw byte stream that the Valgrind tool `ctrace` (app/tracer/) writes and
 * `concorde trace` reads. This header is plain C (C99 and C++20). The tool cannot use libc, so this
 * header holds only constants, layouts and small inline decoders, and includes only <stdint.h>.
 *
 * ---------------------------------------------------------------------------------------------
 * 1. Overview
 * ---------------------------------------------------------------------------------------------
 * All integers are little-endian and unaligned. The stream is
 *
 *     StreamHeader  Frame*  [END frame]
 *
 * A stream that stops without an END frame was cut short (the traced program exec'd, crashed
 * in a way Valgrind could not report, or the tool was killed). Readers should keep what they have
 * and report the truncation.
 *
 * StreamHeader (CTP_STREAM_HEADER_FIXED bytes, then the command line):
 *     off  size  field
 *       0     8  magic            "CTRACE\r\n" (CTP_MAGIC)
 *       8     4  version          CTP_VERSION
 *      12     4  header_bytes     total header size, including the command line
 *      16     4  isa              CTP_ISA_AMD64
 *      20     4  pid              process id of the traced program
 *      24     8  skip             --ctrace-skip    (instructions before the first region)
 *      32     8  warmup           --ctrace-warmup  (warm-up instructions per region)
 *      40     8  length           --ctrace-length  (measured instructions per region; 0 = to the end)
 *      48     8  interval         distance between the measured starts of consecutive regions
 *      56     4  regions          --ctrace-regions (planned number of regions)
 *      60     4  cmdline_bytes    length of the command line that follows
 *      64     n  cmdline          argv of the traced program, each element NUL-terminated
 * Readers must skip to header_bytes (later versions may add fields before the command line only
 * by bumping the version).
 *
 * Frame:
 *     off  size  field
 *       0     4  type             CTP_FRAME_*
 *       4     4  payload_bytes
 *       8     n  payload
 * Readers must skip frames of unknown type.
 *
 * ---------------------------------------------------------------------------------------------
 * 2. Static instructions (CTP_FRAME_STATIC)
 * ---------------------------------------------------------------------------------------------
 * Everything that does not change between executions of an instruction is sent once, as a static
 * instruction descriptor with a 32-bit id; instruction records then carry only the id and the
 * memory addresses. A descriptor is always sent before the first record that uses its id. Ids are
 * dense, start at 0 and are never reused; the same (pc, content) normally keeps one id, but a
 * reader must accept several ids for one pc (re-translated or self-modifying code).
 *
 * Payload: one or more descriptors back to back until payload_bytes is used up. Descriptor:
 *     off  size  field
 *       0     4  id
 *       4     1  size             instruction length in bytes
 *       5     1  class            CTP_CLASS_*  (== concorde::InstrClass)
 *       6     1  branch_kind      CTP_BRANCH_* (== concorde::BranchKind)
 *       7     1  flags            CTP_SF_*
 *       8     8  pc
 *      16     8  target           static branch target; 0 when the target is dynamic or unknown
 *      24     1  nsrc             registers read (CTP_REG_*, == concorde::ArchReg)
 *      25     1  ndst             registers written
 *      26     1  nmem             memory access slots (at most CTP_MAX_MEM_SLOTS)
 *      27     1  reserved (0)
 *      28     4  reserved (0)
 *      32  nsrc  source registers, one byte each
 *       .  ndst  destination registers, one byte each
 *       .  4*nmem memory slots: u8 kind (CTP_MEM_LOAD / CTP_MEM_STORE), u8 slot flags (CTP_MF_*),
 *                 u16 size in bytes
 * Descriptor size: CTP_STATIC_FIXED + nsrc + ndst + 4 * nmem.
 *
 * ---------------------------------------------------------------------------------------------
 * 3. Instruction records (CTP_FRAME_RECORDS)
 * ---------------------------------------------------------------------------------------------
 * Payload:
 *     off  size  field
 *       0     8  first_index      index in the program's dynamic instruction stream of the first
 *                                 record (counting every executed instruction from 0, all threads)
 *       8     4  count            number of records
 *      12     4  reserved (0)
 *      16     .  records
 * Record: u32 id, then one u64 address per memory slot of that id's descriptor, in slot order.
 * An address of 0 means the access did not happen on this execution (a guarded load/store whose
 * guard was false, or an instruction that left early, like `rep movs` with rcx == 0).
 * Records are the executed instructions in execution order: consecutive records of one thread
 * are consecutive instructions of that thread.
 *
 * ---------------------------------------------------------------------------------------------
 * 4. Regions
 * ---------------------------------------------------------------------------------------------
 * CTP_FRAME_REGION_BEGIN payload (CTP_REGION_BEGIN_BYTES):
 *       0     4  region           region number, from 0
 *       4     4  reserved (0)
 *       8     8  warmup_start     index of the first (warm-up) record that follows
 *      16     8  measured_start   index of the first measured instruction (Region::programStart)
 *      24     8  warmup           warm-up records that follow (measured_start - warmup_start)
 *      32     8  length           planned measured records (0 = until the program ends)
 * CTP_FRAME_REGION_END payload:
 *       0     4  region
 *       4     4  flags            CTP_RF_*
 *       8     8  warmup_records   warm-up records actually written
 *      16     8  measured_records measured records actually written
 *      24     8  next_pc          pc of the instruction the thread executes after the region's last
 *                                 record (0 if unknown, e.g. the program exited)
 *      32     4  bbv_entries
 *      36     4  reserved (0)
 *      40  16*n  basic-block vector of the measured part: u64 superblock start pc, u64 instructions
 *                executed in that superblock, sorted by pc. Superblocks are Valgrind's (single-entry,
 *                multiple-exit code, up to ~50 instructions). The counts are exact except for the
 *                one superblock execution that straddles each boundary of the measured part, which
 *                is attributed to the side where it started executing.
 * Every record between REGION_BEGIN and REGION_END belongs to that region: the first `warmup`
 * of them are warm-up records, the rest are measured. Regions never overlap: when the requested
 * warm-up would reach back into the previous region (or before the program start) it is clipped,
 * and REGION_BEGIN states the warm-up actually provided.
 *
 * ---------------------------------------------------------------------------------------------
 * 5. Other frames
 * ---------------------------------------------------------------------------------------------
 * CTP_FRAME_THREAD (8 bytes): u32 tid, u32 reserved. The following records belong to Valgrind
 *   thread `tid` (the main thread is 1 and is current at the start of the stream). Valgrind runs
 *   one thread at a time, so a multi-threaded program's records interleave at scheduling points.
 * CTP_FRAME_DISCONTINUITY (16 bytes): u32 reason (CTP_DISC_*), u32 signal number, u64 resume_pc.
 *   The current thread's flow is interrupted (signal handler entry); resume_pc is the pc that the
 *   thread would have executed next, i.e. the successor of the record before this frame.
 * CTP_FRAME_END (CTP_END_BYTES): u64 total_instructions (every instruction the program executed,
 *   traced or not), i32 exit_code, u32 regions_completed (including a truncated last region),
 *   u32 flags (0), u32 reserved.
 *
 * ---------------------------------------------------------------------------------------------
 * 6. Reconstructing branch outcomes (the reader's job)
 * ---------------------------------------------------------------------------------------------
 * The tool does not write taken/not-taken; the reader derives it, per thread, from the pc of the
 * next record of the same thread (or from REGION_END.next_pc / DISCONTINUITY.resume_pc):
 *   - DirectConditional: taken = (next_pc != pc + size); target = descriptor target (the would-be
 *     target when not taken).
 *   - DirectUnconditional, Indirect, Call, Return: always taken. target = descriptor target when
 *     CTP_SF_TARGET_DYNAMIC is clear, otherwise next_pc.
 *
 * ---------------------------------------------------------------------------------------------
 * 7. How the tool derives the static fields (approximations)
 * ---------------------------------------------------------------------------------------------
 *   - Registers come from each instruction's own, unoptimised VEX IR: Get/Put (and GetI/PutI,
 *     dirty-helper guest state effects) at amd64 guest-state offsets. The four CC_* words, DFLAG,
 *     IDFLAG and ACFLAG are one FLAGS register; RIP is never listed; YMM0-15 are vector registers
 *     (an xmm write is a write of the whole ymm register); FTOP/FPREG/FPTAG/FC3210 are one X87
 *     register; SSEROUND and FPROUND are FP_CONTROL; FS/GS bases are SEGMENT. Not sources: bytes
 *     the instruction itself wrote first, the operands of zero/ones idioms (xor r,r; sub r,r;
 *     pxor/xorps x,x; pcmpeq x,x), and FLAGS for shifts and rotates (shld/shrd too) by a nonzero
 *     immediate and for inc/dec, which write the flags without reading them (since
 *     CTP_ANALYSIS_VERSION 2; shifts by CL, adc/sbb, rcl/rcr and flag readers keep FLAGS). A
 *     multi-byte nop has no sources. `syscall` lists the Linux
 *     syscall ABI registers (rax, rdi, rsi, rdx, r10, r8, r9 read; rax, rcx, r11 written). Lists
 *     are sorted by register number and complete (TraceRecord keeps the first 8 / 4).
 *   - Memory slots: one per IR load/store (Load, LoadG, Store, StoreG; CAS = load + store; dirty
 *     helpers with a memory effect, e.g. fxsave/xsave/fxrstor, give one slot of the helper's full
 *     declared size). A wide access is one slot (a 32-byte vmovdqu is one 32-byte load). At most
 *     CTP_MAX_MEM_SLOTS slots per instruction (further accesses are dropped, CTP_SF_MEM_TRUNCATED).
 *   - Class: Branch for any control transfer (x86 branches, calls, returns; not rep loops);
 *     Fence for mfence/lfence/sfence, locked
 *     read-modify-writes (CAS; also CTP_SF_ATOMIC), cpuid, syscall, int3/int; Nop when the
 *     instruction changes no register and touches no memory; otherwise the costliest operation
 *     found: IntDiv > FpDiv (scalar or packed div/sqrt, x87 transcendentals) > FpMul (scalar mul,
 *     FMA) > FpAdd (other scalar FP, conversions, x87) > Simd (any other 128/256-bit vector
 *     operation) > IntMul > IntAlu. An instruction whose only work is moving data to or from
 *     memory (address arithmetic, stack-pointer adjustment and width/lane moves do not count as
 *     work; writing the flags does) is Load or Store (Store when it stores).
 *   - `rep`-prefixed string instructions are executed (and recorded) once per iteration, as
 *     Valgrind does; they are not branches and carry CTP_SF_REP.
 */
#ifndef CONCORDE_TRACE_TRACER_PROTOCOL_H
#define CONCORDE_TRACE_TRACER_PROTOCOL_H

#include <stdint.h>

#define CTP_MAGIC "CTRACE\r\n"
#define CTP_MAGIC_BYTES 8
#define CTP_VERSION 1u
/* What the tool's analysis says about an instruction (section 2), not the byte layout: bumped when
   a new tool would describe the same instruction differently, so traces made before can be told
   apart (`concorde trace` stores it as the property "tracer_analysis"; traces without it are 1).
   2: FLAGS is no longer a source of shifts/rotates by a nonzero immediate and of inc/dec. */
#define CTP_ANALYSIS_VERSION 2u
#define CTP_ISA_AMD64 1u
#define CTP_STREAM_HEADER_FIXED 64u

/* Frame types */
#define CTP_FRAME_HEADER_BYTES 8u
#define CTP_FRAME_STATIC 1u
#define CTP_FRAME_RECORDS 2u
#define CTP_FRAME_REGION_BEGIN 3u
#define CTP_FRAME_REGION_END 4u
#define CTP_FRAME_THREAD 5u
#define CTP_FRAME_DISCONTINUITY 6u
#define CTP_FRAME_END 7u

#define CTP_STATIC_FIXED 32u
#define CTP_RECORDS_PREFIX 16u
#define CTP_REGION_BEGIN_BYTES 40u
#define CTP_REGION_END_FIXED 40u
#define CTP_BBV_ENTRY_BYTES 16u
#define CTP_THREAD_BYTES 8u
#define CTP_DISCONTINUITY_BYTES 16u
#define CTP_END_BYTES 24u
#define CTP_MAX_MEM_SLOTS 32u

/* Instruction classes: equal to concorde::InstrClass */
#define CTP_CLASS_INT_ALU 0u
#define CTP_CLASS_INT_MUL 1u
#define CTP_CLASS_INT_DIV 2u
#define CTP_CLASS_FP_ADD 3u
#define CTP_CLASS_FP_MUL 4u
#define CTP_CLASS_FP_DIV 5u
#define CTP_CLASS_SIMD 6u
#define CTP_CLASS_LOAD 7u
#define CTP_CLASS_STORE 8u
#define CTP_CLASS_BRANCH 9u
#define CTP_CLASS_FENCE 10u
#define CTP_CLASS_NOP 11u
#define CTP_CLASS_COUNT 12u

/* Branch kinds: equal to concorde::BranchKind */
#define CTP_BRANCH_NONE 0u
#define CTP_BRANCH_DIRECT_UNCONDITIONAL 1u
#define CTP_BRANCH_DIRECT_CONDITIONAL 2u
#define CTP_BRANCH_INDIRECT 3u
#define CTP_BRANCH_CALL 4u
#define CTP_BRANCH_RETURN 5u
#define CTP_BRANCH_COUNT 6u

/* Architectural registers: equal to concorde::ArchReg */
#define CTP_REG_NONE 0u
#define CTP_REG_RAX 1u /* rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8..r15 = 1..16 */
#define CTP_REG_RSP 5u
#define CTP_REG_R15 16u
#define CTP_REG_FLAGS 17u
#define CTP_REG_RIP 18u /* never emitted by the tool */
#define CTP_REG_VECTOR0 19u /* ymm0..ymm15 = 19..34 */
#define CTP_REG_VECTOR15 34u
#define CTP_REG_X87 35u
#define CTP_REG_FP_CONTROL 36u
#define CTP_REG_SEGMENT 37u
#define CTP_REG_COUNT 38u

/* Static descriptor flags */
#define CTP_SF_TARGET_DYNAMIC 0x01u /* branch target is the next executed pc (indirect, ret) */
#define CTP_SF_REP 0x02u            /* rep-prefixed string op: one record per iteration */
#define CTP_SF_ATOMIC 0x04u         /* locked read-modify-write (xchg, lock add, cmpxchg...) */
#define CTP_SF_MEM_TRUNCATED 0x08u  /* more than CTP_MAX_MEM_SLOTS accesses; extra ones dropped */
#define CTP_SF_SYSCALL 0x10u        /* syscall instruction */

/* Memory slot kinds and flags */
#define CTP_MEM_LOAD 0u
#define CTP_MEM_STORE 1u
#define CTP_MF_GUARDED 0x01u /* conditional access: address 0 when not performed */
#define CTP_MF_HELPER 0x02u  /* approximated from a dirty helper's declared memory effect */

/* Region end flags */
#define CTP_RF_TRUNCATED 0x01u /* the program ended before the region was complete */

/* Discontinuity reasons */
#define CTP_DISC_SIGNAL 1u

static inline uint16_t ctp_get_u16(const unsigned char* p) {
    return (uint16_t)(p[0] | ((uint16_t)p[1] << 8));
}
static inline uint32_t ctp_get_u32(const unsigned char* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}
static inline uint64_t ctp_get_u64(const unsigned char* p) {
    return (uint64_t)ctp_get_u32(p) | ((uint64_t)ctp_get_u32(p + 4) << 32);
}
/* Size in bytes of a static descriptor whose fixed part starts at p. */
static inline uint32_t ctp_static_size(const unsigned char* p) {
    return CTP_STATIC_FIXED + p[24] + p[25] + 4u * p[26];
}

#ifdef __cplusplus
#include "InstrClass.h"
#include "ArchReg.h"
static_assert(CTP_CLASS_INT_ALU == static_cast<unsigned>(concorde::InstrClass::IntAlu));
static_assert(CTP_CLASS_INT_MUL == static_cast<unsigned>(concorde::InstrClass::IntMul));
static_assert(CTP_CLASS_INT_DIV == static_cast<unsigned>(concorde::InstrClass::IntDiv));
static_assert(CTP_CLASS_FP_ADD == static_cast<unsigned>(concorde::InstrClass::FpAdd));
static_assert(CTP_CLASS_FP_MUL == static_cast<unsigned>(concorde::InstrClass::FpMul));
static_assert(CTP_CLASS_FP_DIV == static_cast<unsigned>(concorde::InstrClass::FpDiv));
static_assert(CTP_CLASS_SIMD == static_cast<unsigned>(concorde::InstrClass::Simd));
static_assert(CTP_CLASS_LOAD == static_cast<unsigned>(concorde::InstrClass::Load));
static_assert(CTP_CLASS_STORE == static_cast<unsigned>(concorde::InstrClass::Store));
static_assert(CTP_CLASS_BRANCH == static_cast<unsigned>(concorde::InstrClass::Branch));
static_assert(CTP_CLASS_FENCE == static_cast<unsigned>(concorde::InstrClass::Fence));
static_assert(CTP_CLASS_NOP == static_cast<unsigned>(concorde::InstrClass::Nop));
static_assert(CTP_CLASS_COUNT == concorde::kInstrClassCount);
static_assert(CTP_BRANCH_NONE == static_cast<unsigned>(concorde::BranchKind::None));
static_assert(CTP_BRANCH_DIRECT_UNCONDITIONAL ==
              static_cast<unsigned>(concorde::BranchKind::DirectUnconditional));
static_assert(CTP_BRANCH_DIRECT_CONDITIONAL ==
              static_cast<unsigned>(concorde::BranchKind::DirectConditional));
static_assert(CTP_BRANCH_INDIRECT == static_cast<unsigned>(concorde::BranchKind::Indirect));
static_assert(CTP_BRANCH_CALL == static_cast<unsigned>(concorde::BranchKind::Call));
static_assert(CTP_BRANCH_RETURN == static_cast<unsigned>(concorde::BranchKind::Return));
static_assert(CTP_BRANCH_COUNT == concorde::kBranchKindCount);
static_assert(CTP_REG_NONE == concorde::ArchReg::kNone);
static_assert(CTP_REG_RAX == concorde::ArchReg::kRax);
static_assert(CTP_REG_RSP == concorde::ArchReg::kRsp);
static_assert(CTP_REG_R15 == concorde::ArchReg::kR15);
static_assert(CTP_REG_FLAGS == concorde::ArchReg::kFlags);
static_assert(CTP_REG_RIP == concorde::ArchReg::kRip);
static_assert(CTP_REG_VECTOR0 == concorde::ArchReg::kVector0);
static_assert(CTP_REG_VECTOR15 == concorde::ArchReg::kVector15);
static_assert(CTP_REG_X87 == concorde::ArchReg::kX87);
static_assert(CTP_REG_FP_CONTROL == concorde::ArchReg::kFpControl);
static_assert(CTP_REG_SEGMENT == concorde::ArchReg::kSegment);
static_assert(CTP_REG_COUNT == concorde::ArchReg::kCount);
#endif

#endif /* CONCORDE_TRACE_TRACER_PROTOCOL_H */
