// A ChampSim prefetcher module with the L1d stride prefetcher of `concorde simulate` (issue 22):
// core/analysis/StridePrefetcher at n1-like's degree 2, so that a cross-check run with it
// (`xcheck.py --matched-prefetcher`) compares the two cores with the same prefetches. ChampSim's
// own ip_stride (commit 2ff2501) records a stride of 0 whenever a load touches the same line as
// that load's previous access, which resets its stride history: a walk with a stride smaller than
// a line (each line touched several times by the same load) never confirms a stride, so dense
// streams are not prefetched at all (docs/validation.md, "The stride prefetcher matched").
//
// Written for ChampSim commit 2ff2501's module interface (champsim::modules::prefetcher). Not part
// of the concorde build: build-champsim.sh copies it into ChampSim's prefetcher/ folder.
#ifndef PREFETCHER_CONCORDE_STRIDE_H
#define PREFETCHER_CONCORDE_STRIDE_H

#include <cstdint>
#include <vector>

#include "address.h"
#include "modules.h"

class concorde_stride : public champsim::modules::prefetcher
{
  // StridePrefetcher's table and the n1-like preset's pf_degree (the cross-check's prefetcher-off
  // step uses ChampSim's "no" prefetcher instead).
  static constexpr std::uint32_t kEntries = 256;
  static constexpr int kDegree = 2;
  static constexpr std::uint8_t kConfidenceThreshold = 1;

  struct Entry {
    std::uint64_t pc = ~std::uint64_t{0};
    std::uint64_t lastLine = 0;
    std::int64_t stride = 0;
    std::uint8_t confidence = 0;
  };
  std::vector<Entry> table_ = std::vector<Entry>(kEntries);

public:
  using champsim::modules::prefetcher::prefetcher;

  uint32_t prefetcher_cache_operate(champsim::address addr, champsim::address ip, uint8_t cache_hit, bool useful_prefetch, access_type type,
                                    uint32_t metadata_in);
  uint32_t prefetcher_cache_fill(champsim::address addr, long set, long way, uint8_t prefetch, champsim::address evicted_addr, uint32_t metadata_in);
};

#endif
