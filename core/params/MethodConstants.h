#pragma once

#include <cstdint>

namespace concorde {

/// Instructions per window: the unit of the analytical bounds' series and of the reference
/// simulator's per-window IPC (docs/design.md §7). A database records the size it was built
/// with; this is the default for new ones.
inline constexpr std::uint32_t kDefaultWindowSize = 400;

} // namespace concorde
