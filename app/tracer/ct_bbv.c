/*
 * ct_bbv.c: superblock counters for the basic-block vector (see ct_bbv.h). The counters are
 * allocated one by one so that their addresses, baked into generated code, stay valid.
 */

#include "ct_bbv.h"

static SBInfo** sb_tab = NULL; /* open addressing by pc */
static UInt sb_tab_cap = 0;
static SBInfo** sb_list = NULL;
static UInt sb_n = 0, sb_list_cap = 0;

static UInt hash_addr(Addr a) { return (UInt)((a * 0x9E3779B97F4A7C15ULL) >> 40); }

SBInfo* ct_bbv_get(Addr pc) {
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

void ct_bbv_reset(void) {
   for (UInt i = 0; i < sb_n; i++) sb_list[i]->count = 0;
}

UInt ct_bbv_nonzero(void) {
   UInt nb = 0;
   for (UInt i = 0; i < sb_n; i++)
      if (sb_list[i]->count) nb++;
   return nb;
}

static Int cmp_bbv(const void* a, const void* b) {
   Addr x = ((const ULong*)a)[0], y = ((const ULong*)b)[0];
   return x < y ? -1 : x > y ? 1 : 0;
}

void ct_bbv_write(UChar* p, UInt nb) {
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
      put_u64(p + 16 * (SizeT)i, ents[2 * i]);
      put_u64(p + 16 * (SizeT)i + 8, ents[2 * i + 1]);
   }
   VG_(free)(ents);
}
