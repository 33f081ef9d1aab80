#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace CLI {
class App;
}

namespace concorde::cli {

/// The `--region I` option shared by commands that work on a trace's regions.
class RegionSelection {
public:
    /// Declares --region on `app`.
    void addTo(CLI::App& app);
    /// The selected region indices for a trace with `regionCount` regions: all of them, or the
    /// one asked for. Throws a bad-input error for a region the trace does not have.
    std::vector<std::size_t> resolve(std::size_t regionCount) const;

private:
    std::optional<std::size_t> index_;
};

} // namespace concorde::cli
