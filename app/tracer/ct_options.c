/*
 * ct_options.c: ctrace's command-line options. Valgrind hands each --ctrace-* argument to
 * ct_process_cmd_line_option; ct_options_finish (from post_clo_init) checks the combination,
 * opens the output and gives the other modules their configuration.
 */

#include "ct_common.h"
#include "pub_tool_options.h"
#include "pub_tool_libcproc.h"

#include "ct_options.h"
#include "ct_output.h"

/* Options as given (the Long ranges are the ones Valgrind's VG_BINT_CLO checks) */
static Long clo_fd = -1;
static const HChar* clo_out = NULL;
static Long clo_skip = 0;
static Long clo_length = 0; /* 0 = until the program ends */
static Long clo_warmup = 0;
static Long clo_regions = 1;
static Long clo_interval = 0; /* 0 = warmup + length (regions back to back) */
static Long clo_buffer_mb = 8;
static Bool clo_reoptimize = True;
static Bool clo_raw_ir = True;
static const HChar* clo_dump_ir = NULL; /* "lo-hi" hex guest address range */
static Bool clo_stats = False;

Bool ct_process_cmd_line_option(const HChar* arg) {
   if VG_INT_CLO(arg, "--ctrace-fd", clo_fd) {}
   else if VG_STR_CLO(arg, "--ctrace-out", clo_out) {}
   else if VG_BINT_CLO(arg, "--ctrace-skip", clo_skip, 0, 0x7fffffffffffffffLL) {}
   else if VG_BINT_CLO(arg, "--ctrace-length", clo_length, 0, 0x7fffffffffffffffLL) {}
   else if VG_BINT_CLO(arg, "--ctrace-warmup", clo_warmup, 0, 0x7fffffffffffffffLL) {}
   else if VG_BINT_CLO(arg, "--ctrace-regions", clo_regions, 0, 0x7fffffffLL) {}
   else if VG_BINT_CLO(arg, "--ctrace-interval", clo_interval, 0, 0x7fffffffffffffffLL) {}
   else if VG_BINT_CLO(arg, "--ctrace-buffer-mb", clo_buffer_mb, 1, 1024) {}
   else if VG_BOOL_CLO(arg, "--ctrace-reoptimize", clo_reoptimize) {}
   else if VG_BOOL_CLO(arg, "--ctrace-stats", clo_stats) {}
   else if VG_BOOL_CLO(arg, "--ctrace-raw-ir", clo_raw_ir) {}
   else if VG_STR_CLO(arg, "--ctrace-dump-ir", clo_dump_ir) {}
   else return False;
   return True;
}

void ct_print_usage(void) {
   VG_(printf)(
      "    --ctrace-fd=N             write the trace to file descriptor N (e.g. a pipe)\n"
      "    --ctrace-out=PATH         write the trace to file PATH\n"
      "    --ctrace-skip=N           instructions before the first region's measured part [0]\n"
      "    --ctrace-length=M         measured instructions per region, 0 = to the end [0]\n"
      "    --ctrace-warmup=W         warm-up instructions before each region [0]\n"
      "    --ctrace-regions=K        number of regions, 0 = unlimited [1]\n"
      "    --ctrace-interval=I       distance between region starts [warmup+length]\n"
      "    --ctrace-buffer-mb=N      output buffer size in MiB [8]\n");
}

void ct_print_debug_usage(void) {
   VG_(printf)(
      "    --ctrace-dump-ir=LO-HI    print IR and static info of blocks starting in [LO,HI)\n"
      "    --ctrace-reoptimize=no    do not re-optimise instrumented IR (slow; debugging)\n"
      "    --ctrace-raw-ir=no        let VEX pre-clean blocks (register reads are then\n"
      "                              reconstructed heuristically; debugging)\n"
      "    --ctrace-stats=yes        print statistics at exit\n");
}

/* Option errors found after option parsing: report and stop (VG_(fmsg_bad_option) only stops
   Valgrind while options are being parsed). */
#define BAD_OPTION(opt, ...)                       \
   do {                                            \
      VG_(fmsg_bad_option)(opt, __VA_ARGS__);      \
      VG_(exit)(1);                                \
   } while (0)

void ct_options_finish(CtConfig* cfg) {
   /* The output is opened here, between the checks, so that the checks report in a fixed order. */
   if (clo_fd >= 0 && clo_out != NULL)
      BAD_OPTION("--ctrace-fd / --ctrace-out", "give only one of them\n");
   if (clo_out != NULL) {
      if (!ct_out_open_file(clo_out)) BAD_OPTION("--ctrace-out", "cannot create '%s'\n", clo_out);
   } else if (clo_fd >= 0) {
      if (clo_fd > 0x7fffffff || !ct_out_use_fd((Int)clo_fd))
         BAD_OPTION("--ctrace-fd", "descriptor %lld is not open\n", clo_fd);
   } else {
      BAD_OPTION("--ctrace-fd / --ctrace-out", "one of them is required\n");
   }
   if (clo_regions != 1 && clo_length == 0)
      BAD_OPTION("--ctrace-regions", "several or unlimited regions need --ctrace-length\n");
   if (clo_interval > 0 && clo_interval < clo_length)
      BAD_OPTION("--ctrace-interval",
                 "must be at least --ctrace-length (measured parts cannot overlap)\n");

   cfg->spec.skip = (ULong)clo_skip;
   cfg->spec.length = (ULong)clo_length;
   cfg->spec.warmup = (ULong)clo_warmup;
   cfg->spec.regions = (ULong)clo_regions;
   cfg->spec.interval =
      clo_interval > 0 ? (ULong)clo_interval : (ULong)(clo_warmup + clo_length);
   cfg->buffer_bytes = (SizeT)clo_buffer_mb << 20;
   cfg->stats = clo_stats;
   cfg->ir.raw_ir = clo_raw_ir;
   cfg->ir.reoptimize = clo_reoptimize;
   cfg->ir.dump_lo = 1; /* empty range */
   cfg->ir.dump_hi = 0;
   if (clo_dump_ir) {
      HChar* end;
      cfg->ir.dump_lo = VG_(strtoull16)(clo_dump_ir, &end);
      if (*end == '-') cfg->ir.dump_hi = VG_(strtoull16)(end + 1, &end);
      else cfg->ir.dump_hi = cfg->ir.dump_lo + 1;
   }
}
