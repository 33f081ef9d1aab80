#include "concorde_stride.h"

#include <array>

#include "cache.h"

// Trains on every demand load the L1D sees (ChampSim's default prefetch_activate: LOAD and
// PREFETCH; prefetches are filtered out here), as ours trains on every demand load.
uint32_t concorde_stride::prefetcher_cache_operate(champsim::address addr, champsim::address ip, uint8_t, bool, access_type type,
                                                   uint32_t metadata_in)
{
  if (type != access_type::LOAD)
    return metadata_in;
  std::array<std::uint64_t, concorde::StridePrefetcher::kMaxDegree> lines{};
  const int count = prefetcher_.train(ip.to<std::uint64_t>(), champsim::block_number{addr}.to<std::uint64_t>(), lines);
  for (int k = 0; k < count; ++k) {
    const champsim::address target{champsim::block_number{lines[static_cast<std::size_t>(k)]}};
    // Physical addresses are placed on random pages: a prefetch may not leave the page (ours,
    // on virtual addresses without pages, has no such limit; lines at a page's end lose it).
    if (!intern_->virtual_prefetch && champsim::page_number{target} != champsim::page_number{addr})
      break;
    prefetch_line(target, true, metadata_in);
  }
  return metadata_in;
}

uint32_t concorde_stride::prefetcher_cache_fill(champsim::address, long, long, uint8_t, champsim::address, uint32_t metadata_in)
{
  return metadata_in;
}
