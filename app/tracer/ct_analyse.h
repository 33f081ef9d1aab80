/*
 * ct_analyse.h: per-instruction static analysis of a block's unoptimised IR (registers, memory
 * slots, class, branch kind) and the static descriptor built from it.
 */
#ifndef CONCORDE_TRACER_CT_ANALYSE_H
#define CONCORDE_TRACER_CT_ANALYSE_H

#include "ct_common.h"

#define MAX_INSNS 512

/* One guest instruction of the block being translated */
typedef struct {
   Addr pc;
   UInt len;
   Int first_stmt, end_stmt;
   ULong rd, wr;
   UInt nslots;
   UChar slot_kind[CTP_MAX_MEM_SLOTS];
   UChar slot_flags[CTP_MAX_MEM_SLOTS];
   UShort slot_size[CTP_MAX_MEM_SLOTS];
   Int slot_stmt[CTP_MAX_MEM_SLOTS];      /* statement performing the access */
   IRExpr* slot_addr[CTP_MAX_MEM_SLOTS];  /* address atom */
   IRExpr* slot_guard[CTP_MAX_MEM_SLOTS]; /* I1 atom, NULL = unconditional */
   Bool mem_truncated;
   Int work_rank;
   Bool has_mbe, has_cas, has_dirty, has_cpuid, has_exit;
   Bool exit_to_self;
   Bool is_rep; /* rep-prefixed string instruction: loops onto itself */
   Int n_boring_exits;
   Addr boring_exit_dst;
   /* results */
   UChar cls, bkind, sflags;
   Addr target;
   UInt id;      /* set by the instrumentation */
   UInt rec_off; /* offset of this instruction's record in the block's record area (likewise) */
} Insn;

/* Builds the guest-state -> register map; before the first block. */
void ct_analyse_init(void);
/* Analyses every instruction of the flat block sb; *insns points to the results (valid until the
   next call). Returns the number of instructions. */
Int ct_analyse_block(IRSB* sb, Insn** insns);
/* Writes the static descriptor of an analysed instruction at d (id field 0); returns its size. */
UInt ct_build_descriptor(const Insn* in, UChar* d);
/* --ctrace-dump-ir: one line per instruction */
void ct_dump_insn(const Insn* in);

#endif
