#include "concorde_stride.h"

#include "cache.h"

// Trains on every demand load the L1D sees (ChampSim's default prefetch_activate: LOAD and
// PREFETCH; prefetches are filtered out below), as ours trains on every demand load.
uint32_t concorde_stride::prefetcher_cache_operate(champsim::address addr, champsim::address ip, uint8_t, bool, access_type type,
                                                   uint32_t metadata_in)
{
  if (type != access_type::LOAD)
    return metadata_in;
  const auto pc = ip.to<std::uint64_t>();
  const auto line = champsim::block_number{addr}.to<std::uint64_t>();
  // x86 PCs are byte-granular: the same fold of higher bits as ours.
  Entry& e = table_[(pc ^ (pc >> 8) ^ (pc >> 17)) & (kEntries - 1)];
  if (e.pc != pc) {
    e = Entry{pc, line, 0, 0};
    return metadata_in;
  }
  // The same line as this load's last access: ignored, so that a walk with a stride smaller than
  // a line trains as a stride of one line.
  if (line == e.lastLine)
    return metadata_in;
  const auto stride = static_cast<std::int64_t>(line - e.lastLine);
  e.lastLine = line;
  if (stride == e.stride) {
    if (e.confidence < 3)
      ++e.confidence;
  } else if (e.confidence > 0) {
    --e.confidence;
  } else {
    e.stride = stride;
  }
  if (e.confidence < kConfidenceThreshold)
    return metadata_in;
  for (int k = 1; k <= kDegree; ++k) {
    const champsim::address target{champsim::block_number{line + static_cast<std::uint64_t>(e.stride * k)}};
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
