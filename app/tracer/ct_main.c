/*
 * ctrace: a Valgrind tool that writes a per-instruction trace of an amd64 program in the raw
 * stream format of core/trace/TracerProtocol.h, for `concorde trace`. See app/tracer/README.md.
 *
 * How it works:
 *
 *  - Exact per-instruction IR. VEX normally cleans every block before a tool sees it (redundant
 *    GET removal, copy and constant propagation) and then optimises it (redundant PUT removal,
 *    CSE...), which hides which registers each instruction reads and writes. The tool wraps the
 *    front end's cleanup (link option --wrap=do_minimal_initial_iropt_BB, see below) and sets the
 *    pre-instrumentation optimisation level to 0, so it sees each instruction's own GETs and
 *    PUTs. It derives the static description of every instruction from that IR, adds its
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
 */

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "libvex_guest_amd64.h"

#include "TracerProtocol.h"

/* ---------------------------------------------------------------------------------------------
   VEX / core internals. These are global symbols of the static libraries this tool is linked
   with (Debian's valgrind 3.19 package); their prototypes are not in the installed headers. */
extern VexControl vex_control;
extern IRSB* do_iropt_BB(IRSB* bb,
                         IRExpr* (*specHelper)(const HChar*, IRExpr**, IRStmt**, Int),
                         Bool (*preciseMemExnsFn)(Int, Int, VexRegisterUpdates),
                         VexRegisterUpdates pxControl, Addr guest_addr, VexArch guest_arch);
extern IRExpr* guest_amd64_spechelper(const HChar* function_name, IRExpr** args,
                                      IRStmt** precedingStmts, Int n_precedingStmts);
extern Bool guest_amd64_state_requires_precise_mem_exns(Int minoff, Int maxoff,
                                                        VexRegisterUpdates pxControl);
extern Int VG_(safe_fd)(Int oldfd);
extern Int VG_(fcntl)(Int fd, Int cmd, Addr arg);

/* The tool is linked with -Wl,--wrap=do_minimal_initial_iropt_BB. VEX's front end (3.16 and
   later) calls that function on every guest basic block to flatten it, remove redundant GETs and
   propagate copies and constants, before any tool sees the block. That hides the register reads
   of an instruction whose inputs were produced earlier in the same block. The wrapper only
   flattens the block (the rest of VEX needs flat IR), so every instruction keeps its own GETs;
   the instrumented block is optimised fully afterwards (ct_instrument). The cleanup only matters
   to VEX for superblock chasing, which this tool disables. With --ctrace-raw-ir=no the VEX
   function is used and reconstruct_reads() recovers most hidden reads heuristically. */
extern IRSB* __real_do_minimal_initial_iropt_BB(IRSB* bb0);
static Bool clo_raw_ir = True;

/* Flattening (every operand an atom, one operation per statement), which the VEX pass also did
   and which the rest of VEX requires. Operands are flattened left to right. */
static IRExpr* fl_atom(IRSB* bb, IRExpr* e);

static IRExpr* fl_shallow(IRSB* bb, IRExpr* e) {
   switch (e->tag) {
   case Iex_GetI:
      return IRExpr_GetI(e->Iex.GetI.descr, fl_atom(bb, e->Iex.GetI.ix), e->Iex.GetI.bias);
   case Iex_Unop: return IRExpr_Unop(e->Iex.Unop.op, fl_atom(bb, e->Iex.Unop.arg));
   case Iex_Binop: {
      IRExpr* a1 = fl_atom(bb, e->Iex.Binop.arg1);
      IRExpr* a2 = fl_atom(bb, e->Iex.Binop.arg2);
      return IRExpr_Binop(e->Iex.Binop.op, a1, a2);
   }
   case Iex_Triop: {
      IRTriop* t = e->Iex.Triop.details;
      IRExpr* a1 = fl_atom(bb, t->arg1);
      IRExpr* a2 = fl_atom(bb, t->arg2);
      IRExpr* a3 = fl_atom(bb, t->arg3);
      return IRExpr_Triop(t->op, a1, a2, a3);
   }
   case Iex_Qop: {
      IRQop* q = e->Iex.Qop.details;
      IRExpr* a1 = fl_atom(bb, q->arg1);
      IRExpr* a2 = fl_atom(bb, q->arg2);
      IRExpr* a3 = fl_atom(bb, q->arg3);
      IRExpr* a4 = fl_atom(bb, q->arg4);
      return IRExpr_Qop(q->op, a1, a2, a3, a4);
   }
   case Iex_Load:
      return IRExpr_Load(e->Iex.Load.end, e->Iex.Load.ty, fl_atom(bb, e->Iex.Load.addr));
   case Iex_CCall: {
      IRExpr** args = shallowCopyIRExprVec(e->Iex.CCall.args);
      for (Int i = 0; args[i]; i++) args[i] = fl_atom(bb, args[i]);
      return IRExpr_CCall(e->Iex.CCall.cee, e->Iex.CCall.retty, args);
   }
   case Iex_ITE: {
      IRExpr* c = fl_atom(bb, e->Iex.ITE.cond);
      IRExpr* t = fl_atom(bb, e->Iex.ITE.iftrue);
      IRExpr* f = fl_atom(bb, e->Iex.ITE.iffalse);
      return IRExpr_ITE(c, t, f);
   }
   default: /* Get, RdTmp, Const, VECRET, GSPTR */
      return e;
   }
}

static IRExpr* fl_atom(IRSB* bb, IRExpr* e) {
   if (e == NULL || e->tag == Iex_RdTmp || e->tag == Iex_Const || e->tag == Iex_VECRET ||
       e->tag == Iex_GSPTR)
      return e;
   IRType ty = typeOfIRExpr(bb->tyenv, e);
   IRExpr* sh = fl_shallow(bb, e);
   IRTemp t = newIRTemp(bb->tyenv, ty);
   addStmtToIRSB(bb, IRStmt_WrTmp(t, sh));
   return IRExpr_RdTmp(t);
}

static IRSB* flatten_irsb(IRSB* in) {
   IRSB* bb = deepCopyIRSBExceptStmts(in);
   for (Int i = 0; i < in->stmts_used; i++) {
      IRStmt* st = in->stmts[i];
      switch (st->tag) {
      case Ist_NoOp: case Ist_IMark: case Ist_MBE:
         addStmtToIRSB(bb, st);
         break;
      case Ist_AbiHint: {
         IRExpr* base = fl_atom(bb, st->Ist.AbiHint.base);
         IRExpr* nia = fl_atom(bb, st->Ist.AbiHint.nia);
         addStmtToIRSB(bb, IRStmt_AbiHint(base, st->Ist.AbiHint.len, nia));
         break;
      }
      case Ist_Put:
         addStmtToIRSB(bb, IRStmt_Put(st->Ist.Put.offset, fl_atom(bb, st->Ist.Put.data)));
         break;
      case Ist_PutI: {
         IRPutI* p = st->Ist.PutI.details;
         IRExpr* ix = fl_atom(bb, p->ix);
         IRExpr* data = fl_atom(bb, p->data);
         addStmtToIRSB(bb, IRStmt_PutI(mkIRPutI(p->descr, ix, p->bias, data)));
         break;
      }
      case Ist_WrTmp:
         addStmtToIRSB(bb, IRStmt_WrTmp(st->Ist.WrTmp.tmp, fl_shallow(bb, st->Ist.WrTmp.data)));
         break;
      case Ist_Store: {
         IRExpr* a = fl_atom(bb, st->Ist.Store.addr);
         IRExpr* d = fl_atom(bb, st->Ist.Store.data);
         addStmtToIRSB(bb, IRStmt_Store(st->Ist.Store.end, a, d));
         break;
      }
      case Ist_StoreG: {
         IRStoreG* g = st->Ist.StoreG.details;
         IRExpr* a = fl_atom(bb, g->addr);
         IRExpr* d = fl_atom(bb, g->data);
         IRExpr* c = fl_atom(bb, g->guard);
         addStmtToIRSB(bb, IRStmt_StoreG(g->end, a, d, c));
         break;
      }
      case Ist_LoadG: {
         IRLoadG* g = st->Ist.LoadG.details;
         IRExpr* a = fl_atom(bb, g->addr);
         IRExpr* alt = fl_atom(bb, g->alt);
         IRExpr* c = fl_atom(bb, g->guard);
         addStmtToIRSB(bb, IRStmt_LoadG(g->end, g->cvt, g->dst, a, alt, c));
         break;
      }
      case Ist_CAS: {
         IRCAS* c = st->Ist.CAS.details;
         IRExpr* a = fl_atom(bb, c->addr);
         IRExpr* eh = fl_atom(bb, c->expdHi);
         IRExpr* el = fl_atom(bb, c->expdLo);
         IRExpr* dh = fl_atom(bb, c->dataHi);
         IRExpr* dl = fl_atom(bb, c->dataLo);
         addStmtToIRSB(bb, IRStmt_CAS(mkIRCAS(c->oldHi, c->oldLo, c->end, a, eh, el, dh, dl)));
         break;
      }
      case Ist_LLSC: {
         IRExpr* a = fl_atom(bb, st->Ist.LLSC.addr);
         IRExpr* sd = fl_atom(bb, st->Ist.LLSC.storedata);
         addStmtToIRSB(bb, IRStmt_LLSC(st->Ist.LLSC.end, st->Ist.LLSC.result, a, sd));
         break;
      }
      case Ist_Dirty: {
         IRDirty* d = deepCopyIRDirty(st->Ist.Dirty.details);
         for (Int k = 0; d->args[k]; k++) d->args[k] = fl_atom(bb, d->args[k]);
         d->guard = fl_atom(bb, d->guard);
         if (d->mAddr) d->mAddr = fl_atom(bb, d->mAddr);
         addStmtToIRSB(bb, IRStmt_Dirty(d));
         break;
      }
      case Ist_Exit: {
         IRExpr* g = fl_atom(bb, st->Ist.Exit.guard);
         addStmtToIRSB(bb, IRStmt_Exit(g, st->Ist.Exit.jk, st->Ist.Exit.dst, st->Ist.Exit.offsIP));
         break;
      }
      default:
         ppIRStmt(st);
         VG_(tool_panic)("ctrace: flatten_irsb: unexpected statement");
      }
   }
   bb->next = fl_atom(bb, in->next);
   return bb;
}

IRSB* __wrap_do_minimal_initial_iropt_BB(IRSB* bb0);
IRSB* __wrap_do_minimal_initial_iropt_BB(IRSB* bb0) {
   return clo_raw_ir ? flatten_irsb(bb0) : __real_do_minimal_initial_iropt_BB(bb0);
}

/* ---------------------------------------------------------------------------------------------
   Options */
static Long clo_fd = -1;
static const HChar* clo_out = NULL;
static Long clo_skip = 0;
static Long clo_length = 0; /* 0 = until the program ends */
static Long clo_warmup = 0;
static Long clo_regions = 1;
static Long clo_interval = 0; /* 0 = warmup + length (regions back to back) */
static Long clo_buffer_mb = 8;
static Bool clo_reoptimize = True;
static const HChar* clo_dump_ir = NULL; /* "lo-hi" hex guest address range */
static Bool clo_stats = False;

static Addr dump_lo = 1, dump_hi = 0;
static Int saved_iropt_level = 2;

/* ---------------------------------------------------------------------------------------------
   Run-time state read and written by generated code. */
#define MODE_FF 0
#define MODE_RECORD 1
static ULong ct_icount = 0;     /* instructions executed so far (exact at block boundaries) */
static ULong ct_next_event = 0; /* instruction index of the next region event */
static ULong ct_mode = MODE_FF;
static UChar* ct_buf_ptr = NULL; /* record buffer write position */

/* Tracing state machine */
typedef enum { ST_FF, ST_PRE, ST_WARMUP, ST_MEASURED, ST_DONE } State;
static State state = ST_FF;
static ULong region_k = 0;               /* current / next region number */
static ULong reg_a, reg_b, reg_c;        /* warm-up start, measured start, end of region_k */
static ULong prev_region_end = 0;
static ULong regions_completed = 0;
static Bool in_child = False;             /* forked child: never write */
static ThreadId cur_tid = 1;

/* Output */
static Int out_fd = -1;
static Bool out_failed = False;
static ULong bytes_written = 0;
static ULong n_translations_ff = 0, n_translations_rec = 0, n_flushes = 0;

/* Record buffer. [buf_start, ct_buf_ptr) holds frames; the open RECORDS batch (if any) starts at
   batch_hdr. A RECORD block writing at most B bytes of records flushes first when ct_buf_ptr is
   past buf_end - BUF_RESERVE - B; the reserve leaves room for frames inserted by helpers. */
#define BUF_RESERVE (64 * 1024)
static UChar* buf_start = NULL;
static UChar* buf_end = NULL;
static UChar* batch_hdr = NULL;
static ULong batch_first = 0;

/* Pending static descriptors (written before the record buffer at every flush) */
static UChar* defs_buf = NULL;
static SizeT defs_used = 0, defs_cap = 0;

/* Tail save area used when cutting at region boundaries */
static UChar* tail_buf = NULL;
static SizeT tail_cap = 0;

/* ---------------------------------------------------------------------------------------------
   Small utilities */
static void* xrealloc(void* p, SizeT n) { return VG_(realloc)("ct.alloc", p, n); }

static inline void put_u8(UChar* p, UInt v) { p[0] = (UChar)v; }
static inline void put_u16(UChar* p, UInt v) { p[0] = (UChar)v; p[1] = (UChar)(v >> 8); }
static inline void put_u32(UChar* p, UInt v) {
   p[0] = (UChar)v; p[1] = (UChar)(v >> 8); p[2] = (UChar)(v >> 16); p[3] = (UChar)(v >> 24);
}
static inline void put_u64(UChar* p, ULong v) { put_u32(p, (UInt)v); put_u32(p + 4, (UInt)(v >> 32)); }
static inline UInt get_u32(const UChar* p) {
   return (UInt)p[0] | ((UInt)p[1] << 8) | ((UInt)p[2] << 16) | ((UInt)p[3] << 24);
}

static void write_all(const void* data, SizeT len) {
   const UChar* p = data;
   if (in_child || out_failed || out_fd < 0) return;
   while (len > 0) {
      Int chunk = len > (1 << 30) ? (1 << 30) : (Int)len;
      Int n = VG_(write)(out_fd, p, chunk);
      if (n <= 0) {
         out_failed = True;
         VG_(umsg)("ctrace: write to the trace output failed; tracing output stops here\n");
         return;
      }
      p += n;
      len -= n;
      bytes_written += n;
   }
}

/* ---------------------------------------------------------------------------------------------
   Static instruction table: id -> memory slot count and pc (needed to walk the buffer), plus a
   hash table to give identical descriptors the same id. */
static UInt n_ids = 0, ids_cap = 0;
static UChar* id_nmem = NULL;
static Addr* id_pc = NULL;
static UInt* id_desc_off = NULL; /* offset of the descriptor in desc_pool */
static UChar* desc_pool = NULL;
static SizeT desc_pool_used = 0, desc_pool_cap = 0;
static UInt* id_hash_tab = NULL; /* open addressing; stores id+1, 0 = empty */
static UInt id_hash_cap = 0;

static UInt fnv1a(const UChar* p, SizeT n) {
   UInt h = 2166136261u;
   for (SizeT i = 0; i < n; i++) { h ^= p[i]; h *= 16777619u; }
   return h;
}

static void id_hash_insert(UInt id) {
   const UChar* d = desc_pool + id_desc_off[id];
   UInt len = ctp_static_size(d);
   UInt h = fnv1a(d + 4, len - 4) & (id_hash_cap - 1);
   while (id_hash_tab[h] != 0) h = (h + 1) & (id_hash_cap - 1);
   id_hash_tab[h] = id + 1;
}

static void id_hash_grow(void) {
   UInt old_cap = id_hash_cap;
   UInt* old = id_hash_tab;
   id_hash_cap = old_cap ? old_cap * 2 : 65536;
   id_hash_tab = VG_(calloc)("ct.idhash", id_hash_cap, sizeof(UInt));
   for (UInt i = 0; i < old_cap; i++)
      if (old[i]) id_hash_insert(old[i] - 1);
   if (old) VG_(free)(old);
}

/* Returns the id for descriptor d (whose id field is ignored); appends new descriptors to the
   pending output. */
static UInt intern_descriptor(UChar* d, Addr pc) {
   UInt len = ctp_static_size(d);
   if (2 * (n_ids + 1) > id_hash_cap) id_hash_grow();
   UInt h = fnv1a(d + 4, len - 4) & (id_hash_cap - 1);
   while (id_hash_tab[h] != 0) {
      UInt id = id_hash_tab[h] - 1;
      const UChar* e = desc_pool + id_desc_off[id];
      if (ctp_static_size(e) == len && VG_(memcmp)(e + 4, d + 4, len - 4) == 0) return id;
      h = (h + 1) & (id_hash_cap - 1);
   }
   UInt id = n_ids++;
   if (id >= ids_cap) {
      ids_cap = ids_cap ? ids_cap * 2 : 16384;
      id_nmem = xrealloc(id_nmem, ids_cap);
      id_pc = xrealloc(id_pc, ids_cap * sizeof(Addr));
      id_desc_off = xrealloc(id_desc_off, ids_cap * sizeof(UInt));
   }
   put_u32(d, id);
   if (desc_pool_used + len > desc_pool_cap) {
      desc_pool_cap = desc_pool_cap ? desc_pool_cap * 2 : (1 << 20);
      desc_pool = xrealloc(desc_pool, desc_pool_cap);
   }
   VG_(memcpy)(desc_pool + desc_pool_used, d, len);
   id_desc_off[id] = (UInt)desc_pool_used;
   desc_pool_used += len;
   id_nmem[id] = d[26];
   id_pc[id] = pc;
   id_hash_tab[h] = id + 1;

   if (defs_used + len > defs_cap) {
      defs_cap = defs_cap ? defs_cap * 2 : (1 << 16);
      if (defs_cap < defs_used + len) defs_cap = defs_used + len;
      defs_buf = xrealloc(defs_buf, defs_cap);
   }
   VG_(memcpy)(defs_buf + defs_used, d, len);
   defs_used += len;
   return id;
}

/* ---------------------------------------------------------------------------------------------
   Superblock infos for the basic-block vector: one per superblock start address. */
typedef struct {
   Addr pc;
   ULong count; /* instructions executed in this superblock (updated by generated code) */
} SBInfo;
static SBInfo** sb_tab = NULL; /* open addressing by pc */
static UInt sb_tab_cap = 0;
static SBInfo** sb_list = NULL;
static UInt sb_n = 0, sb_list_cap = 0;

static UInt hash_addr(Addr a) { return (UInt)((a * 0x9E3779B97F4A7C15ULL) >> 40); }

static SBInfo* get_sbinfo(Addr pc) {
   if (2 * (sb_n + 1) > sb_tab_cap) {
      UInt old_cap = sb_tab_cap;
      SBInfo** old = sb_tab;
      sb_tab_cap = old_cap ? old_cap * 2 : 16384;
      sb_tab = VG_(calloc)("ct.sbtab", sb_tab_cap, sizeof(SBInfo*));
      for (UInt i = 0; i < old_cap; i++) {
         if (!old[i]) continue;
         UInt h = hash_addr(old[i]->pc) & (sb_tab_cap - 1);
         while (sb_tab[h]) h = (h + 1) & (sb_tab_cap - 1);
         sb_tab[h] = old[i];
      }
      if (old) VG_(free)(old);
   }
   UInt h = hash_addr(pc) & (sb_tab_cap - 1);
   while (sb_tab[h]) {
      if (sb_tab[h]->pc == pc) return sb_tab[h];
      h = (h + 1) & (sb_tab_cap - 1);
   }
   SBInfo* s = VG_(malloc)("ct.sbinfo", sizeof(SBInfo));
   s->pc = pc;
   s->count = 0;
   sb_tab[h] = s;
   if (sb_n >= sb_list_cap) {
      sb_list_cap = sb_list_cap ? sb_list_cap * 2 : 16384;
      sb_list = xrealloc(sb_list, sb_list_cap * sizeof(SBInfo*));
   }
   sb_list[sb_n++] = s;
   return s;
}

static void bbv_reset(void) {
   for (UInt i = 0; i < sb_n; i++) sb_list[i]->count = 0;
}

/* ---------------------------------------------------------------------------------------------
   Output buffer management */

/* Writes pending static descriptors and everything in the record buffer. No batch may be open. */
static void flush_out(void) {
   tl_assert(batch_hdr == NULL);
   if (defs_used > 0) {
      UChar hdr[CTP_FRAME_HEADER_BYTES];
      put_u32(hdr, CTP_FRAME_STATIC);
      put_u32(hdr + 4, (UInt)defs_used);
      write_all(hdr, sizeof hdr);
      write_all(defs_buf, defs_used);
      defs_used = 0;
   }
   if (ct_buf_ptr > buf_start) write_all(buf_start, ct_buf_ptr - buf_start);
   ct_buf_ptr = buf_start;
   n_flushes++;
}

/* Makes room for n bytes of frames (no batch may be open). */
static void buf_need(SizeT n) {
   if (ct_buf_ptr + n > buf_end - BUF_RESERVE / 2) flush_out();
   tl_assert(ct_buf_ptr + n <= buf_end);
}

static void open_batch(ULong first) {
   tl_assert(batch_hdr == NULL);
   buf_need(CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX);
   batch_hdr = ct_buf_ptr;
   batch_first = first;
   ct_buf_ptr += CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX;
}

/* Closes the open batch at `end`, holding `count` records (dropped when empty). */
static void close_batch(UChar* end, ULong count) {
   tl_assert(batch_hdr != NULL);
   if (count == 0) {
      ct_buf_ptr = batch_hdr;
   } else {
      put_u32(batch_hdr, CTP_FRAME_RECORDS);
      put_u32(batch_hdr + 4, (UInt)(end - batch_hdr - CTP_FRAME_HEADER_BYTES));
      put_u64(batch_hdr + 8, batch_first);
      put_u32(batch_hdr + 16, (UInt)count);
      put_u32(batch_hdr + 20, 0);
      ct_buf_ptr = end;
   }
   batch_hdr = NULL;
}

static void discard_batch(void) {
   tl_assert(batch_hdr != NULL);
   ct_buf_ptr = batch_hdr;
   batch_hdr = NULL;
}

/* Appends a small frame (no batch may be open). */
static void emit_frame(UInt type, const UChar* payload, UInt len) {
   buf_need(CTP_FRAME_HEADER_BYTES + len);
   put_u32(ct_buf_ptr, type);
   put_u32(ct_buf_ptr + 4, len);
   VG_(memcpy)(ct_buf_ptr + CTP_FRAME_HEADER_BYTES, payload, len);
   ct_buf_ptr += CTP_FRAME_HEADER_BYTES + len;
}

/* Byte position in the open batch of the record with program index `idx`. */
static UChar* locate(ULong idx) {
   tl_assert(batch_hdr != NULL && idx >= batch_first && idx <= ct_icount);
   UChar* p = batch_hdr + CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX;
   for (ULong i = batch_first; i < idx; i++) {
      UInt id = get_u32(p);
      tl_assert(id < n_ids);
      p += 4 + 8 * (SizeT)id_nmem[id];
   }
   tl_assert(p <= ct_buf_ptr);
   return p;
}

/* Called by generated code when a RECORD block might overflow the buffer. */
static VG_REGPARM(0) void ct_flush_helper(void) {
   if (batch_hdr == NULL) return;
   if (state == ST_PRE) {
      /* Everything recorded so far lies before the region start: drop it. */
      discard_batch();
      flush_out();
      open_batch(ct_icount);
      return;
   }
   close_batch(ct_buf_ptr, ct_icount - batch_first);
   flush_out();
   open_batch(ct_icount);
}

/* ---------------------------------------------------------------------------------------------
   Regions and events */

static void compute_region(ULong k) {
   ULong interval = clo_interval > 0 ? (ULong)clo_interval : (ULong)(clo_warmup + clo_length);
   reg_b = (ULong)clo_skip + k * interval;
   reg_a = reg_b >= (ULong)clo_warmup ? reg_b - (ULong)clo_warmup : 0;
   if (reg_a < prev_region_end) reg_a = prev_region_end;
   if (reg_a > reg_b) reg_a = reg_b; /* cannot happen unless regions overlap completely */
   reg_c = clo_length > 0 ? reg_b + (ULong)clo_length : ~0ULL;
}

static ThreadId stream_tid = 1; /* thread the reader currently attributes records to */

static void emit_thread_if_needed(void) {
   if (cur_tid == stream_tid) return;
   UChar p[CTP_THREAD_BYTES];
   put_u32(p, cur_tid);
   put_u32(p + 4, 0);
   emit_frame(CTP_FRAME_THREAD, p, sizeof p);
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
   put_u64(p + 32, clo_length > 0 ? (ULong)clo_length : 0);
   emit_frame(CTP_FRAME_REGION_BEGIN, p, sizeof p);
}

static Int cmp_bbv(const void* a, const void* b) {
   Addr x = ((const ULong*)a)[0], y = ((const ULong*)b)[0];
   return x < y ? -1 : x > y ? 1 : 0;
}

/* Emits REGION_END for region_k; icount_end = program index just past the last record. */
static void emit_region_end(ULong icount_end, Addr next_pc, UInt flags) {
   ULong warm = (icount_end < reg_b ? icount_end : reg_b) - reg_a;
   ULong meas = icount_end > reg_b ? icount_end - reg_b : 0;
   UInt nb = 0;
   for (UInt i = 0; i < sb_n; i++)
      if (sb_list[i]->count) nb++;
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
   ULong* ents = VG_(malloc)("ct.bbv", (SizeT)(nb ? nb : 1) * 2 * sizeof(ULong));
   UInt j = 0;
   for (UInt i = 0; i < sb_n; i++)
      if (sb_list[i]->count) {
         ents[2 * j] = sb_list[i]->pc;
         ents[2 * j + 1] = sb_list[i]->count;
         j++;
      }
   if (nb > 1) VG_(ssort)(ents, nb, 2 * sizeof(ULong), cmp_bbv);
   for (UInt i = 0; i < nb; i++) {
      put_u64(p + CTP_REGION_END_FIXED + 16 * (SizeT)i, ents[2 * i]);
      put_u64(p + CTP_REGION_END_FIXED + 16 * (SizeT)i + 8, ents[2 * i + 1]);
   }
   VG_(free)(ents);
   if (len <= BUF_RESERVE / 4) {
      buf_need(CTP_FRAME_HEADER_BYTES + len);
      VG_(memcpy)(ct_buf_ptr, f, CTP_FRAME_HEADER_BYTES + len);
      ct_buf_ptr += CTP_FRAME_HEADER_BYTES + len;
   } else {
      flush_out();
      write_all(f, CTP_FRAME_HEADER_BYTES + len);
   }
   VG_(free)(f);
   bbv_reset();
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
   if (clo_regions > 0 && region_k >= (ULong)clo_regions) {
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
         bbv_reset();
         state = ST_MEASURED;
         ct_next_event = reg_c;
         continue;
      }
      UChar* pos = locate(e);
      SizeT tail_len = ct_buf_ptr - pos;
      ULong tail_count = ct_icount - e;
      if (tail_len > tail_cap) {
         tail_cap = tail_len * 2;
         tail_buf = xrealloc(tail_buf, tail_cap);
      }
      VG_(memcpy)(tail_buf, pos, tail_len);
      Bool keep_tail;
      if (state == ST_PRE) {
         discard_batch();
         emit_region_begin();
         state = ST_WARMUP;
         ct_next_event = reg_b;
         keep_tail = True;
      } else { /* ST_MEASURED: region ends at e */
         close_batch(pos, e - batch_first);
         Addr next_pc = tail_count > 0 ? id_pc[get_u32(tail_buf)] : next_pc_hint;
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
      if (keep_tail) {
         open_batch(e);
         tl_assert(ct_buf_ptr + tail_len <= buf_end);
         VG_(memcpy)(ct_buf_ptr, tail_buf, tail_len);
         ct_buf_ptr += tail_len;
      } else {
         flush_out();
      }
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
   open_batch(ct_icount);
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
         discard_batch();
         open_batch(ct_icount);
      } else if (state == ST_WARMUP || state == ST_MEASURED) {
         close_batch(ct_buf_ptr, ct_icount - batch_first);
         cur_tid = tid;
         emit_thread_if_needed();
         open_batch(ct_icount);
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
      close_batch(ct_buf_ptr, ct_icount - batch_first);
      put_u32(p, CTP_DISC_SIGNAL);
      put_u32(p + 4, (UInt)sigNo);
      put_u64(p + 8, ip);
      emit_frame(CTP_FRAME_DISCONTINUITY, p, sizeof p);
      open_batch(ct_icount);
   }
}

static void ct_atfork_child(ThreadId tid) {
   /* The child must not write into the parent's stream. */
   in_child = True;
   finish_tracing();
   batch_hdr = NULL;
   ct_buf_ptr = buf_start;
   defs_used = 0;
}

static void ct_pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs) {
   if (syscallno == __NR_execve || syscallno == __NR_execveat) {
      /* Keep what has been traced if the exec succeeds (the stream then ends without END). */
      if (batch_hdr != NULL && state != ST_PRE) {
         close_batch(ct_buf_ptr, ct_icount - batch_first);
         flush_out();
         open_batch(ct_icount);
      } else if (batch_hdr == NULL) {
         flush_out();
      }
   }
}

static void ct_post_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs, SysRes res) {}

/* ---------------------------------------------------------------------------------------------
   Guest state -> architectural register map */
static UChar reg_of_byte[sizeof(VexGuestAMD64State)];

#define GOFF(f) ((Int)offsetof(VexGuestAMD64State, f))
#define GSZ(f) ((Int)sizeof(((VexGuestAMD64State*)0)->f))

static void map_range(Int off, Int size, UChar reg) {
   for (Int i = 0; i < size; i++) reg_of_byte[off + i] = reg;
}

static void init_reg_map(void) {
   VG_(memset)(reg_of_byte, CTP_REG_NONE, sizeof reg_of_byte);
   for (Int i = 0; i < 16; i++) map_range(GOFF(guest_RAX) + 8 * i, 8, CTP_REG_RAX + i);
   map_range(GOFF(guest_CC_OP), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_CC_DEP1), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_CC_DEP2), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_CC_NDEP), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_DFLAG), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_ACFLAG), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_IDFLAG), 8, CTP_REG_FLAGS);
   map_range(GOFF(guest_FS_CONST), 8, CTP_REG_SEGMENT);
   map_range(GOFF(guest_GS_CONST), 8, CTP_REG_SEGMENT);
   map_range(GOFF(guest_SSEROUND), 8, CTP_REG_FP_CONTROL);
   map_range(GOFF(guest_FPROUND), 8, CTP_REG_FP_CONTROL);
   for (Int i = 0; i < 16; i++) map_range(GOFF(guest_YMM0) + 32 * i, 32, CTP_REG_VECTOR0 + i);
   /* guest_YMM16 is VEX scratch space: not architectural. */
   map_range(GOFF(guest_FTOP), GSZ(guest_FTOP), CTP_REG_X87);
   map_range(GOFF(guest_FPREG), GSZ(guest_FPREG), CTP_REG_X87);
   map_range(GOFF(guest_FPTAG), GSZ(guest_FPTAG), CTP_REG_X87);
   map_range(GOFF(guest_FC3210), GSZ(guest_FC3210), CTP_REG_X87);
   /* RIP, EMNOTE, CMSTART, CMLEN, NRADDR, SC_CLASS, IP_AT_SYSCALL: none */
}

static ULong regs_of_range(Int off, Int size) {
   ULong m = 0;
   if (off < 0) return 0;
   for (Int i = 0; i < size && off + i < (Int)sizeof reg_of_byte; i++)
      m |= 1ULL << reg_of_byte[off + i];
   return m & ~1ULL;
}

/* ---------------------------------------------------------------------------------------------
   Per-instruction analysis of unoptimised IR */

#define MAX_INSNS 512
#define WORK_NONE (-1)

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
   UInt id;
   UInt rec_off; /* offset of this instruction's record in the block's record area */
} Insn;

static Insn insns[MAX_INSNS];
static Int n_insns;

/* Work classes in increasing cost; rank 0 = no work */
static const UChar rank_class[] = {0xff, CTP_CLASS_INT_ALU, CTP_CLASS_INT_MUL, CTP_CLASS_SIMD,
                                   CTP_CLASS_FP_ADD, CTP_CLASS_FP_MUL, CTP_CLASS_FP_DIV,
                                   CTP_CLASS_INT_DIV};
enum { R_NONE = 0, R_ALU, R_MUL, R_SIMD, R_FPADD, R_FPMUL, R_FPDIV, R_DIV };

static Bool is_vec_ty(IRType t) { return t == Ity_V128 || t == Ity_V256; }
static Bool is_fp_ty(IRType t) {
   return t == Ity_F16 || t == Ity_F32 || t == Ity_F64 || t == Ity_F128 || t == Ity_D32 ||
          t == Ity_D64 || t == Ity_D128;
}

static Int op_rank(IROp op) {
   switch (op) {
   /* data movement: widening/narrowing, lane moves, reinterpretation */
   case Iop_8Uto16: case Iop_8Uto32: case Iop_8Uto64: case Iop_16Uto32: case Iop_16Uto64:
   case Iop_32Uto64: case Iop_8Sto16: case Iop_8Sto32: case Iop_8Sto64: case Iop_16Sto32:
   case Iop_16Sto64: case Iop_32Sto64: case Iop_64to8: case Iop_32to8: case Iop_64to16:
   case Iop_16to8: case Iop_16HIto8: case Iop_8HLto16: case Iop_32to16: case Iop_32HIto16:
   case Iop_16HLto32: case Iop_64to32: case Iop_64HIto32: case Iop_32HLto64: case Iop_128to64:
   case Iop_128HIto64: case Iop_64HLto128: case Iop_ReinterpF64asI64: case Iop_ReinterpI64asF64:
   case Iop_ReinterpF32asI32: case Iop_ReinterpI32asF32: case Iop_ReinterpV128asI128:
   case Iop_ReinterpI128asV128: case Iop_V128to64: case Iop_V128HIto64: case Iop_64HLtoV128:
   case Iop_64UtoV128: case Iop_SetV128lo64: case Iop_32UtoV128: case Iop_V128to32:
   case Iop_SetV128lo32: case Iop_ZeroHI64ofV128: case Iop_ZeroHI96ofV128:
   case Iop_ZeroHI112ofV128: case Iop_ZeroHI120ofV128: case Iop_V256to64_0: case Iop_V256to64_1:
   case Iop_V256to64_2: case Iop_V256to64_3: case Iop_64x4toV256: case Iop_V256toV128_0:
   case Iop_V256toV128_1: case Iop_V128HLtoV256:
      return R_NONE;
   /* integer divide */
   case Iop_DivU32: case Iop_DivS32: case Iop_DivU64: case Iop_DivS64: case Iop_DivU128:
   case Iop_DivS128: case Iop_DivU32E: case Iop_DivS32E: case Iop_DivU64E: case Iop_DivS64E:
   case Iop_DivU128E: case Iop_DivS128E: case Iop_DivModU64to32: case Iop_DivModS64to32:
   case Iop_DivModU128to64: case Iop_DivModS128to64: case Iop_DivModS64to64:
   case Iop_DivModU64to64: case Iop_DivModS32to32: case Iop_DivModU32to32:
      return R_DIV;
   /* FP divide / square root (scalar and packed), x87 transcendentals */
   case Iop_DivF64: case Iop_DivF32: case Iop_DivF64r32: case Iop_DivF128: case Iop_SqrtF64:
   case Iop_SqrtF32: case Iop_SqrtF128: case Iop_Div32F0x4: case Iop_Div64F0x2:
   case Iop_Sqrt32F0x4: case Iop_Sqrt64F0x2: case Iop_Div32Fx4: case Iop_Div64Fx2:
   case Iop_Div32Fx8: case Iop_Div64Fx4: case Iop_Sqrt32Fx4: case Iop_Sqrt64Fx2:
   case Iop_Sqrt32Fx8: case Iop_Sqrt64Fx4: case Iop_AtanF64: case Iop_Yl2xF64:
   case Iop_Yl2xp1F64: case Iop_PRemF64: case Iop_PRemC3210F64: case Iop_PRem1F64:
   case Iop_PRem1C3210F64: case Iop_ScaleF64: case Iop_SinF64: case Iop_CosF64: case Iop_TanF64:
   case Iop_2xm1F64:
      return R_FPDIV;
   /* scalar FP multiply and fused multiply-add */
   case Iop_MulF64: case Iop_MulF32: case Iop_MulF64r32: case Iop_MulF128: case Iop_MAddF32:
   case Iop_MSubF32: case Iop_MAddF64: case Iop_MSubF64: case Iop_MAddF64r32:
   case Iop_MSubF64r32: case Iop_Mul32F0x4: case Iop_Mul64F0x2:
      return R_FPMUL;
   /* scalar FP on the low lane of a vector register */
   case Iop_Add32F0x4: case Iop_Sub32F0x4: case Iop_Max32F0x4: case Iop_Min32F0x4:
   case Iop_CmpEQ32F0x4: case Iop_CmpLT32F0x4: case Iop_CmpLE32F0x4: case Iop_CmpUN32F0x4:
   case Iop_RecipEst32F0x4: case Iop_RSqrtEst32F0x4: case Iop_Add64F0x2: case Iop_Sub64F0x2:
   case Iop_Max64F0x2: case Iop_Min64F0x2: case Iop_CmpEQ64F0x2: case Iop_CmpLT64F0x2:
   case Iop_CmpLE64F0x2: case Iop_CmpUN64F0x2:
      return R_FPADD;
   /* scalar integer multiply */
   case Iop_Mul8: case Iop_Mul16: case Iop_Mul32: case Iop_Mul64: case Iop_MullS8:
   case Iop_MullS16: case Iop_MullS32: case Iop_MullS64: case Iop_MullU8: case Iop_MullU16:
   case Iop_MullU32: case Iop_MullU64:
      return R_MUL;
   default: break;
   }
   IRType d = Ity_INVALID, a1 = Ity_INVALID, a2 = Ity_INVALID, a3 = Ity_INVALID, a4 = Ity_INVALID;
   typeOfPrimop(op, &d, &a1, &a2, &a3, &a4);
   if (is_vec_ty(d) || is_vec_ty(a1) || is_vec_ty(a2) || is_vec_ty(a3) || is_vec_ty(a4))
      return R_SIMD;
   if (is_fp_ty(d) || is_fp_ty(a1) || is_fp_ty(a2) || is_fp_ty(a3) || is_fp_ty(a4))
      return R_FPADD;
   return R_ALU;
}

static Int expr_rank(IRExpr* e) {
   switch (e->tag) {
   case Iex_Unop: return op_rank(e->Iex.Unop.op);
   case Iex_Binop: return op_rank(e->Iex.Binop.op);
   case Iex_Triop: return op_rank(e->Iex.Triop.details->op);
   case Iex_Qop: return op_rank(e->Iex.Qop.details->op);
   case Iex_ITE: return R_ALU;
   case Iex_CCall: return R_ALU;
   default: return R_NONE;
   }
}

/* Guest-state bytes written so far by the instruction being analysed (generation-stamped). A GET
   of bytes the instruction itself already wrote reads its own result, not an input: VEX writes
   rax = 0 for `xor eax,eax` and then GETs rax again to compute the flags. */
static UInt written_gen[sizeof(VexGuestAMD64State)];
static UInt cur_gen = 1;

static void note_written(Int off, Int size) {
   for (Int k = 0; k < size && off + k < (Int)sizeof written_gen; k++)
      if (off + k >= 0) written_gen[off + k] = cur_gen;
}

static ULong get_reads(Int off, Int size) {
   ULong m = 0;
   for (Int k = 0; k < size && off + k < (Int)sizeof written_gen; k++)
      if (off + k >= 0 && written_gen[off + k] != cur_gen) m |= regs_of_range(off + k, 1);
   return m;
}

static ULong expr_reads(IRExpr* e) {
   switch (e->tag) {
   case Iex_Get: return get_reads(e->Iex.Get.offset, sizeofIRType(e->Iex.Get.ty));
   case Iex_GetI: {
      IRRegArray* d = e->Iex.GetI.descr;
      return regs_of_range(d->base, d->nElems * sizeofIRType(d->elemTy));
   }
   default: return 0;
   }
}

/* temp marks for the address / stack-pointer data flow */
static UChar* tmark = NULL;
static Int tmark_cap = 0;

static void mark_atom(IRExpr* a) {
   if (a && a->tag == Iex_RdTmp) tmark[a->Iex.RdTmp.tmp] = 1;
}

static void mark_expr_args(IRExpr* e) {
   switch (e->tag) {
   case Iex_RdTmp: mark_atom(e); break;
   case Iex_Unop: mark_atom(e->Iex.Unop.arg); break;
   case Iex_Binop: mark_atom(e->Iex.Binop.arg1); mark_atom(e->Iex.Binop.arg2); break;
   case Iex_Triop:
      mark_atom(e->Iex.Triop.details->arg1); mark_atom(e->Iex.Triop.details->arg2);
      mark_atom(e->Iex.Triop.details->arg3); break;
   case Iex_Qop:
      mark_atom(e->Iex.Qop.details->arg1); mark_atom(e->Iex.Qop.details->arg2);
      mark_atom(e->Iex.Qop.details->arg3); mark_atom(e->Iex.Qop.details->arg4); break;
   case Iex_ITE:
      mark_atom(e->Iex.ITE.cond); mark_atom(e->Iex.ITE.iftrue); mark_atom(e->Iex.ITE.iffalse);
      break;
   case Iex_Load: mark_atom(e->Iex.Load.addr); break;
   case Iex_GetI: mark_atom(e->Iex.GetI.ix); break;
   case Iex_CCall:
      for (Int i = 0; e->Iex.CCall.args[i]; i++) mark_atom(e->Iex.CCall.args[i]);
      break;
   default: break;
   }
}

static Int cur_stmt; /* statement being analysed (for add_slot) */

static void add_slot(Insn* in, UInt kind, UInt size, UInt flags, IRExpr* addr, IRExpr* guard) {
   if (in->nslots >= CTP_MAX_MEM_SLOTS) { in->mem_truncated = True; return; }
   in->slot_kind[in->nslots] = (UChar)kind;
   in->slot_flags[in->nslots] = (UChar)flags;
   in->slot_size[in->nslots] = (UShort)(size > 0xffff ? 0xffff : size);
   in->slot_stmt[in->nslots] = cur_stmt;
   in->slot_addr[in->nslots] = addr;
   in->slot_guard[in->nslots] = guard;
   in->nslots++;
}

static Bool same_atom(const IRExpr* a, const IRExpr* b) {
   if (a->tag == Iex_RdTmp && b->tag == Iex_RdTmp) return a->Iex.RdTmp.tmp == b->Iex.RdTmp.tmp;
   if (a->tag == Iex_Const && b->tag == Iex_Const)
      return a->Iex.Const.con->tag == Ico_U64 && b->Iex.Const.con->tag == Ico_U64 &&
             a->Iex.Const.con->Ico.U64 == b->Iex.Const.con->Ico.U64;
   return False;
}

static Bool guard_is_true(const IRExpr* g) {
   return g->tag == Iex_Const && g->Iex.Const.con->tag == Ico_U1 && g->Iex.Const.con->Ico.U1;
}

static Bool str_contains(const HChar* s, const HChar* sub) {
   return s && VG_(strstr)(s, sub) != NULL;
}

/* ---------------------------------------------------------------------------------------------
   Recovering register reads hidden by VEX's front-end cleanup (only when --ctrace-raw-ir=no;
   with the default raw IR no temporary crosses an instruction and this pass finds nothing).

   The cleanup replaces a GET of a guest register that was already PUT or GET earlier in the block
   by the value bound to it, so the reading instruction uses a temporary of an earlier instruction
   instead of a GET. PUTs are never removed. We replay the same environment (key = guest-state byte range of a GET or
   PUT, value = the atom bound to it) over the block: every use in instruction j of a temporary
   defined by another instruction must come from such a replaced GET, and the keys currently bound
   to that temporary are the candidate registers. When several registers hold the same value (after
   `mov rbx, rax`) all of them are reported; uses as flag-thunk arguments of the amd64g_calculate_*
   helpers count as FLAGS, other uses prefer the non-flag registers. GETs replaced by constants
   (the register was last written with an immediate in the same block) cannot be recovered. */

typedef struct { Int lo, hi; Bool is_tmp; IRTemp tmp; } EnvEnt;
static EnvEnt genv[512];
static Int genv_n;
static Int* def_insn = NULL; /* temp -> defining instruction index */
static Int def_insn_cap = 0;

static void genv_invalidate(Int lo, Int hi) {
   Int m = 0;
   for (Int k = 0; k < genv_n; k++)
      if (genv[k].hi < lo || genv[k].lo > hi) genv[m++] = genv[k];
   genv_n = m;
}
static Bool genv_has_key(Int lo, Int hi) {
   for (Int k = 0; k < genv_n; k++)
      if (genv[k].lo == lo && genv[k].hi == hi) return True;
   return False;
}
static void genv_bind(Int lo, Int hi, IRExpr* atom) {
   if (genv_n >= (Int)(sizeof genv / sizeof genv[0])) genv_n = 0; /* cannot happen in practice */
   genv[genv_n].lo = lo;
   genv[genv_n].hi = hi;
   genv[genv_n].is_tmp = atom->tag == Iex_RdTmp;
   genv[genv_n].tmp = atom->tag == Iex_RdTmp ? atom->Iex.RdTmp.tmp : IRTemp_INVALID;
   genv_n++;
}

static Bool is_flags_helper(IRExpr* e) {
   return e->tag == Iex_CCall &&
          (VG_(strncmp)(e->Iex.CCall.cee->name, "amd64g_calculate_rflags", 23) == 0 ||
           VG_(strcmp)(e->Iex.CCall.cee->name, "amd64g_calculate_condition") == 0);
}

static ULong resolve_use(IRTemp t, Bool flags_ctx) {
   ULong m = 0;
   for (Int k = 0; k < genv_n; k++)
      if (genv[k].is_tmp && genv[k].tmp == t) m |= regs_of_range(genv[k].lo, genv[k].hi - genv[k].lo + 1);
   ULong flags = 1ULL << CTP_REG_FLAGS;
   if (flags_ctx && (m & flags)) return flags;
   if (m & ~flags) return m & ~flags;
   return m;
}

static ULong cross_use(IRExpr* a, Int j, Bool flags_ctx) {
   if (a == NULL || a->tag != Iex_RdTmp) return 0;
   IRTemp t = a->Iex.RdTmp.tmp;
   if (t >= (IRTemp)def_insn_cap || def_insn[t] == j) return 0;
   return resolve_use(t, flags_ctx);
}

static ULong expr_cross_uses(IRExpr* e, Int j) {
   ULong m = 0;
   switch (e->tag) {
   case Iex_RdTmp: m |= cross_use(e, j, False); break;
   case Iex_Unop: m |= cross_use(e->Iex.Unop.arg, j, False); break;
   case Iex_Binop:
      m |= cross_use(e->Iex.Binop.arg1, j, False) | cross_use(e->Iex.Binop.arg2, j, False);
      break;
   case Iex_Triop:
      m |= cross_use(e->Iex.Triop.details->arg1, j, False) |
           cross_use(e->Iex.Triop.details->arg2, j, False) |
           cross_use(e->Iex.Triop.details->arg3, j, False);
      break;
   case Iex_Qop:
      m |= cross_use(e->Iex.Qop.details->arg1, j, False) |
           cross_use(e->Iex.Qop.details->arg2, j, False) |
           cross_use(e->Iex.Qop.details->arg3, j, False) |
           cross_use(e->Iex.Qop.details->arg4, j, False);
      break;
   case Iex_ITE:
      m |= cross_use(e->Iex.ITE.cond, j, False) | cross_use(e->Iex.ITE.iftrue, j, False) |
           cross_use(e->Iex.ITE.iffalse, j, False);
      break;
   case Iex_Load: m |= cross_use(e->Iex.Load.addr, j, False); break;
   case Iex_GetI: m |= cross_use(e->Iex.GetI.ix, j, False); break;
   case Iex_CCall: {
      Bool fl = is_flags_helper(e);
      for (Int k = 0; e->Iex.CCall.args[k]; k++) m |= cross_use(e->Iex.CCall.args[k], j, fl);
      break;
   }
   default: break;
   }
   return m;
}

static void note_def(IRTemp t, Int j) {
   if (t != IRTemp_INVALID && t < (IRTemp)def_insn_cap) def_insn[t] = j;
}

static void reconstruct_reads(IRSB* sb) {
   IRTypeEnv* tyenv = sb->tyenv;
   if (def_insn_cap < tyenv->types_used) {
      def_insn_cap = tyenv->types_used * 2 + 64;
      def_insn = xrealloc(def_insn, def_insn_cap * sizeof(Int));
   }
   for (Int t = 0; t < def_insn_cap; t++) def_insn[t] = -1;
   /* definitions first: a temp belongs to the instruction whose statements define it */
   Int j = -1;
   for (Int i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      switch (st->tag) {
      case Ist_IMark: j++; break;
      case Ist_WrTmp: note_def(st->Ist.WrTmp.tmp, j); break;
      case Ist_LoadG: note_def(st->Ist.LoadG.details->dst, j); break;
      case Ist_CAS:
         note_def(st->Ist.CAS.details->oldLo, j);
         note_def(st->Ist.CAS.details->oldHi, j);
         break;
      case Ist_LLSC: note_def(st->Ist.LLSC.result, j); break;
      case Ist_Dirty: note_def(st->Ist.Dirty.details->tmp, j); break;
      default: break;
      }
   }
   genv_n = 0;
   j = -1;
   for (Int i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      if (st->tag == Ist_IMark) { j++; continue; }
      ULong m = 0;
      switch (st->tag) {
      case Ist_WrTmp: {
         IRExpr* e = st->Ist.WrTmp.data;
         m |= expr_cross_uses(e, j);
         if (e->tag == Iex_Get) {
            Int lo = e->Iex.Get.offset, hi = lo + sizeofIRType(e->Iex.Get.ty) - 1;
            if (!genv_has_key(lo, hi)) genv_bind(lo, hi, IRExpr_RdTmp(st->Ist.WrTmp.tmp));
         }
         break;
      }
      case Ist_Put: {
         m |= cross_use(st->Ist.Put.data, j, False);
         Int lo = st->Ist.Put.offset;
         Int hi = lo + sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Put.data)) - 1;
         genv_invalidate(lo, hi);
         genv_bind(lo, hi, st->Ist.Put.data);
         break;
      }
      case Ist_PutI: {
         IRPutI* pi = st->Ist.PutI.details;
         m |= cross_use(pi->ix, j, False) | cross_use(pi->data, j, False);
         Int lo = pi->descr->base;
         genv_invalidate(lo, lo + pi->descr->nElems * sizeofIRType(pi->descr->elemTy) - 1);
         break;
      }
      case Ist_Store:
         m |= cross_use(st->Ist.Store.addr, j, False) | cross_use(st->Ist.Store.data, j, False);
         break;
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         m |= cross_use(sg->addr, j, False) | cross_use(sg->data, j, False) |
              cross_use(sg->guard, j, False);
         break;
      }
      case Ist_LoadG: {
         IRLoadG* lg = st->Ist.LoadG.details;
         m |= cross_use(lg->addr, j, False) | cross_use(lg->alt, j, False) |
              cross_use(lg->guard, j, False);
         break;
      }
      case Ist_CAS: {
         IRCAS* c = st->Ist.CAS.details;
         m |= cross_use(c->addr, j, False) | cross_use(c->expdLo, j, False) |
              cross_use(c->expdHi, j, False) | cross_use(c->dataLo, j, False) |
              cross_use(c->dataHi, j, False);
         break;
      }
      case Ist_LLSC:
         m |= cross_use(st->Ist.LLSC.addr, j, False) | cross_use(st->Ist.LLSC.storedata, j, False);
         break;
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         m |= cross_use(d->guard, j, False) | cross_use(d->mAddr, j, False);
         for (Int k = 0; d->args[k]; k++)
            if (!is_IRExpr_VECRET_or_GSPTR(d->args[k])) m |= cross_use(d->args[k], j, False);
         Bool writes = False;
         for (Int k = 0; k < d->nFxState; k++)
            if (d->fxState[k].fx == Ifx_Write || d->fxState[k].fx == Ifx_Modify) writes = True;
         if (writes) genv_n = 0;
         break;
      }
      case Ist_Exit: m |= cross_use(st->Ist.Exit.guard, j, False); break;
      default: break;
      }
      if (j >= 0 && m) insns[j].rd |= m;
   }
   if (j >= 0) insns[j].rd |= cross_use(sb->next, j, False);
   /* The instruction pointer is not a dependency. */
   for (Int n = 0; n < n_insns; n++) insns[n].rd &= ~(1ULL << CTP_REG_RIP);
}

/* Zero/ones idioms: `pxor x,x`, `sub r,r`, `pcmpeqd x,x`... give a result that does not depend on
   the register, and CPUs break the dependency. Such an op whose two operands are GETs of the same
   register does not make that register a source. */
static ULong* tget_mask = NULL; /* temp -> registers read by the GET defining it */
static UInt* tget_key = NULL;   /* temp -> (offset << 8 | size) of that GET, 0 if none */
static Int tget_cap = 0;

static Bool is_idiom_op(IROp op) {
   switch (op) {
   case Iop_Xor8: case Iop_Xor16: case Iop_Xor32: case Iop_Xor64: case Iop_Sub8: case Iop_Sub16:
   case Iop_Sub32: case Iop_Sub64: case Iop_XorV128: case Iop_XorV256: case Iop_Sub8x16:
   case Iop_Sub16x8: case Iop_Sub32x4: case Iop_Sub64x2: case Iop_Sub8x32: case Iop_Sub16x16:
   case Iop_Sub32x8: case Iop_Sub64x4: case Iop_CmpEQ8x16: case Iop_CmpEQ16x8: case Iop_CmpEQ32x4:
   case Iop_CmpEQ64x2: case Iop_CmpEQ8x32: case Iop_CmpEQ16x16: case Iop_CmpEQ32x8:
   case Iop_CmpEQ64x4:
      return True;
   default:
      return False;
   }
}

static void add_get_reads(IRSB* sb, Insn* in) {
   /* mark temps consumed by idioms */
   for (Int i = in->first_stmt; i < in->end_stmt; i++) {
      IRStmt* st = sb->stmts[i];
      if (st->tag != Ist_WrTmp || st->Ist.WrTmp.data->tag != Iex_Binop) continue;
      IRExpr* e = st->Ist.WrTmp.data;
      IRExpr* a = e->Iex.Binop.arg1;
      IRExpr* b = e->Iex.Binop.arg2;
      if (!is_idiom_op(e->Iex.Binop.op) || a->tag != Iex_RdTmp || b->tag != Iex_RdTmp) continue;
      IRTemp ta = a->Iex.RdTmp.tmp, tb = b->Iex.RdTmp.tmp;
      if (ta >= (IRTemp)tget_cap || tb >= (IRTemp)tget_cap) continue;
      if (tget_key[ta] != 0 && tget_key[ta] == tget_key[tb]) tget_mask[ta] = tget_mask[tb] = 0;
   }
   for (Int i = in->first_stmt; i < in->end_stmt; i++) {
      IRStmt* st = sb->stmts[i];
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Get &&
          st->Ist.WrTmp.tmp < (IRTemp)tget_cap)
         in->rd |= tget_mask[st->Ist.WrTmp.tmp];
   }
}

/* The block's final destination when known at translation time. Without VEX's cleanup the
   block ends with `next = GET(IP)`, so follow it to the last PUT of the guest IP. */
static Bool block_next_const(IRSB* sb, Addr* out) {
   IRExpr* nx = sb->next;
   if (nx->tag == Iex_Const) { *out = nx->Iex.Const.con->Ico.U64; return True; }
   if (nx->tag != Iex_RdTmp) return False;
   IRTemp t = nx->Iex.RdTmp.tmp;
   IRExpr* ip = NULL;
   for (Int i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      if (st->tag == Ist_Put && st->Ist.Put.offset == sb->offsIP) ip = st->Ist.Put.data;
      if (st->tag == Ist_WrTmp && st->Ist.WrTmp.tmp == t) {
         IRExpr* e = st->Ist.WrTmp.data;
         if (e->tag == Iex_Get && e->Iex.Get.offset == sb->offsIP && ip && ip->tag == Iex_Const) {
            *out = ip->Iex.Const.con->Ico.U64;
            return True;
         }
         return False;
      }
   }
   return False;
}

/* First pass over the block: instruction boundaries, registers, memory slots, work. */
static void analyse_block(IRSB* sb) {
   IRTypeEnv* tyenv = sb->tyenv;
   n_insns = 0;
   if (tmark_cap < tyenv->types_used) {
      tmark_cap = tyenv->types_used * 2 + 64;
      tmark = xrealloc(tmark, tmark_cap);
   }
   if (tget_cap < tyenv->types_used) {
      tget_cap = tyenv->types_used * 2 + 64;
      tget_mask = xrealloc(tget_mask, tget_cap * sizeof(ULong));
      tget_key = xrealloc(tget_key, tget_cap * sizeof(UInt));
   }
   VG_(memset)(tget_key, 0, tyenv->types_used * sizeof(UInt));
   Insn* in = NULL;
   for (Int i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      if (st->tag == Ist_IMark) {
         if (in) in->end_stmt = i;
         tl_assert(n_insns < MAX_INSNS);
         in = &insns[n_insns++];
         VG_(memset)(in, 0, sizeof *in);
         in->pc = st->Ist.IMark.addr;
         in->len = st->Ist.IMark.len;
         in->first_stmt = i;
         cur_gen++;
         continue;
      }
      if (!in) continue;
      cur_stmt = i;
      switch (st->tag) {
      case Ist_WrTmp: {
         IRExpr* e = st->Ist.WrTmp.data;
         ULong r = expr_reads(e);
         IRTemp t = st->Ist.WrTmp.tmp;
         if (e->tag == Iex_Get && t < (IRTemp)tget_cap) {
            /* GET reads are added after the zero-idiom check below */
            tget_mask[t] = r;
            tget_key[t] = ((UInt)e->Iex.Get.offset << 8) | (UInt)sizeofIRType(e->Iex.Get.ty);
         } else {
            in->rd |= r;
         }
         if (e->tag == Iex_Load)
            add_slot(in, CTP_MEM_LOAD, sizeofIRType(e->Iex.Load.ty), 0, e->Iex.Load.addr, NULL);
         break;
      }
      case Ist_Put: {
         Int sz = sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Put.data));
         ULong m = regs_of_range(st->Ist.Put.offset, sz);
         in->wr |= m;
         note_written(st->Ist.Put.offset, sz);
         break;
      }
      case Ist_PutI: {
         /* the element written is not known statically: do not treat the array as written */
         IRRegArray* d = st->Ist.PutI.details->descr;
         in->wr |= regs_of_range(d->base, d->nElems * sizeofIRType(d->elemTy));
         break;
      }
      case Ist_Store:
         add_slot(in, CTP_MEM_STORE, sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)), 0,
                  st->Ist.Store.addr, NULL);
         break;
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         add_slot(in, CTP_MEM_STORE, sizeofIRType(typeOfIRExpr(tyenv, sg->data)),
                  CTP_MF_GUARDED, sg->addr, sg->guard);
         break;
      }
      case Ist_LoadG: {
         IRType tres, targ;
         IRLoadG* lg = st->Ist.LoadG.details;
         typeOfIRLoadGOp(lg->cvt, &tres, &targ);
         add_slot(in, CTP_MEM_LOAD, sizeofIRType(targ), CTP_MF_GUARDED, lg->addr, lg->guard);
         break;
      }
      case Ist_CAS: {
         /* A locked read-modify-write is a load of the old value followed by a CAS at the same
            address: the CAS then only adds the store. A bare CAS (cmpxchg) is load + store. */
         IRCAS* c = st->Ist.CAS.details;
         UInt sz = sizeofIRType(typeOfIRExpr(tyenv, c->dataLo)) * (c->dataHi ? 2 : 1);
         Bool loaded = False;
         for (UInt k = 0; k < in->nslots; k++)
            if (in->slot_kind[k] == CTP_MEM_LOAD && same_atom(in->slot_addr[k], c->addr))
               loaded = True;
         if (!loaded) add_slot(in, CTP_MEM_LOAD, sz, 0, c->addr, NULL);
         add_slot(in, CTP_MEM_STORE, sz, 0, c->addr, NULL);
         in->has_cas = True;
         break;
      }
      case Ist_LLSC: {
         if (st->Ist.LLSC.storedata == NULL)
            add_slot(in, CTP_MEM_LOAD, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)), 0,
                     st->Ist.LLSC.addr, NULL);
         else
            add_slot(in, CTP_MEM_STORE,
                     sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)), 0,
                     st->Ist.LLSC.addr, NULL);
         break;
      }
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         in->has_dirty = True;
         if (str_contains(d->cee->name, "CPUID")) in->has_cpuid = True;
         for (Int k = 0; k < d->nFxState; k++) {
            for (Int r = 0; r <= d->fxState[k].nRepeats; r++) {
               Int off = d->fxState[k].offset + r * d->fxState[k].repeatLen;
               ULong m = regs_of_range(off, d->fxState[k].size);
               if (d->fxState[k].fx == Ifx_Read || d->fxState[k].fx == Ifx_Modify) in->rd |= m;
               if (d->fxState[k].fx == Ifx_Write || d->fxState[k].fx == Ifx_Modify) in->wr |= m;
            }
         }
         Bool guarded = !guard_is_true(d->guard);
         UInt fl = CTP_MF_HELPER | (guarded ? CTP_MF_GUARDED : 0);
         IRExpr* g = guarded ? d->guard : NULL;
         if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
            add_slot(in, CTP_MEM_LOAD, d->mSize, fl, d->mAddr, g);
         if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
            add_slot(in, CTP_MEM_STORE, d->mSize, fl, d->mAddr, g);
         break;
      }
      case Ist_MBE:
         in->has_mbe = True;
         break;
      case Ist_Exit: {
         in->has_exit = True;
         IRConst* c = st->Ist.Exit.dst;
         Addr dst = c->tag == Ico_U64 ? c->Ico.U64 : 0;
         if (dst == in->pc) in->exit_to_self = True;
         if (st->Ist.Exit.jk == Ijk_Boring && dst != in->pc) {
            if (in->n_boring_exits == 0) in->boring_exit_dst = dst;
            in->n_boring_exits++;
         }
         break;
      }
      default:
         break;
      }
   }
   if (in) in->end_stmt = sb->stmts_used;
   for (Int n = 0; n < n_insns; n++) add_get_reads(sb, &insns[n]);
   reconstruct_reads(sb);
   /* rep-prefixed string ops re-execute themselves: an exit to their own address, or (for plain
      rep) a block end that jumps back to the instruction. A failing CAS also re-executes its
      instruction that way; that is not a rep. */
   for (Int n = 0; n < n_insns; n++) {
      in = &insns[n];
      Bool last = n == n_insns - 1;
      Addr nx = 0;
      Bool end_self = last && sb->jumpkind == Ijk_Boring && block_next_const(sb, &nx) &&
                      nx == in->pc;
      in->is_rep = !in->has_cas && (in->exit_to_self || end_self);
   }

   /* Work: ops that compute neither addresses nor the stack pointer (nor, for rep-prefixed
      string instructions, the rsi/rdi/rcx updates). */
   const Int off_rsp = GOFF(guest_RSP);
   for (Int n = 0; n < n_insns; n++) {
      in = &insns[n];
      for (Int i = in->first_stmt; i < in->end_stmt; i++) {
         IRStmt* st = sb->stmts[i];
         if (st->tag == Ist_WrTmp) tmark[st->Ist.WrTmp.tmp] = 0;
      }
      for (Int i = in->first_stmt; i < in->end_stmt; i++) {
         IRStmt* st = sb->stmts[i];
         switch (st->tag) {
         case Ist_WrTmp:
            if (st->Ist.WrTmp.data->tag == Iex_Load) mark_atom(st->Ist.WrTmp.data->Iex.Load.addr);
            break;
         case Ist_Store: mark_atom(st->Ist.Store.addr); break;
         case Ist_StoreG: mark_atom(st->Ist.StoreG.details->addr); break;
         case Ist_LoadG: mark_atom(st->Ist.LoadG.details->addr); break;
         case Ist_CAS: mark_atom(st->Ist.CAS.details->addr); break;
         case Ist_Dirty: mark_atom(st->Ist.Dirty.details->mAddr); break;
         case Ist_Put: {
            Int o = st->Ist.Put.offset;
            if (o == off_rsp) mark_atom(st->Ist.Put.data);
            if (in->is_rep &&
                (o == GOFF(guest_RSI) || o == GOFF(guest_RDI) || o == GOFF(guest_RCX)))
               mark_atom(st->Ist.Put.data);
            break;
         }
         case Ist_Exit:
            if (in->is_rep) mark_atom(st->Ist.Exit.guard); /* loop control */
            break;
         default: break;
         }
      }
      for (Int i = in->end_stmt - 1; i >= in->first_stmt; i--) {
         IRStmt* st = sb->stmts[i];
         if (st->tag == Ist_WrTmp && tmark[st->Ist.WrTmp.tmp]) mark_expr_args(st->Ist.WrTmp.data);
      }
      Int rank = R_NONE;
      for (Int i = in->first_stmt; i < in->end_stmt; i++) {
         IRStmt* st = sb->stmts[i];
         if (st->tag == Ist_WrTmp && !tmark[st->Ist.WrTmp.tmp]) {
            Int r = expr_rank(st->Ist.WrTmp.data);
            if (r > rank) rank = r;
         }
      }
      in->work_rank = rank;
   }
}

/* Second pass: class, branch kind and target of every instruction. */
static void classify_block(IRSB* sb) {
   for (Int n = 0; n < n_insns; n++) {
      Insn* in = &insns[n];
      Bool last = (n == n_insns - 1);
      Addr fall = in->pc + in->len;
      Bool next_known = True;
      Addr next = 0;
      IRJumpKind jk = Ijk_Boring;
      if (!last) {
         next = insns[n + 1].pc;
      } else {
         jk = sb->jumpkind;
         next_known = block_next_const(sb, &next);
      }
      in->bkind = CTP_BRANCH_NONE;
      in->target = 0;
      in->sflags = 0;
      if (in->is_rep) {
         in->sflags |= CTP_SF_REP;
      } else if (in->n_boring_exits > 0) {
         Addr t = in->boring_exit_dst;
         if (t == fall) t = next_known ? next : 0;
         if (t != fall) {
            in->bkind = CTP_BRANCH_DIRECT_CONDITIONAL;
            in->target = t;
         }
      } else if (last && jk == Ijk_Call) {
         in->bkind = CTP_BRANCH_CALL;
         if (next_known) in->target = next;
         else in->sflags |= CTP_SF_TARGET_DYNAMIC;
      } else if (last && jk == Ijk_Ret) {
         in->bkind = CTP_BRANCH_RETURN;
         in->sflags |= CTP_SF_TARGET_DYNAMIC;
      } else if (jk == Ijk_Boring) {
         if (!next_known) {
            in->bkind = CTP_BRANCH_INDIRECT;
            in->sflags |= CTP_SF_TARGET_DYNAMIC;
         } else if (next != fall) {
            in->bkind = CTP_BRANCH_DIRECT_UNCONDITIONAL;
            in->target = next;
         }
      }
      Bool is_syscall = last && (jk == Ijk_Sys_syscall || jk == Ijk_Sys_int32 ||
                                 jk == Ijk_Sys_int128 || jk == Ijk_Sys_int129 ||
                                 jk == Ijk_Sys_int130 || jk == Ijk_Sys_int145 ||
                                 jk == Ijk_Sys_int210 || jk == Ijk_Sys_sysenter);
      if (is_syscall) {
         in->sflags |= CTP_SF_SYSCALL;
         /* Linux syscall ABI: the kernel's reads and writes are not in the IR. */
         in->rd |= (1ULL << (CTP_REG_RAX + 0)) | (1ULL << (CTP_REG_RAX + 7)) |
                   (1ULL << (CTP_REG_RAX + 6)) | (1ULL << (CTP_REG_RAX + 2)) |
                   (1ULL << (CTP_REG_RAX + 10)) | (1ULL << (CTP_REG_RAX + 8)) |
                   (1ULL << (CTP_REG_RAX + 9));
         in->wr |= (1ULL << (CTP_REG_RAX + 0)) | (1ULL << (CTP_REG_RAX + 1)) |
                   (1ULL << (CTP_REG_RAX + 11));
      }
      if (in->has_cas) in->sflags |= CTP_SF_ATOMIC;
      if (in->mem_truncated) in->sflags |= CTP_SF_MEM_TRUNCATED;

      Bool vec = ((in->rd | in->wr) >> CTP_REG_VECTOR0) & 0xffffULL;
      Bool x87 = ((in->rd | in->wr) >> CTP_REG_X87) & 1ULL;
      Bool flags_w = (in->wr >> CTP_REG_FLAGS) & 1ULL;
      Bool has_load = False, has_store = False;
      for (UInt s = 0; s < in->nslots; s++) {
         if (in->slot_kind[s] == CTP_MEM_LOAD) has_load = True;
         else has_store = True;
      }
      if (in->bkind != CTP_BRANCH_NONE) {
         in->cls = CTP_CLASS_BRANCH;
      } else if (in->has_mbe || in->has_cas || in->has_cpuid || is_syscall ||
                 (last && (jk == Ijk_SigTRAP))) {
         in->cls = CTP_CLASS_FENCE;
      } else if (in->wr == 0 && in->nslots == 0 && !in->has_exit && !in->has_dirty) {
         in->cls = CTP_CLASS_NOP;
         in->rd = 0; /* e.g. the unused address operand of a multi-byte nop */
      } else {
         Int rank = in->work_rank;
         if (rank == R_NONE && flags_w) rank = R_ALU;
         if (rank == R_ALU && vec) rank = R_SIMD;
         if (rank == R_ALU && x87) rank = R_FPADD;
         if (rank != R_NONE) in->cls = rank_class[rank];
         else if (has_store) in->cls = CTP_CLASS_STORE;
         else if (has_load) in->cls = CTP_CLASS_LOAD;
         else if (vec) in->cls = CTP_CLASS_SIMD;
         else if (x87) in->cls = CTP_CLASS_FP_ADD;
         else in->cls = CTP_CLASS_INT_ALU;
      }
   }
}

static UInt build_descriptor(const Insn* in, UChar* d) {
   VG_(memset)(d, 0, CTP_STATIC_FIXED);
   put_u8(d + 4, in->len > 255 ? 255 : in->len);
   put_u8(d + 5, in->cls);
   put_u8(d + 6, in->bkind);
   put_u8(d + 7, in->sflags);
   put_u64(d + 8, in->pc);
   put_u64(d + 16, in->target);
   UInt nsrc = 0, ndst = 0;
   UChar* p = d + CTP_STATIC_FIXED;
   for (UInt r = 1; r < CTP_REG_COUNT; r++)
      if ((in->rd >> r) & 1) { *p++ = (UChar)r; nsrc++; }
   for (UInt r = 1; r < CTP_REG_COUNT; r++)
      if ((in->wr >> r) & 1) { *p++ = (UChar)r; ndst++; }
   for (UInt s = 0; s < in->nslots; s++) {
      p[0] = in->slot_kind[s];
      p[1] = in->slot_flags[s];
      put_u16(p + 2, in->slot_size[s]);
      p += 4;
   }
   put_u8(d + 24, nsrc);
   put_u8(d + 25, ndst);
   put_u8(d + 26, in->nslots);
   return (UInt)(p - d);
}

static const HChar* class_names[] = {"int-alu", "int-mul", "int-div", "fp-add", "fp-mul",
                                     "fp-div", "simd", "load", "store", "branch", "fence", "nop"};
static const HChar* branch_names[] = {"-", "jmp", "jcc", "ind", "call", "ret"};

static void dump_insn(const Insn* in) {
   VG_(printf)("  %#lx len %u %-7s %-4s tgt %#lx flags %#x id %u  src:", in->pc, in->len,
               class_names[in->cls], branch_names[in->bkind], in->target, in->sflags, in->id);
   for (UInt r = 1; r < CTP_REG_COUNT; r++)
      if ((in->rd >> r) & 1) VG_(printf)(" %u", r);
   VG_(printf)("  dst:");
   for (UInt r = 1; r < CTP_REG_COUNT; r++)
      if ((in->wr >> r) & 1) VG_(printf)(" %u", r);
   VG_(printf)("  mem:");
   for (UInt s = 0; s < in->nslots; s++)
      VG_(printf)(" %s%u%s", in->slot_kind[s] == CTP_MEM_LOAD ? "L" : "S", in->slot_size[s],
                  in->slot_flags[s] & CTP_MF_GUARDED ? "?" : "");
   VG_(printf)("\n");
}

/* ---------------------------------------------------------------------------------------------
   IR building helpers */
static IRSB* out_sb;

static IRExpr* mkU64(ULong v) { return IRExpr_Const(IRConst_U64(v)); }
static IRExpr* mkU32(UInt v) { return IRExpr_Const(IRConst_U32(v)); }
static void addst(IRStmt* st) { addStmtToIRSB(out_sb, st); }
static IRTemp assign(IRType ty, IRExpr* e) {
   IRTemp t = newIRTemp(out_sb->tyenv, ty);
   addst(IRStmt_WrTmp(t, e));
   return t;
}
static IRExpr* rd(IRTemp t) { return IRExpr_RdTmp(t); }
static IRTemp load64(const void* hostaddr) {
   return assign(Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkU64((ULong)(HWord)hostaddr)));
}
static void add_to_counter(ULong* ctr, ULong k) {
   IRTemp t = load64(ctr);
   IRTemp u = assign(Ity_I64, IRExpr_Binop(Iop_Add64, rd(t), mkU64(k)));
   addst(IRStmt_Store(Iend_LE, mkU64((ULong)(HWord)ctr), rd(u)));
}
static void store_at(IRTemp base, UInt off, IRExpr* data) {
   IRTemp a = assign(Ity_I64, IRExpr_Binop(Iop_Add64, rd(base), mkU64(off)));
   addst(IRStmt_Store(Iend_LE, rd(a), data));
}
static void dirty_call(IRTemp guard, const HChar* name, void* fn, IRExpr** args) {
   IRDirty* d = unsafeIRDirty_0_N(0, name, VG_(fnptr_to_fnentry)(fn), args);
   d->guard = rd(guard);
   addst(IRStmt_Dirty(d));
}

/* Leaves the block (discarding its translation) unless it was made for mode `m`. */
static void emit_mode_check(UInt m, Addr nraddr, Addr code_start, Int offsIP) {
   IRTemp tm = load64(&ct_mode);
   IRTemp g = assign(Ity_I1, IRExpr_Binop(Iop_CmpNE64, rd(tm), mkU64(m)));
   addst(IRStmt_Put(GOFF(guest_CMSTART), mkU64(code_start)));
   addst(IRStmt_Put(GOFF(guest_CMLEN), mkU64(1)));
   addst(IRStmt_Exit(rd(g), Ijk_InvalICache, IRConst_U64(nraddr), offsIP));
}

/* ---------------------------------------------------------------------------------------------
   Instrumentation */

typedef struct {
   UInt slot_off;  /* offset of the address in the record area */
   IRExpr* addr;   /* atom */
   IRExpr* guard;  /* I1 atom or NULL */
} PendingAccess;

static PendingAccess pend[MAX_INSNS * 4];
static Int n_pend;
static UChar* slot_seen = NULL; /* per (insn, slot) */

static IRTemp rec_base;
static SBInfo* cur_sbinfo;
static Int seg_first; /* first instruction started in the current segment */

/* Queues the address stores of every slot of instruction insn_idx performed by statement i. */
static void record_accesses(Int insn_idx, Int i) {
   Insn* in = &insns[insn_idx];
   for (UInt s = 0; s < in->nslots; s++) {
      if (in->slot_stmt[s] != i) continue;
      slot_seen[insn_idx * CTP_MAX_MEM_SLOTS + s] = 1;
      tl_assert(n_pend < (Int)(sizeof pend / sizeof pend[0]));
      pend[n_pend].slot_off = in->rec_off + 4 + 8 * s;
      pend[n_pend].addr = in->slot_addr[s];
      pend[n_pend].guard = in->slot_guard[s];
      n_pend++;
   }
}

/* Emits the stores for the segment that ends here (before an exit or at the block end). */
static void end_segment(Int cur_insn) {
   Int first = seg_first;
   Int last = cur_insn; /* inclusive; may be < first when no instruction started */
   for (Int k = first; k <= last; k++) {
      Insn* in = &insns[k];
      store_at(rec_base, in->rec_off, mkU32(in->id));
      for (UInt s = 0; s < in->nslots; s++)
         if (!slot_seen[k * CTP_MAX_MEM_SLOTS + s])
            store_at(rec_base, in->rec_off + 4 + 8 * s, mkU64(0));
   }
   for (Int i = 0; i < n_pend; i++) {
      IRExpr* val = pend[i].addr;
      if (pend[i].guard) {
         IRTemp t = assign(Ity_I64, IRExpr_ITE(pend[i].guard, pend[i].addr, mkU64(0)));
         val = rd(t);
      }
      store_at(rec_base, pend[i].slot_off, val);
   }
   n_pend = 0;
   Int k = last - first + 1;
   if (k > 0) {
      Insn* in = &insns[last];
      UInt end = in->rec_off + 4 + 8 * in->nslots;
      IRTemp p = assign(Ity_I64, IRExpr_Binop(Iop_Add64, rd(rec_base), mkU64(end)));
      addst(IRStmt_Store(Iend_LE, mkU64((ULong)(HWord)&ct_buf_ptr), rd(p)));
      add_to_counter(&ct_icount, k);
      add_to_counter(&cur_sbinfo->count, k);
   }
   seg_first = last + 1;
}

static IRSB* instrument_record(IRSB* sbIn, VgCallbackClosure* closure, const VexGuestExtents* vge) {
   analyse_block(sbIn);
   classify_block(sbIn);
   Addr code_start = vge->base[0];

   UInt rec_bytes = 0;
   UChar desc[CTP_STATIC_FIXED + 2 * CTP_REG_COUNT + 4 * CTP_MAX_MEM_SLOTS];
   for (Int n = 0; n < n_insns; n++) {
      Insn* in = &insns[n];
      build_descriptor(in, desc);
      in->id = intern_descriptor(desc, in->pc);
      in->rec_off = rec_bytes;
      rec_bytes += 4 + 8 * in->nslots;
   }
   tl_assert(rec_bytes < BUF_RESERVE / 2);
   if (dump_lo <= code_start && code_start < dump_hi) {
      VG_(printf)("==== ctrace: block %#lx (nraddr %#lx), %d instructions\n", code_start,
                  closure->nraddr, n_insns);
      ppIRSB(sbIn);
      for (Int n = 0; n < n_insns; n++) dump_insn(&insns[n]);
   }
   slot_seen = xrealloc(slot_seen, (SizeT)(n_insns ? n_insns : 1) * CTP_MAX_MEM_SLOTS);
   VG_(memset)(slot_seen, 0, (SizeT)(n_insns ? n_insns : 1) * CTP_MAX_MEM_SLOTS);
   cur_sbinfo = get_sbinfo(n_insns > 0 ? insns[0].pc : code_start);

   out_sb = deepCopyIRSBExceptStmts(sbIn);
   Int i = 0;
   for (; i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark; i++) addst(sbIn->stmts[i]);

   /* Preamble: region events, mode check, buffer space, record base. */
   {
      IRTemp ic = load64(&ct_icount);
      IRTemp ne = load64(&ct_next_event);
      IRTemp g = assign(Ity_I1, IRExpr_Binop(Iop_CmpLE64U, rd(ne), rd(ic)));
      dirty_call(g, "ct_event_helper", ct_event_helper, mkIRExprVec_1(mkU64(code_start)));
      emit_mode_check(MODE_RECORD, closure->nraddr, code_start, sbIn->offsIP);
      IRTemp p = load64(&ct_buf_ptr);
      ULong limit = (ULong)(HWord)(buf_end - BUF_RESERVE - rec_bytes);
      IRTemp g2 = assign(Ity_I1, IRExpr_Binop(Iop_CmpLT64U, mkU64(limit), rd(p)));
      dirty_call(g2, "ct_flush_helper", ct_flush_helper, mkIRExprVec_0());
      rec_base = load64(&ct_buf_ptr);
   }

   n_pend = 0;
   seg_first = 0;
   Int cur = -1;
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) cur++;
      else if (cur >= 0 && insns[cur].nslots > 0) record_accesses(cur, i);
      if (st->tag == Ist_Exit && cur >= 0) end_segment(cur);
      addst(st);
   }
   end_segment(cur);
   return out_sb;
}

static IRSB* instrument_ff(IRSB* sbIn, VgCallbackClosure* closure, const VexGuestExtents* vge) {
   Addr code_start = vge->base[0];
   Int total = 0;
   for (Int i = 0; i < sbIn->stmts_used; i++)
      if (sbIn->stmts[i]->tag == Ist_IMark) total++;

   out_sb = deepCopyIRSBExceptStmts(sbIn);
   Int i = 0;
   for (; i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark; i++) addst(sbIn->stmts[i]);
   {
      IRTemp ic = load64(&ct_icount);
      IRTemp sum = assign(Ity_I64, IRExpr_Binop(Iop_Add64, rd(ic), mkU64(total)));
      IRTemp ne = load64(&ct_next_event);
      IRTemp g = assign(Ity_I1, IRExpr_Binop(Iop_CmpLT64U, rd(ne), rd(sum)));
      dirty_call(g, "ct_ff_trigger", ct_ff_trigger, mkIRExprVec_0());
      emit_mode_check(MODE_FF, closure->nraddr, code_start, sbIn->offsIP);
   }
   Int pending = 0;
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) pending++;
      if (st->tag == Ist_Exit && pending > 0) {
         add_to_counter(&ct_icount, pending);
         pending = 0;
      }
      addst(st);
   }
   if (pending > 0) add_to_counter(&ct_icount, pending);
   return out_sb;
}

static IRSB* ct_instrument(VgCallbackClosure* closure, IRSB* sbIn, const VexGuestLayout* layout,
                           const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                           IRType gWordTy, IRType hWordTy) {
   if (gWordTy != hWordTy) VG_(tool_panic)("host/guest word size mismatch");
   IRSB* out;
   if (ct_mode == MODE_RECORD) {
      n_translations_rec++;
      out = instrument_record(sbIn, closure, vge);
   } else {
      n_translations_ff++;
      out = instrument_ff(sbIn, closure, vge);
   }
   if (clo_reoptimize && saved_iropt_level > 0) {
      Int lvl = vex_control.iropt_level;
      vex_control.iropt_level = saved_iropt_level;
      out = do_iropt_BB(out, guest_amd64_spechelper, guest_amd64_state_requires_precise_mem_exns,
                        VG_(clo_vex_control).iropt_register_updates_default, vge->base[0],
                        VexArchAMD64);
      vex_control.iropt_level = lvl;
   }
   return out;
}

/* ---------------------------------------------------------------------------------------------
   Options, init, fini */

static Bool ct_process_cmd_line_option(const HChar* arg) {
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

static void ct_print_usage(void) {
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

static void ct_print_debug_usage(void) {
   VG_(printf)(
      "    --ctrace-dump-ir=LO-HI    print IR and static info of blocks starting in [LO,HI)\n"
      "    --ctrace-reoptimize=no    do not re-optimise instrumented IR (slow; debugging)\n"
      "    --ctrace-raw-ir=no        let VEX pre-clean blocks (register reads are then\n"
      "                              reconstructed heuristically; debugging)\n"
      "    --ctrace-stats=yes        print statistics at exit\n");
}

static void write_stream_header(void) {
   /* argv of the client, NUL separated */
   SizeT cl = VG_(strlen)(VG_(args_the_exename)) + 1;
   Word nargs = VG_(sizeXA)(VG_(args_for_client));
   for (Word i = 0; i < nargs; i++)
      cl += VG_(strlen)(*(HChar**)VG_(indexXA)(VG_(args_for_client), i)) + 1;
   SizeT total = CTP_STREAM_HEADER_FIXED + cl;
   UChar* h = VG_(calloc)("ct.hdr", 1, total);
   VG_(memcpy)(h, CTP_MAGIC, CTP_MAGIC_BYTES);
   put_u32(h + 8, CTP_VERSION);
   put_u32(h + 12, (UInt)total);
   put_u32(h + 16, CTP_ISA_AMD64);
   put_u32(h + 20, (UInt)VG_(getpid)());
   put_u64(h + 24, (ULong)clo_skip);
   put_u64(h + 32, (ULong)clo_warmup);
   put_u64(h + 40, (ULong)clo_length);
   put_u64(h + 48, clo_interval > 0 ? (ULong)clo_interval : (ULong)(clo_warmup + clo_length));
   put_u32(h + 56, (UInt)clo_regions);
   put_u32(h + 60, (UInt)cl);
   UChar* p = h + CTP_STREAM_HEADER_FIXED;
   SizeT n = VG_(strlen)(VG_(args_the_exename)) + 1;
   VG_(memcpy)(p, VG_(args_the_exename), n);
   p += n;
   for (Word i = 0; i < nargs; i++) {
      const HChar* a = *(HChar**)VG_(indexXA)(VG_(args_for_client), i);
      n = VG_(strlen)(a) + 1;
      VG_(memcpy)(p, a, n);
      p += n;
   }
   write_all(h, total);
   VG_(free)(h);
}

/* Option errors found after option parsing: report and stop (VG_(fmsg_bad_option) only stops
   Valgrind while options are being parsed). */
#define BAD_OPTION(opt, ...)                       \
   do {                                            \
      VG_(fmsg_bad_option)(opt, __VA_ARGS__);      \
      VG_(exit)(1);                                \
   } while (0)

static void ct_post_clo_init(void) {
   if (clo_fd >= 0 && clo_out != NULL)
      BAD_OPTION("--ctrace-fd / --ctrace-out", "give only one of them\n");
   if (clo_out != NULL) {
      SysRes r = VG_(open)(clo_out, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
      if (sr_isError(r)) BAD_OPTION("--ctrace-out", "cannot create '%s'\n", clo_out);
      out_fd = VG_(safe_fd)((Int)sr_Res(r));
   } else if (clo_fd >= 0) {
      if (clo_fd > 0x7fffffff || VG_(fcntl)((Int)clo_fd, VKI_F_GETFD, 0) < 0)
         BAD_OPTION("--ctrace-fd", "descriptor %lld is not open\n", clo_fd);
      /* Move the descriptor out of the client's sight so it cannot close or reuse it. */
      Int fd = VG_(safe_fd)((Int)clo_fd);
      out_fd = fd;
      /* A larger pipe buffer means fewer context switches with the reader (fails harmlessly
         when the descriptor is not a pipe or the size is not allowed). */
      (void)VG_(fcntl)(out_fd, VKI_F_SETPIPE_SZ, 1 << 20);
   } else {
      BAD_OPTION("--ctrace-fd / --ctrace-out", "one of them is required\n");
   }
   if (clo_regions != 1 && clo_length == 0)
      BAD_OPTION("--ctrace-regions", "several or unlimited regions need --ctrace-length\n");
   if (clo_interval > 0 && clo_interval < clo_length)
      BAD_OPTION("--ctrace-interval",
                 "must be at least --ctrace-length (measured parts cannot overlap)\n");
   if (clo_dump_ir) {
      HChar* end;
      dump_lo = VG_(strtoull16)(clo_dump_ir, &end);
      if (*end == '-') dump_hi = VG_(strtoull16)(end + 1, &end);
      else dump_hi = dump_lo + 1;
   }

   /* Unoptimised IR for the analysis; we run the optimiser ourselves afterwards. */
   saved_iropt_level = VG_(clo_vex_control).iropt_level;
   VG_(clo_vex_control).iropt_level = 0;
   /* VEX may already be initialised (it copies VG_(clo_vex_control) once): set its live copy. */
   vex_control.iropt_level = 0;
   /* No superblock chasing: VEX would otherwise concatenate blocks and may merge a small
      conditionally-executed block into its predecessor (the "&&" idiom), leaving IMarks of
      instructions that do not execute. Without chasing every IMark of a block executes, in order,
      until the block leaves through an exit. */
   VG_(clo_vex_control).guest_chase = False;
   vex_control.guest_chase = False;

   init_reg_map();
   SizeT cap = (SizeT)clo_buffer_mb << 20;
   buf_start = VG_(malloc)("ct.buf", cap);
   buf_end = buf_start + cap;
   ct_buf_ptr = buf_start;

   write_stream_header();

   region_k = 0;
   prev_region_end = 0;
   compute_region(0);
   if (reg_a == 0) {
      state = ST_PRE;
      ct_mode = MODE_RECORD;
      ct_next_event = 0;
      open_batch(0);
   } else {
      switch_to_ff();
   }
}

static void ct_fini(Int exitcode) {
   if (in_child) return;
   if (state == ST_PRE || state == ST_WARMUP || state == ST_MEASURED)
      process_events(0);
   if (state == ST_PRE) {
      discard_batch();
   } else if (state == ST_WARMUP || state == ST_MEASURED) {
      close_batch(ct_buf_ptr, ct_icount - batch_first);
      emit_region_end(ct_icount, 0, CTP_RF_TRUNCATED);
   }
   state = ST_DONE;
   UChar p[CTP_END_BYTES];
   VG_(memset)(p, 0, sizeof p);
   put_u64(p, ct_icount);
   put_u32(p + 8, (UInt)exitcode);
   put_u32(p + 12, (UInt)regions_completed);
   emit_frame(CTP_FRAME_END, p, sizeof p);
   flush_out();
   if (clo_stats) {
      VG_(umsg)("ctrace: %llu instructions, %llu regions, %u static ids, %llu bytes written\n",
                ct_icount, regions_completed, n_ids, bytes_written);
      VG_(umsg)("ctrace: %llu fast-forward and %llu record translations, %llu flushes\n",
                n_translations_ff, n_translations_rec, n_flushes);
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
