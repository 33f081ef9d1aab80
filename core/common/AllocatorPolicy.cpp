#include "common/AllocatorPolicy.h"

#include <cstdlib> // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace concorde {

void retainFreedMemory() {
#if defined(__GLIBC__)
    // Blocks up to 32 MiB (the largest threshold glibc accepts on 64-bit) come from the heap
    // and are reused; the heap top is returned to the kernel only when 512 MiB of it are free,
    // so a long GUI session still gives memory back after a very large job.
    constexpr int kMmapThreshold = 32 << 20;
    constexpr int kTrimThreshold = 512 << 20;
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
#endif
}

} // namespace concorde
