/*
 * ct_instrument.h: the IR pipeline of every translated block (raw IR in, analysis,
 * FAST-FORWARD or RECORD instrumentation, VEX optimiser out).
 */
#ifndef CONCORDE_TRACER_CT_INSTRUMENT_H
#define CONCORDE_TRACER_CT_INSTRUMENT_H

#include "ct_common.h"
#include "ct_options.h"

/* The mode blocks are instrumented for */
#define MODE_FF 0
#define MODE_RECORD 1

/* What generated code reads, writes and calls. The region state machine (ct_main.c) and the
   output buffer (ct_output.c) own these; their addresses are baked into generated code. */
typedef struct {
   ULong* icount;     /* instructions executed so far (exact at block boundaries) */
   ULong* next_event; /* instruction index of the next region event */
   ULong* mode;       /* MODE_FF or MODE_RECORD */
   UChar** buf_ptr;   /* record buffer write position */
   /* at the start of a RECORD block when *icount >= *next_event (argument: the block's pc) */
   void (*event_helper)(Addr block_pc);
   /* at the start of a RECORD block whose records could overflow the buffer */
   void (*flush_helper)(void);
   /* at the start of a FAST-FORWARD block that could reach *next_event */
   void (*ff_trigger)(void);
} CtRuntime;

/* Sets up VEX for raw IR (no pre-instrumentation optimisation, no superblock chasing); before the
   first block is translated. */
void ct_instrument_init(const CtIrOptions* opt, const CtRuntime* rt);

/* Valgrind's instrument callback */
IRSB* ct_instrument(VgCallbackClosure* closure, IRSB* sbIn, const VexGuestLayout* layout,
                    const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy);

typedef struct {
   ULong ff, record; /* translations made in each mode */
} CtInstrumentStats;
CtInstrumentStats ct_instrument_stats(void);

#endif
