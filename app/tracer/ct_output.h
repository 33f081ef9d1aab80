/*
 * ct_output.h: the raw byte stream (core/trace/TracerProtocol.h) and the record buffer in front of
 * the output descriptor: stream header, frames, RECORDS batches, and the static instruction
 * descriptors (ids by content, each sent once before first use).
 *
 * Generated code appends records at the buffer's write position (ct_out_buf_ptr_addr) inside an
 * open batch; everything else goes through these functions. Frames may only be added while no
 * batch is open.
 */
#ifndef CONCORDE_TRACER_CT_OUTPUT_H
#define CONCORDE_TRACER_CT_OUTPUT_H

#include "ct_common.h"
#include "ct_options.h"

/* Destination. False when it cannot be used (the caller reports the option error). */
Bool ct_out_open_file(const HChar* path);
Bool ct_out_use_fd(Int fd);
/* A forked child: drops everything buffered and never writes (the stream is the parent's). */
void ct_out_abandon(void);

/* Allocates the record buffer; then the stream header is written first. */
void ct_out_init(SizeT buffer_bytes);
void ct_out_write_header(const CtRegionSpec* spec);

/* Generated code: the buffer's write position, and the position past which a block that writes
   up to rec_bytes bytes of records must flush first (fixed at translation time). */
UChar** ct_out_buf_ptr_addr(void);
Addr ct_out_flush_limit(UInt rec_bytes);

/* Static descriptors: the id of descriptor d (its id field is ignored and set); new descriptors
   are queued for the next flush. ct_out_static_pc gives the pc of an id. */
UInt ct_out_intern_static(UChar* d, Addr pc);
Addr ct_out_static_pc(UInt id);

/* Frames (no batch may be open): a small frame from its payload, a complete frame built by the
   caller (header + payload_len bytes; a large one is written out directly), and a flush of the
   pending descriptors and the buffer. */
void ct_out_emit_frame(UInt type, const UChar* payload, UInt len);
void ct_out_append_frame(const UChar* frame, SizeT payload_len);
void ct_out_flush(void);

/* RECORDS batches. first and end_index are program instruction indices; a batch closed with no
   records is dropped. */
Bool ct_out_batch_is_open(void);
void ct_out_open_batch(ULong first);
void ct_out_close_batch(ULong end_index);
void ct_out_discard_batch(void);

/* Cutting the open batch at a region boundary: ct_out_cut(idx) sets aside the records from
   program index idx on and returns where they started, so the batch can be closed there
   (ct_out_close_batch_at) or discarded; ct_out_restore(idx) opens a new batch holding them. */
UChar* ct_out_cut(ULong idx);
void ct_out_close_batch_at(UChar* end, ULong end_index);
UInt ct_out_cut_first_id(void);
void ct_out_restore(ULong idx);

typedef struct {
   ULong bytes_written;
   ULong flushes;
   UInt statics; /* static descriptor ids */
} CtOutStats;
CtOutStats ct_out_stats(void);

#endif
