/*
 * ct_bbv.h: the basic-block vector of the measured part of a region: one counter per superblock
 * start address, incremented by generated code (RECORD blocks) and written in REGION_END.
 */
#ifndef CONCORDE_TRACER_CT_BBV_H
#define CONCORDE_TRACER_CT_BBV_H

#include "ct_common.h"

typedef struct {
   Addr pc;
   ULong count; /* instructions executed in this superblock (updated by generated code) */
} SBInfo;

/* The counter of the superblock starting at pc (created on first use; never moves). */
SBInfo* ct_bbv_get(Addr pc);
void ct_bbv_reset(void);
/* Number of superblocks with a non-zero count, and their (pc, count) pairs as u64, sorted by
   pc, written at p (CTP_BBV_ENTRY_BYTES each). */
UInt ct_bbv_nonzero(void);
void ct_bbv_write(UChar* p, UInt nb);

#endif
