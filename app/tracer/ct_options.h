/*
 * ct_options.h: ctrace's command-line options (--ctrace-*), their validation, and the resulting
 * configuration handed to the other modules.
 */
#ifndef CONCORDE_TRACER_CT_OPTIONS_H
#define CONCORDE_TRACER_CT_OPTIONS_H

#include "ct_common.h"

/* The regions to trace, in instructions of the program's dynamic instruction stream. */
typedef struct {
   ULong skip;     /* measured start of region 0 */
   ULong length;   /* measured instructions per region, 0 = until the program ends */
   ULong warmup;   /* warm-up instructions before each measured part */
   ULong regions;  /* number of regions, 0 = until the program ends */
   ULong interval; /* distance between measured starts (warmup + length when not given) */
} CtRegionSpec;

/* How blocks are translated (ct_instrument.c) */
typedef struct {
   Bool raw_ir;           /* replace VEX's front-end cleanup by a plain flattening */
   Bool reoptimize;       /* run the VEX optimiser on instrumented blocks */
   Addr dump_lo, dump_hi; /* print IR and analysis of blocks starting in [dump_lo, dump_hi) */
} CtIrOptions;

typedef struct {
   CtRegionSpec spec;
   CtIrOptions ir;
   SizeT buffer_bytes; /* record buffer size */
   Bool stats;         /* print statistics at exit */
} CtConfig;

/* Valgrind's needs_command_line_options callbacks */
Bool ct_process_cmd_line_option(const HChar* arg);
void ct_print_usage(void);
void ct_print_debug_usage(void);

/* Checks the options once they are all parsed and opens the trace output (ct_output.h); exits
   with Valgrind's bad-option message when they are unusable. */
void ct_options_finish(CtConfig* cfg);

#endif
