/*
 * ct_instrument.c: the IR pipeline of every translated block. VEX's front-end cleanup is replaced
 * by a plain flattening so that each instruction keeps its own GETs and PUTs; the block is
 * analysed (ct_analyse.c) and instrumented for the current mode (FAST-FORWARD: instruction
 * counting and a region-start check; RECORD: plain stores of ids and addresses into the record
 * buffer, see the overview in ct_main.c); the instrumented block then goes through the normal
 * VEX optimiser.
 */

#include "ct_common.h"
#include "pub_tool_options.h"
#include "pub_tool_machine.h"

#include "ct_instrument.h"
#include "ct_analyse.h"
#include "ct_bbv.h"
#include "ct_output.h"

/* ---------------------------------------------------------------------------------------------
   Configuration, and the run-time state used by generated code (owned by ct_main.c and
   ct_output.c) */
static CtRuntime rt;
static CtIrOptions opt = {True, True, 1, 0}; /* set before any block is translated */
static Int saved_iropt_level = 2;
static CtInstrumentStats stats;

/* ---------------------------------------------------------------------------------------------
   Raw IR: the front-end cleanup replaced by a plain flattening.

   The tool is linked with -Wl,--wrap=do_minimal_initial_iropt_BB. VEX's front end (3.16 and
   later) calls that function on every guest basic block to flatten it, remove redundant GETs and
   propagate copies and constants, before any tool sees the block. That hides the register reads
   of an instruction whose inputs were produced earlier in the same block. The wrapper only
   flattens the block (the rest of VEX needs flat IR), so every instruction keeps its own GETs;
   the instrumented block is optimised fully afterwards (ct_instrument). The cleanup only matters
   to VEX for superblock chasing, which this tool disables. With --ctrace-raw-ir=no the VEX
   function is used and ct_analyse.c's reconstruct_reads() recovers most hidden reads
   heuristically. */
extern IRSB* __real_do_minimal_initial_iropt_BB(IRSB* bb0);

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
   return opt.raw_ir ? flatten_irsb(bb0) : __real_do_minimal_initial_iropt_BB(bb0);
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
   IRTemp tm = load64(rt.mode);
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

static Insn* insns; /* analysis of the block being instrumented */
static Int n_insns;
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
      addst(IRStmt_Store(Iend_LE, mkU64((ULong)(HWord)rt.buf_ptr), rd(p)));
      add_to_counter(rt.icount, k);
      add_to_counter(&cur_sbinfo->count, k);
   }
   seg_first = last + 1;
}

static IRSB* instrument_record(IRSB* sbIn, VgCallbackClosure* closure, const VexGuestExtents* vge) {
   n_insns = ct_analyse_block(sbIn, &insns);
   Addr code_start = vge->base[0];

   UInt rec_bytes = 0;
   UChar desc[CTP_STATIC_FIXED + 2 * CTP_REG_COUNT + 4 * CTP_MAX_MEM_SLOTS];
   for (Int n = 0; n < n_insns; n++) {
      Insn* in = &insns[n];
      ct_build_descriptor(in, desc);
      in->id = ct_out_intern_static(desc, in->pc);
      in->rec_off = rec_bytes;
      rec_bytes += 4 + 8 * in->nslots;
   }
   Addr limit = ct_out_flush_limit(rec_bytes);
   if (opt.dump_lo <= code_start && code_start < opt.dump_hi) {
      VG_(printf)("==== ctrace: block %#lx (nraddr %#lx), %d instructions\n", code_start,
                  closure->nraddr, n_insns);
      ppIRSB(sbIn);
      for (Int n = 0; n < n_insns; n++) ct_dump_insn(&insns[n]);
   }
   slot_seen = xrealloc(slot_seen, (SizeT)(n_insns ? n_insns : 1) * CTP_MAX_MEM_SLOTS);
   VG_(memset)(slot_seen, 0, (SizeT)(n_insns ? n_insns : 1) * CTP_MAX_MEM_SLOTS);
   cur_sbinfo = ct_bbv_get(n_insns > 0 ? insns[0].pc : code_start);

   out_sb = deepCopyIRSBExceptStmts(sbIn);
   Int i = 0;
   for (; i < sbIn->stmts_used && sbIn->stmts[i]->tag != Ist_IMark; i++) addst(sbIn->stmts[i]);

   /* Preamble: region events, mode check, buffer space, record base. */
   {
      IRTemp ic = load64(rt.icount);
      IRTemp ne = load64(rt.next_event);
      IRTemp g = assign(Ity_I1, IRExpr_Binop(Iop_CmpLE64U, rd(ne), rd(ic)));
      dirty_call(g, "ct_event_helper", rt.event_helper, mkIRExprVec_1(mkU64(code_start)));
      emit_mode_check(MODE_RECORD, closure->nraddr, code_start, sbIn->offsIP);
      IRTemp p = load64(rt.buf_ptr);
      IRTemp g2 = assign(Ity_I1, IRExpr_Binop(Iop_CmpLT64U, mkU64(limit), rd(p)));
      dirty_call(g2, "ct_flush_helper", rt.flush_helper, mkIRExprVec_0());
      rec_base = load64(rt.buf_ptr);
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
      IRTemp ic = load64(rt.icount);
      IRTemp sum = assign(Ity_I64, IRExpr_Binop(Iop_Add64, rd(ic), mkU64(total)));
      IRTemp ne = load64(rt.next_event);
      IRTemp g = assign(Ity_I1, IRExpr_Binop(Iop_CmpLT64U, rd(ne), rd(sum)));
      dirty_call(g, "ct_ff_trigger", rt.ff_trigger, mkIRExprVec_0());
      emit_mode_check(MODE_FF, closure->nraddr, code_start, sbIn->offsIP);
   }
   Int pending = 0;
   for (; i < sbIn->stmts_used; i++) {
      IRStmt* st = sbIn->stmts[i];
      if (st->tag == Ist_IMark) pending++;
      if (st->tag == Ist_Exit && pending > 0) {
         add_to_counter(rt.icount, pending);
         pending = 0;
      }
      addst(st);
   }
   if (pending > 0) add_to_counter(rt.icount, pending);
   return out_sb;
}

/* ---------------------------------------------------------------------------------------------
   Entry points */

void ct_instrument_init(const CtIrOptions* options, const CtRuntime* runtime) {
   opt = *options;
   rt = *runtime;

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

   ct_analyse_init();
}

IRSB* ct_instrument(VgCallbackClosure* closure, IRSB* sbIn, const VexGuestLayout* layout,
                    const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy) {
   if (gWordTy != hWordTy) VG_(tool_panic)("host/guest word size mismatch");
   IRSB* out;
   if (*rt.mode == MODE_RECORD) {
      stats.record++;
      out = instrument_record(sbIn, closure, vge);
   } else {
      stats.ff++;
      out = instrument_ff(sbIn, closure, vge);
   }
   if (opt.reoptimize && saved_iropt_level > 0) {
      Int lvl = vex_control.iropt_level;
      vex_control.iropt_level = saved_iropt_level;
      out = do_iropt_BB(out, guest_amd64_spechelper, guest_amd64_state_requires_precise_mem_exns,
                        VG_(clo_vex_control).iropt_register_updates_default, vge->base[0],
                        VexArchAMD64);
      vex_control.iropt_level = lvl;
   }
   return out;
}

CtInstrumentStats ct_instrument_stats(void) { return stats; }
