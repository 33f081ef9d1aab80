#pragma once

#include <optional>
#include <string>
#include <vector>

namespace concorde::cli {

/// The `--region I` option shared by commands that work on a trace's regions.
class RegionSelection {
public:
    explicit RegionSelection(std::optional<std::string> text) : text_(std::move(text)) {}
    /// The selected region indices for a trace with `regionCount` regions: all of them, or the
    /// one asked for. Throws a usage error for a non-number and a bad-input error for a region
    /// the trace does not have.
    std::vector<std::size_t> resolve(std::size_t regionCount) const;

private:
    std::optional<std::string> text_;
};

} // namespace concorde::cli
