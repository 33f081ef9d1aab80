#pragma once

#include "features/SeriesKey.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace concorde {

class CoreConfig;

/// The resources whose per-window IPC bounds the explorer draws (docs/design.md §7): the resource
/// blocks of the standard feature layout (FeatureAssembler::resourceBlocks()), in that order, with
/// the load/store pipes as the best pipe allocation ("pipes_upper", series group "pipes"), and a
/// name for people. Commit, decode and rename widths are constants (no series) and are not
/// listed; they are the same in every window.
///
/// The index of a resource here is the index used by RegionBoundsSeries and the charts.
class BoundResources {
public:
    /// Number of resources (10 for the standard layout).
    static std::size_t count();
    /// Feature-layout block names, in order: "rob", "lq", ..., "fetch_width".
    static const std::vector<std::string>& blocks();
    /// Names for charts and legends: "ROB", "Load queue", ..., "Fetch width".
    static const std::vector<std::string>& labels();
    /// The series feeding resource `resource` for `config` (FeatureAssembler::keyFor on the
    /// resource's block, first column).
    static SeriesKey key(std::size_t resource, const CoreConfig& config);
    /// The names of the database series groups holding the resources' series ("rob", ...,
    /// "pipes", ...), one per resource, in order.
    static const std::vector<std::string>& seriesGroups();
    /// Index of the resource with block name `block` (e.g. "lq"), or nullopt.
    static std::optional<std::size_t> find(std::string_view block);
};

} // namespace concorde
