/*
 * ct_analyse.c: static analysis of each guest instruction of a block, from the block's flat,
 * unoptimised IR (ct_instrument.c arranges for VEX to deliver it so): source and destination
 * registers from GET/PUT offsets in VexGuestAMD64State, memory slots from loads, stores and
 * helper effects, class from the IR operations that do real work, branch kind from the exits and
 * the block's jump kind. Runs at translation time only.
 */

#include "ct_analyse.h"

/* ---------------------------------------------------------------------------------------------
   Guest state -> architectural register map */
static UChar reg_of_byte[sizeof(VexGuestAMD64State)];

static void map_range(Int off, Int size, UChar reg) {
   for (Int i = 0; i < size; i++) reg_of_byte[off + i] = reg;
}

void ct_analyse_init(void) {
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

static Bool temp_live(IRTemp t);               /* see "Flags reads that are not data inputs" */
static Bool atom_value(IRExpr* a, ULong* v);

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
   case Iex_ITE: {
      ULong c;
      if (atom_value(e->Iex.ITE.cond, &c)) /* the arm not chosen is not read */
         m |= cross_use(c ? e->Iex.ITE.iftrue : e->Iex.ITE.iffalse, j, False);
      else
         m |= cross_use(e->Iex.ITE.cond, j, False) | cross_use(e->Iex.ITE.iftrue, j, False) |
              cross_use(e->Iex.ITE.iffalse, j, False);
      break;
   }
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
         if (!temp_live(st->Ist.WrTmp.tmp)) m &= ~(1ULL << CTP_REG_FLAGS); /* see below */
         if (e->tag == Iex_Get) {
            Int lo = e->Iex.Get.offset, hi = lo + sizeofIRType(e->Iex.Get.ty) - 1;
            if (!genv_has_key(lo, hi)) genv_bind(lo, hi, IRExpr_RdTmp(st->Ist.WrTmp.tmp));
         }
         break;
      }
      case Ist_Put: {
         if (st->Ist.Put.offset != GOFF(guest_CC_NDEP)) /* see "Flags reads ..." below */
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

/* ---------------------------------------------------------------------------------------------
   Flags reads that are not data inputs

   VEX describes a partial or conditional flags update by passing the old flags through:
   - a shift or rotate (also shld/shrd) writes its flags thunk as ITE(count != 0, new, GET(old)),
     because a zero count leaves the flags unchanged;
   - inc/dec put the old carry, and rol/ror the old flags, into CC_NDEP (the bits they preserve).
   Neither is a data input on the cores we model: an Arm core (the n1-like preset) has no flags
   input for these at all (`lsl`/`ror` write no flags, and an `add`/`sub` that sets flags sets
   all of NZCV); on x86 cores a select on an immediate count is resolved at decode, and CF is
   renamed apart from the other flags, so inc/dec do not wait for the old carry (x86 cores may
   merge the SZAP that rol/ror preserve with the old flags; we follow the Arm view). So a GET of
   the flags counts as a source only when its value reaches an effect of the block other than a
   PUT to CC_NDEP, with every ITE whose condition is a constant reduced to its chosen arm.
   Everything that really reads the flags keeps the source: adc/sbb and rcl/rcr use them in
   their result, setcc/cmovcc/jcc/pushf/lahf compute from them, and a shift or rotate by CL (or
   by an immediate 0) keeps the select: its count may be 0, and then the old flags are its
   flags. With one FLAGS register a carry preserved by inc/dec (adc; inc; adc) now comes from
   the inc and not from the first adc (see docs/validation.md). Only FLAGS reads are pruned
   this way; other registers are as before. */
static UChar* tlive = NULL;  /* temp -> its value reaches an effect */
static UChar* tknown = NULL; /* temp -> its value is a constant known at translation time */
static ULong* tval = NULL;
static Int tlive_cap = 0;

static ULong width_mask(Int bits) { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

static Bool atom_value(IRExpr* a, ULong* v) {
   if (a->tag == Iex_RdTmp) {
      IRTemp t = a->Iex.RdTmp.tmp;
      if (t >= (IRTemp)tlive_cap || !tknown[t]) return False;
      *v = tval[t];
      return True;
   }
   if (a->tag != Iex_Const) return False;
   IRConst* c = a->Iex.Const.con;
   switch (c->tag) {
   case Ico_U1: *v = c->Ico.U1; return True;
   case Ico_U8: *v = c->Ico.U8; return True;
   case Ico_U16: *v = c->Ico.U16; return True;
   case Ico_U32: *v = c->Ico.U32; return True;
   case Ico_U64: *v = c->Ico.U64; return True;
   default: return False;
   }
}

/* The ops VEX uses to compute a shift's count and its `count != 0` guard from an immediate. */
static Bool const_value(IRExpr* e, ULong* v) {
   ULong a, b;
   switch (e->tag) {
   case Iex_Const: case Iex_RdTmp: return atom_value(e, v);
   case Iex_Unop:
      if (!atom_value(e->Iex.Unop.arg, &a)) return False;
      switch (e->Iex.Unop.op) {
      case Iop_1Uto8: case Iop_1Uto32: case Iop_1Uto64: case Iop_8Uto16: case Iop_8Uto32:
      case Iop_8Uto64: case Iop_16Uto32: case Iop_16Uto64: case Iop_32Uto64:
         *v = a; return True;
      case Iop_64to8: case Iop_32to8: case Iop_16to8: *v = a & 0xff; return True;
      case Iop_64to16: case Iop_32to16: *v = a & 0xffff; return True;
      case Iop_64to32: *v = a & 0xffffffffULL; return True;
      default: return False;
      }
   case Iex_Binop: {
      if (!atom_value(e->Iex.Binop.arg1, &a) || !atom_value(e->Iex.Binop.arg2, &b)) return False;
      Int w;
      switch (e->Iex.Binop.op) {
      case Iop_And8: case Iop_Or8: case Iop_Add8: case Iop_Sub8: case Iop_CmpEQ8:
      case Iop_CmpNE8: w = 8; break;
      case Iop_And16: case Iop_Or16: case Iop_Add16: case Iop_Sub16: case Iop_CmpEQ16:
      case Iop_CmpNE16: w = 16; break;
      case Iop_And32: case Iop_Or32: case Iop_Add32: case Iop_Sub32: case Iop_CmpEQ32:
      case Iop_CmpNE32: w = 32; break;
      case Iop_And64: case Iop_Or64: case Iop_Add64: case Iop_Sub64: case Iop_CmpEQ64:
      case Iop_CmpNE64: w = 64; break;
      default: return False;
      }
      a &= width_mask(w);
      b &= width_mask(w);
      switch (e->Iex.Binop.op) {
      case Iop_And8: case Iop_And16: case Iop_And32: case Iop_And64: *v = a & b; break;
      case Iop_Or8: case Iop_Or16: case Iop_Or32: case Iop_Or64: *v = a | b; break;
      case Iop_Add8: case Iop_Add16: case Iop_Add32: case Iop_Add64:
         *v = (a + b) & width_mask(w); break;
      case Iop_Sub8: case Iop_Sub16: case Iop_Sub32: case Iop_Sub64:
         *v = (a - b) & width_mask(w); break;
      case Iop_CmpEQ8: case Iop_CmpEQ16: case Iop_CmpEQ32: case Iop_CmpEQ64: *v = a == b; break;
      default: *v = a != b; break;
      }
      return True;
   }
   case Iex_ITE:
      if (!atom_value(e->Iex.ITE.cond, &a)) return False;
      return atom_value(a ? e->Iex.ITE.iftrue : e->Iex.ITE.iffalse, v);
   default: return False;
   }
}

static void live_atom(IRExpr* a) {
   if (a && a->tag == Iex_RdTmp && a->Iex.RdTmp.tmp < (IRTemp)tlive_cap)
      tlive[a->Iex.RdTmp.tmp] = 1;
}

static void live_expr_args(IRExpr* e) {
   ULong c;
   switch (e->tag) {
   case Iex_RdTmp: live_atom(e); break;
   case Iex_Unop: live_atom(e->Iex.Unop.arg); break;
   case Iex_Binop: live_atom(e->Iex.Binop.arg1); live_atom(e->Iex.Binop.arg2); break;
   case Iex_Triop:
      live_atom(e->Iex.Triop.details->arg1); live_atom(e->Iex.Triop.details->arg2);
      live_atom(e->Iex.Triop.details->arg3); break;
   case Iex_Qop:
      live_atom(e->Iex.Qop.details->arg1); live_atom(e->Iex.Qop.details->arg2);
      live_atom(e->Iex.Qop.details->arg3); live_atom(e->Iex.Qop.details->arg4); break;
   case Iex_ITE:
      if (atom_value(e->Iex.ITE.cond, &c)) {
         live_atom(c ? e->Iex.ITE.iftrue : e->Iex.ITE.iffalse);
      } else {
         live_atom(e->Iex.ITE.cond); live_atom(e->Iex.ITE.iftrue); live_atom(e->Iex.ITE.iffalse);
      }
      break;
   case Iex_Load: live_atom(e->Iex.Load.addr); break;
   case Iex_GetI: live_atom(e->Iex.GetI.ix); break;
   case Iex_CCall:
      for (Int i = 0; e->Iex.CCall.args[i]; i++) live_atom(e->Iex.CCall.args[i]);
      break;
   default: break;
   }
}

/* Constants forward, then liveness backward over the whole block (a temp may cross instructions
   when VEX's cleanup ran). */
static void compute_live_temps(IRSB* sb) {
   Int n = sb->tyenv->types_used;
   if (tlive_cap < n) {
      tlive_cap = n * 2 + 64;
      tlive = xrealloc(tlive, tlive_cap);
      tknown = xrealloc(tknown, tlive_cap);
      tval = xrealloc(tval, tlive_cap * sizeof(ULong));
   }
   VG_(memset)(tlive, 0, tlive_cap);
   VG_(memset)(tknown, 0, tlive_cap);
   for (Int i = 0; i < sb->stmts_used; i++) {
      IRStmt* st = sb->stmts[i];
      if (st->tag != Ist_WrTmp) continue;
      IRTemp t = st->Ist.WrTmp.tmp;
      ULong v;
      if (t < (IRTemp)tlive_cap && const_value(st->Ist.WrTmp.data, &v)) {
         tknown[t] = 1;
         tval[t] = v;
      }
   }
   live_atom(sb->next);
   for (Int i = sb->stmts_used - 1; i >= 0; i--) {
      IRStmt* st = sb->stmts[i];
      switch (st->tag) {
      case Ist_WrTmp: {
         IRExpr* e = st->Ist.WrTmp.data;
         IRTemp t = st->Ist.WrTmp.tmp;
         if (e->tag == Iex_Load || (t < (IRTemp)tlive_cap && tlive[t])) live_expr_args(e);
         break;
      }
      case Ist_Put:
         if (st->Ist.Put.offset != GOFF(guest_CC_NDEP)) live_atom(st->Ist.Put.data);
         break;
      case Ist_PutI:
         live_atom(st->Ist.PutI.details->ix); live_atom(st->Ist.PutI.details->data);
         break;
      case Ist_Store: live_atom(st->Ist.Store.addr); live_atom(st->Ist.Store.data); break;
      case Ist_StoreG: {
         IRStoreG* sg = st->Ist.StoreG.details;
         live_atom(sg->addr); live_atom(sg->data); live_atom(sg->guard);
         break;
      }
      case Ist_LoadG: {
         IRLoadG* lg = st->Ist.LoadG.details;
         live_atom(lg->addr); live_atom(lg->alt); live_atom(lg->guard);
         break;
      }
      case Ist_CAS: {
         IRCAS* c = st->Ist.CAS.details;
         live_atom(c->addr); live_atom(c->expdLo); live_atom(c->expdHi);
         live_atom(c->dataLo); live_atom(c->dataHi);
         break;
      }
      case Ist_LLSC: live_atom(st->Ist.LLSC.addr); live_atom(st->Ist.LLSC.storedata); break;
      case Ist_Dirty: {
         IRDirty* d = st->Ist.Dirty.details;
         live_atom(d->guard); live_atom(d->mAddr);
         for (Int k = 0; d->args[k]; k++)
            if (!is_IRExpr_VECRET_or_GSPTR(d->args[k])) live_atom(d->args[k]);
         break;
      }
      case Ist_Exit: live_atom(st->Ist.Exit.guard); break;
      case Ist_AbiHint: live_atom(st->Ist.AbiHint.base); live_atom(st->Ist.AbiHint.nia); break;
      default: break;
      }
   }
}

static Bool temp_live(IRTemp t) { return t >= (IRTemp)tlive_cap || tlive[t]; }

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
          st->Ist.WrTmp.tmp < (IRTemp)tget_cap) {
         ULong m = tget_mask[st->Ist.WrTmp.tmp];
         if (!temp_live(st->Ist.WrTmp.tmp)) m &= ~(1ULL << CTP_REG_FLAGS);
         in->rd |= m;
      }
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
   compute_live_temps(sb);
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

Int ct_analyse_block(IRSB* sb, Insn** out) {
   analyse_block(sb);
   classify_block(sb);
   *out = insns;
   return n_insns;
}

UInt ct_build_descriptor(const Insn* in, UChar* d) {
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

void ct_dump_insn(const Insn* in) {
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
