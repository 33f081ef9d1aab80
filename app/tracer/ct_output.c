/*
 * ct_output.c: the raw byte stream written to the output descriptor. Frames and the records
 * written by generated code are collected in one large buffer (8 MiB by default) that is written
 * out when it could overflow, at region ends that cut it, and at exit; static descriptors are
 * queued and written before the buffer that uses them.
 */

#include "ct_common.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_xarray.h"
#include "pub_tool_vki.h"

#include "ct_output.h"

/* Output */
static Int out_fd = -1;
static Bool out_failed = False;
static ULong bytes_written = 0;
static ULong n_flushes = 0;

/* Record buffer. [buf_start, ct_buf_ptr) holds frames; the open RECORDS batch (if any) starts at
   batch_hdr. A RECORD block writing at most B bytes of records flushes first when ct_buf_ptr is
   past buf_end - BUF_RESERVE - B; the reserve leaves room for frames inserted by helpers. */
#define BUF_RESERVE (64 * 1024)
static UChar* ct_buf_ptr = NULL; /* write position, advanced by generated code */
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
static SizeT tail_len = 0;

static void write_all(const void* data, SizeT len) {
   const UChar* p = data;
   if (out_failed || out_fd < 0) return;
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
   Destination */

Bool ct_out_open_file(const HChar* path) {
   SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
   if (sr_isError(r)) return False;
   out_fd = VG_(safe_fd)((Int)sr_Res(r));
   return True;
}

Bool ct_out_use_fd(Int fd) {
   if (VG_(fcntl)(fd, VKI_F_GETFD, 0) < 0) return False;
   /* Move the descriptor out of the client's sight so it cannot close or reuse it. */
   out_fd = VG_(safe_fd)(fd);
   /* A larger pipe buffer means fewer context switches with the reader (fails harmlessly
      when the descriptor is not a pipe or the size is not allowed). */
   (void)VG_(fcntl)(out_fd, VKI_F_SETPIPE_SZ, 1 << 20);
   return True;
}

void ct_out_abandon(void) {
   out_fd = -1; /* the descriptor stays open: it is the parent's stream */
   batch_hdr = NULL;
   ct_buf_ptr = buf_start;
   defs_used = 0;
}

void ct_out_init(SizeT buffer_bytes) {
   buf_start = VG_(malloc)("ct.buf", buffer_bytes);
   buf_end = buf_start + buffer_bytes;
   ct_buf_ptr = buf_start;
}

void ct_out_write_header(const CtRegionSpec* spec) {
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
   put_u64(h + 24, spec->skip);
   put_u64(h + 32, spec->warmup);
   put_u64(h + 40, spec->length);
   put_u64(h + 48, spec->interval);
   put_u32(h + 56, (UInt)spec->regions);
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

UChar** ct_out_buf_ptr_addr(void) { return &ct_buf_ptr; }

Addr ct_out_flush_limit(UInt rec_bytes) {
   tl_assert(rec_bytes < BUF_RESERVE / 2);
   return (Addr)(buf_end - BUF_RESERVE - rec_bytes);
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

UInt ct_out_intern_static(UChar* d, Addr pc) {
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

Addr ct_out_static_pc(UInt id) { return id_pc[id]; }

/* ---------------------------------------------------------------------------------------------
   Frames */

/* Writes pending static descriptors and everything in the record buffer. No batch may be open. */
void ct_out_flush(void) {
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
   if (ct_buf_ptr + n > buf_end - BUF_RESERVE / 2) ct_out_flush();
   tl_assert(ct_buf_ptr + n <= buf_end);
}

void ct_out_emit_frame(UInt type, const UChar* payload, UInt len) {
   buf_need(CTP_FRAME_HEADER_BYTES + len);
   put_u32(ct_buf_ptr, type);
   put_u32(ct_buf_ptr + 4, len);
   VG_(memcpy)(ct_buf_ptr + CTP_FRAME_HEADER_BYTES, payload, len);
   ct_buf_ptr += CTP_FRAME_HEADER_BYTES + len;
}

void ct_out_append_frame(const UChar* frame, SizeT payload_len) {
   if (payload_len <= BUF_RESERVE / 4) {
      buf_need(CTP_FRAME_HEADER_BYTES + payload_len);
      VG_(memcpy)(ct_buf_ptr, frame, CTP_FRAME_HEADER_BYTES + payload_len);
      ct_buf_ptr += CTP_FRAME_HEADER_BYTES + payload_len;
   } else {
      ct_out_flush();
      write_all(frame, CTP_FRAME_HEADER_BYTES + payload_len);
   }
}

/* ---------------------------------------------------------------------------------------------
   RECORDS batches */

Bool ct_out_batch_is_open(void) { return batch_hdr != NULL; }

void ct_out_open_batch(ULong first) {
   tl_assert(batch_hdr == NULL);
   buf_need(CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX);
   batch_hdr = ct_buf_ptr;
   batch_first = first;
   ct_buf_ptr += CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX;
}

/* Closes the open batch at `end`, holding the records up to program index end_index (dropped
   when there are none). */
void ct_out_close_batch_at(UChar* end, ULong end_index) {
   ULong count = end_index - batch_first;
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

void ct_out_close_batch(ULong end_index) { ct_out_close_batch_at(ct_buf_ptr, end_index); }

void ct_out_discard_batch(void) {
   tl_assert(batch_hdr != NULL);
   ct_buf_ptr = batch_hdr;
   batch_hdr = NULL;
}

/* Byte position in the open batch of the record with program index `idx` (records are walked:
   a record's size follows from its id). */
static UChar* locate(ULong idx) {
   tl_assert(batch_hdr != NULL && idx >= batch_first);
   UChar* p = batch_hdr + CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX;
   for (ULong i = batch_first; i < idx; i++) {
      UInt id = get_u32(p);
      tl_assert(id < n_ids);
      p += 4 + 8 * (SizeT)id_nmem[id];
   }
   tl_assert(p <= ct_buf_ptr);
   return p;
}

UChar* ct_out_cut(ULong idx) {
   UChar* pos = locate(idx);
   tail_len = ct_buf_ptr - pos;
   if (tail_len > tail_cap) {
      tail_cap = tail_len * 2;
      tail_buf = xrealloc(tail_buf, tail_cap);
   }
   VG_(memcpy)(tail_buf, pos, tail_len);
   return pos;
}

UInt ct_out_cut_first_id(void) { return get_u32(tail_buf); }

void ct_out_restore(ULong idx) {
   ct_out_open_batch(idx);
   tl_assert(ct_buf_ptr + tail_len <= buf_end);
   VG_(memcpy)(ct_buf_ptr, tail_buf, tail_len);
   ct_buf_ptr += tail_len;
}

CtOutStats ct_out_stats(void) {
   CtOutStats s = {bytes_written, n_flushes, n_ids};
   return s;
}
