/*
 * ctrace: a Valgrind tool that writes a per-instruction trace of an amd64 program in the raw
 * stream format of core/trace/TracerProtocol.h, for `concorde trace`. See app/tracer/README.md.
 *
 * How it works:
 *
 *  - Exact per-instruction IR. VEX normally cleans every block before a tool sees it (redundant
 *    GET removal, copy and constant propagation) and then optimises it (redundant PUT removal,
 *    CSE...), which hides which registers each instruction reads and writes. The tool wraps the
 *    front end's cleanup (link option --wrap=do_minimal_initial_iropt_BB, see ct_instrument.c)
 *    and sets the pre-instrumentation optimisation level to 0, so it sees each instruction's own
 *    GETs and PUTs. It derives the static description of every instruction from that IR, adds its
 *    instrumentation, and then runs the normal VEX optimiser (do_iropt_BB at the user's level)
 *    over the instrumented block itself, so the generated code is as good as any other tool's.
 *    Superblock chasing is disabled: with it VEX may merge a small conditionally executed block
 *    into its predecessor, leaving IMarks of instructions that do not execute.
 *  - Two instrumentation modes. FAST-FORWARD blocks only add the number of instructions executed
 *    to a counter (one add per block exit) and check, once per block, whether the next region
 *    starts within the block. RECORD blocks write, for each executed instruction, its static id
 *    and its memory addresses into a large buffer with plain IR stores at offsets fixed at
 *    translation time (no helper call per instruction or per access). The stores of a block
 *    segment (the instructions up to a side exit) are issued together just before the exit, with
 *    the buffer pointer, instruction counter and basic-block-vector counter updates. One guarded
 *    helper call per block flushes the buffer when it could overflow, one handles region
 *    boundaries; both almost never fire.
 *  - Every block first checks that it was instrumented for the current mode; if not it leaves
 *    through an Ijk_InvalICache exit that discards it, and Valgrind re-translates it in the
 *    current mode. A mode switch therefore costs one re-translation of each block executed.
 *  - Region boundaries are exact to the instruction: the region helper, called at the start of
 *    the first block after the boundary, finds the boundary inside the buffer by walking the
 *    records (a record's size follows from its static id), cuts there, and keeps or drops the
 *    records after it.
 *
 * Modules (see README.md):
 *   ct_main.c        tool registration, the fast-forward/region state machine, thread, signal,
 *                    fork and exec callbacks
 *   ct_options.c     command-line options and their validation
 *   ct_output.c      the byte stream: output descriptor, record buffer, frames, static descriptors
 *   ct_instrument.c  raw IR, FAST-FORWARD / RECORD instrumentation, re-optimisation
 *   ct_analyse.c     per-instruction analysis of unoptimised IR (registers, memory, class, branch)
 *   ct_bbv.c         superblock counters for the basic-block vector
 */

#include "ct_common.h"
#include "pub_tool_machine.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_vkiscnums.h"

#include "ct_options.h"
#include "ct_output.h"
#include "ct_instrument.h"
#include "ct_bbv.h"

static CtConfig cfg; /* from the options, set in post_clo_init */

/* ---------------------------------------------------------------------------------------------
   Run-time state read and written by generated code (ct_instrument.c gets their addresses). */
static ULong ct_icount = 0;     /* instructions executed so far (exact at block boundaries) */
static ULong ct_next_event = 0; /* instruction index of the next region event */
static ULong ct_mode = MODE_FF;

/* Tracing state machine */
typedef enum { ST_FF, ST_PRE, ST_WARMUP, ST_MEASURED, ST_DONE } State;
static State state = ST_FF;
static ULong region_k = 0;               /* current / next region number */
static ULong reg_a, reg_b, reg_c;        /* warm-up start, measured start, end of region_k */
static ULong prev_region_end = 0;
static ULong regions_completed = 0;
static Bool in_child = False;             /* forked child: the stream is the parent's */
static ThreadId cur_tid = 1;
static ThreadId stream_tid = 1; /* thread the reader currently attributes records to */

/* Called by generated code when a RECORD block might overflow the buffer. */
static VG_REGPARM(0) void ct_flush_helper(void) {
   if (!ct_out_batch_is_open()) return;
   if (state == ST_PRE) {
      /* Everything recorded so far lies before the region start: drop it. */
      ct_out_discard_batch();
      ct_out_flush();
      ct_out_open_batch(ct_icount);
      return;
   }
   ct_out_close_batch(ct_icount);
   ct_out_flush();
   ct_out_open_batch(ct_icount);
}

/* ---------------------------------------------------------------------------------------------
   Regions and events */

static void compute_region(ULong k) {
   const CtRegionSpec* s = &cfg.spec;
   reg_b = s->skip + k * s->interval;
   reg_a = reg_b >= s->warmup ? reg_b - s->warmup : 0;
   if (reg_a < prev_region_end) reg_a = prev_region_end;
   if (reg_a > reg_b) reg_a = reg_b; /* cannot happen unless regions overlap completely */
   reg_c = s->length > 0 ? reg_b + s->length : ~0ULL;
}

static void emit_thread_if_needed(void) {
   if (cur_tid == stream_tid) return;
   UChar p[CTP_THREAD_BYTES];
   put_u32(p, cur_tid);
   put_u32(p + 4, 0);
   ct_out_emit_frame(CTP_FRAME_THREAD, p, sizeof p);
   stream_tid = cur_tid;
}

static void emit_region_begin(void) {
   emit_thread_if_needed();
   UChar p[CTP_REGION_BEGIN_BYTES];
   VG_(memset)(p, 0, sizeof p);
   put_u32(p, (UInt)region_k);
   put_u64(p + 8, reg_a);
   put_u64(p + 16, reg_b);
   put_u64(p + 24, reg_b - reg_a);
   put_u64(p + 32, cfg.spec.length);
   ct_out_emit_frame(CTP_FRAME_REGION_BEGIN, p, sizeof p);
}

/* Emits REGION_END for region_k; icount_end = program index just past the last record. */
static void emit_region_end(ULong icount_end, Addr next_pc, UInt flags) {
   ULong warm = (icount_end < reg_b ? icount_end : reg_b) - reg_a;
   ULong meas = icount_end > reg_b ? icount_end - reg_b : 0;
   UInt nb = ct_bbv_nonzero();
   SizeT len = CTP_REGION_END_FIXED + (SizeT)nb * CTP_BBV_ENTRY_BYTES;
   UChar* f = VG_(malloc)("ct.regend", CTP_FRAME_HEADER_BYTES + len);
   UChar* p = f + CTP_FRAME_HEADER_BYTES;
   put_u32(f, CTP_FRAME_REGION_END);
   put_u32(f + 4, (UInt)len);
   VG_(memset)(p, 0, CTP_REGION_END_FIXED);
   put_u32(p, (UInt)region_k);
   put_u32(p + 4, flags);
   put_u64(p + 8, warm);
   put_u64(p + 16, meas);
   put_u64(p + 24, next_pc);
   put_u32(p + 32, nb);
   ct_bbv_write(p + CTP_REGION_END_FIXED, nb);
   ct_out_append_frame(f, len);
   VG_(free)(f);
   ct_bbv_reset();
   regions_completed++;
}

static void switch_to_ff(void) {
   state = ST_FF;
   ct_mode = MODE_FF;
   ct_next_event = reg_a;
}

static void finish_tracing(void) {
   state = ST_DONE;
   ct_mode = MODE_FF;
   ct_next_event = ~0ULL;
}

/* Moves to region k after region k-1 ended at `end`; returns True when region k starts right
   there (the caller keeps recording). */
static Bool advance_region(ULong end) {
   prev_region_end = end;
   region_k++;
   if (cfg.spec.regions > 0 && region_k >= cfg.spec.regions) {
      finish_tracing();
      return False;
   }
   compute_region(region_k);
   if (reg_a == end) {
      emit_region_begin();
      state = ST_WARMUP;
      ct_next_event = reg_b;
      return True;
   }
   switch_to_ff();
   return False;
}

/* Handles every boundary at or before ct_icount. next_pc_hint is the pc the current thread
   executes next (used when a region ends exactly at ct_icount). */
static void process_events(Addr next_pc_hint) {
   while ((state == ST_PRE || state == ST_WARMUP || state == ST_MEASURED) &&
          ct_icount >= ct_next_event) {
      ULong e = ct_next_event;
      if (state == ST_WARMUP) {
         /* The reader knows the warm-up length from REGION_BEGIN: nothing to write. */
         ct_bbv_reset();
         state = ST_MEASURED;
         ct_next_event = reg_c;
         continue;
      }
      /* The records from e on are set aside while the batch before them is closed or dropped
         and region frames are added. */
      UChar* pos = ct_out_cut(e);
      ULong tail_count = ct_icount - e;
      Bool keep_tail;
      if (state == ST_PRE) {
         ct_out_discard_batch();
         emit_region_begin();
         state = ST_WARMUP;
         ct_next_event = reg_b;
         keep_tail = True;
      } else { /* ST_MEASURED: region ends at e */
         ct_out_close_batch_at(pos, e);
         Addr next_pc = tail_count > 0 ? ct_out_static_pc(ct_out_cut_first_id()) : next_pc_hint;
         emit_region_end(e, next_pc, 0);
         keep_tail = advance_region(e);
         if (!keep_tail && state == ST_FF && reg_a <= ct_icount) {
            /* The next region's warm-up starts inside the records already made: keep recording
               and cut there. */
            state = ST_PRE;
            ct_mode = MODE_RECORD;
            ct_next_event = reg_a;
            keep_tail = True;
         }
      }
      if (keep_tail) ct_out_restore(e);
      else ct_out_flush();
   }
}

/* Called by generated code at the start of a RECORD block when ct_icount >= ct_next_event. */
static VG_REGPARM(0) void ct_event_helper(Addr block_pc) { process_events(block_pc); }

/* Called by generated code at the start of a FAST-FORWARD block that could reach the next
   region start; starts recording (the records before the start are discarded later). */
static VG_REGPARM(0) void ct_ff_trigger(void) {
   if (state != ST_FF) return;
   state = ST_PRE;
   ct_mode = MODE_RECORD;
   ct_next_event = reg_a;
   ct_out_open_batch(ct_icount);
}

/* ---------------------------------------------------------------------------------------------
   Callbacks: threads, signals, fork, exec */

/* Makes `tid` the thread that following records belong to. */
static void switch_thread(ThreadId tid) {
   if (tid == cur_tid) return;
   if (state == ST_PRE || state == ST_WARMUP || state == ST_MEASURED) {
      /* boundaries reached by the previous thread are handled first */
      process_events(VG_(get_IP)(cur_tid));
      if (state == ST_PRE) {
         /* all records so far precede the region start */
         ct_out_discard_batch();
         ct_out_open_batch(ct_icount);
      } else if (state == ST_WARMUP || state == ST_MEASURED) {
         ct_out_close_batch(ct_icount);
         cur_tid = tid;
         emit_thread_if_needed();
         ct_out_open_batch(ct_icount);
      }
   }
   /* Outside regions the THREAD frame is emitted when the next region begins. */
   cur_tid = tid;
}

static void ct_start_client_code(ThreadId tid, ULong blocks_done) { switch_thread(tid); }

static void ct_pre_deliver_signal(ThreadId tid, Int sigNo, Bool alt_stack) {
   /* The signal may be delivered to a thread other than the one that ran last. */
   switch_thread(tid);
   if (!(state == ST_PRE || state == ST_WARMUP || state == ST_MEASURED)) return;
   Addr ip = VG_(get_IP)(tid);
   process_events(ip);
   if (state == ST_WARMUP || state == ST_MEASURED) {
      UChar p[CTP_DISCONTINUITY_BYTES];
      ct_out_close_batch(ct_icount);
      put_u32(p, CTP_DISC_SIGNAL);
      put_u32(p + 4, (UInt)sigNo);
      put_u64(p + 8, ip);
      ct_out_emit_frame(CTP_FRAME_DISCONTINUITY, p, sizeof p);
      ct_out_open_batch(ct_icount);
   }
}

static void ct_atfork_child(ThreadId tid) {
   /* The child must not write into the parent's stream. */
   in_child = True;
   finish_tracing();
   ct_out_abandon();
}

static void ct_pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs) {
   if (syscallno == __NR_execve || syscallno == __NR_execveat) {
      /* Keep what has been traced if the exec succeeds (the stream then ends without END). */
      if (ct_out_batch_is_open() && state != ST_PRE) {
         ct_out_close_batch(ct_icount);
         ct_out_flush();
         ct_out_open_batch(ct_icount);
      } else if (!ct_out_batch_is_open()) {
         ct_out_flush();
      }
   }
}

static void ct_post_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs, SysRes res) {}

/* ---------------------------------------------------------------------------------------------
   Init, fini */

static void ct_post_clo_init(void) {
   ct_options_finish(&cfg); /* exits on bad options; opens the output */
   CtRuntime rt = {.icount = &ct_icount, .next_event = &ct_next_event, .mode = &ct_mode,
                   .buf_ptr = ct_out_buf_ptr_addr(), .event_helper = ct_event_helper,
                   .flush_helper = ct_flush_helper, .ff_trigger = ct_ff_trigger};
   ct_instrument_init(&cfg.ir, &rt);
   ct_out_init(cfg.buffer_bytes);

   ct_out_write_header(&cfg.spec);

   region_k = 0;
   prev_region_end = 0;
   compute_region(0);
   if (reg_a == 0) {
      state = ST_PRE;
      ct_mode = MODE_RECORD;
      ct_next_event = 0;
      ct_out_open_batch(0);
   } else {
      switch_to_ff();
   }
}

static void ct_fini(Int exitcode) {
   if (in_child) return;
   if (state == ST_PRE || state == ST_WARMUP || state == ST_MEASURED)
      process_events(0);
   if (state == ST_PRE) {
      ct_out_discard_batch();
   } else if (state == ST_WARMUP || state == ST_MEASURED) {
      ct_out_close_batch(ct_icount);
      emit_region_end(ct_icount, 0, CTP_RF_TRUNCATED);
   }
   state = ST_DONE;
   UChar p[CTP_END_BYTES];
   VG_(memset)(p, 0, sizeof p);
   put_u64(p, ct_icount);
   put_u32(p + 8, (UInt)exitcode);
   put_u32(p + 12, (UInt)regions_completed);
   ct_out_emit_frame(CTP_FRAME_END, p, sizeof p);
   ct_out_flush();
   if (cfg.stats) {
      CtOutStats o = ct_out_stats();
      CtInstrumentStats t = ct_instrument_stats();
      VG_(umsg)("ctrace: %llu instructions, %llu regions, %u static ids, %llu bytes written\n",
                ct_icount, regions_completed, o.statics, o.bytes_written);
      VG_(umsg)("ctrace: %llu fast-forward and %llu record translations, %llu flushes\n",
                t.ff, t.record, o.flushes);
   }
}

static void ct_pre_clo_init(void) {
   VG_(details_name)("ctrace");
   VG_(details_version)("1.0");
   VG_(details_description)("Concorde instruction tracer");
   VG_(details_copyright_author)("Concorde Explorer authors");
   VG_(details_bug_reports_to)("the Concorde Explorer project");
   VG_(details_avg_translation_sizeB)(400);

   VG_(basic_tool_funcs)(ct_post_clo_init, ct_instrument, ct_fini);
   VG_(needs_command_line_options)(ct_process_cmd_line_option, ct_print_usage,
                                   ct_print_debug_usage);
   VG_(needs_syscall_wrapper)(ct_pre_syscall, ct_post_syscall);
   VG_(track_start_client_code)(ct_start_client_code);
   VG_(track_pre_deliver_signal)(ct_pre_deliver_signal);
   VG_(atfork)(NULL, NULL, ct_atfork_child);
}

VG_DETERMINE_INTERFACE_VERSION(ct_pre_clo_init)
