// A ChampSim prefetcher module with the L1d stride prefetcher of `concorde simulate` (issue 22):
// core/analysis/StridePrefetcher itself at n1-like's degree 2, so that a cross-check run with it
// (`xcheck.py --matched-prefetcher`) compares the two cores with the same prefetches. ChampSim's
// own ip_stride (commit 2ff2501) records a stride of 0 whenever a load touches the same line as
// that load's previous access, which resets its stride history: a walk with a stride smaller than
// a line (each line touched several times by the same load) never confirms a stride, so dense
// streams are not prefetched at all (docs/validation.md, "The stride prefetcher matched").
//
// Written for ChampSim commit 2ff2501's module interface (champsim::modules::prefetcher). Not part
// of the concorde build: build-champsim.sh copies it into ChampSim's prefetcher/ folder, together
// with the core sources named in core-sources.txt, and compiles the modules as C++20 with core/
// on the include path.
#ifndef PREFETCHER_CONCORDE_STRIDE_H
#define PREFETCHER_CONCORDE_STRIDE_H

#include <cstdint>

#include "address.h"
#include "analysis/StridePrefetcher.h"
#include "modules.h"

class concorde_stride : public champsim::modules::prefetcher
{
  // The n1-like preset's pf_degree (the cross-check's prefetcher-off step uses ChampSim's "no"
  // prefetcher instead) and StridePrefetcher's default table.
  static constexpr int kDegree = 2;
  concorde::StridePrefetcher prefetcher_{kDegree};

public:
  using champsim::modules::prefetcher::prefetcher;

  uint32_t prefetcher_cache_operate(champsim::address addr, champsim::address ip, uint8_t cache_hit, bool useful_prefetch, access_type type,
                                    uint32_t metadata_in);
  uint32_t prefetcher_cache_fill(champsim::address addr, long set, long way, uint8_t prefetch, champsim::address evicted_addr, uint32_t metadata_in);
};

#endif
