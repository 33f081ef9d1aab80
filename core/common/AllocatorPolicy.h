#pragma once

namespace concorde {

/// Tells the C library's allocator to keep freed memory in the process instead of handing it
/// back to the kernel after every large free.
///
/// Why: the pipeline processes regions one after another with buffers of a few megabytes each
/// (records, dependency tables, warm states, cache tag arrays). glibc serves such blocks with
/// mmap and trims the heap top eagerly, so every region re-faults its pages from the kernel:
/// on `concorde simulate` or `bounds` over 16 regions that was a third to half of the run time
/// (BENCHMARKS.md, "Allocator policy"). Called once at the start of each program, before any
/// threads exist. A no-op on C libraries other than glibc.
void retainFreedMemory();

} // namespace concorde
