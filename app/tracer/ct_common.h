/*
 * ct_common.h: what every ctrace module needs: the Valgrind tool headers, the stream format
 * (TracerProtocol.h), prototypes of the VEX/core internals the tool uses, and little-endian byte
 * packing. See app/tracer/README.md for the module map.
 */
#ifndef CONCORDE_TRACER_CT_COMMON_H
#define CONCORDE_TRACER_CT_COMMON_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
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

/* Offset and size of a VexGuestAMD64State field */
#define GOFF(f) ((Int)offsetof(VexGuestAMD64State, f))
#define GSZ(f) ((Int)sizeof(((VexGuestAMD64State*)0)->f))

/* ---------------------------------------------------------------------------------------------
   Small utilities */
static inline void* xrealloc(void* p, SizeT n) { return VG_(realloc)("ct.alloc", p, n); }

static inline void put_u8(UChar* p, UInt v) { p[0] = (UChar)v; }
static inline void put_u16(UChar* p, UInt v) { p[0] = (UChar)v; p[1] = (UChar)(v >> 8); }
static inline void put_u32(UChar* p, UInt v) {
   p[0] = (UChar)v; p[1] = (UChar)(v >> 8); p[2] = (UChar)(v >> 16); p[3] = (UChar)(v >> 24);
}
static inline void put_u64(UChar* p, ULong v) { put_u32(p, (UInt)v); put_u32(p + 4, (UInt)(v >> 32)); }
static inline UInt get_u32(const UChar* p) {
   return (UInt)p[0] | ((UInt)p[1] << 8) | ((UInt)p[2] << 16) | ((UInt)p[3] << 24);
}

#endif
