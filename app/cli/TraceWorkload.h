#pragma once

#include "ConfigOptions.h"
#include "RegionSelection.h"
#include "params/MethodConstants.h"

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace concorde {
class TraceReader;
}

namespace concorde::cli {

/// What simulate and bounds run on, declared once for both: a TRACE, one configuration
/// (--preset, --set), which of its regions (--region I) and a window size (--window W).
struct TraceWorkload {
    std::string trace;
    ConfigOptions config;
    RegionSelection regions;
    std::uint32_t window = kDefaultWindowSize;

    /// Declares them on `app`: `windowHelp` says what the windows are for, `minWindow` is the
    /// smallest size the command accepts.
    void addTo(CLI::App& app, const std::string& windowHelp, std::uint32_t minWindow);
    /// Checks every block of the trace `reader` opened (a malformed trace is reported, never
    /// used) and returns the indices of the selected regions.
    std::vector<std::size_t> selectRegions(TraceReader& reader) const;
};

} // namespace concorde::cli
