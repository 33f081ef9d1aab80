#pragma once

#include "params/CoreConfig.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class FeatureDatabase;
class ParameterGrid;
struct LabelRow;

/// The reference simulator's per-window IPC for one region, to overlay on the bound timeseries:
/// from the label of exactly the configuration shown when the region has one, else from the
/// label closest in configuration (and then which parameters differ), else none.
///
/// **Closest**: the smallest sum over the twenty parameters of |grid position of the label's
/// value − grid position of the configuration's value| / (grid size − 1), i.e. each parameter
/// contributes its distance as a fraction of its grid's span (a value off the grid takes the
/// position of the nearest grid value; a one-value grid contributes 1 when the values differ).
/// Ties go to the label stored first.
class ReferenceIpc {
public:
    enum class Match {
        Exact,   ///< a label of exactly this configuration
        Nearest, ///< the closest labelled configuration (see differences())
        None,    ///< the region has no labels
    };

    /// One stored label, decoded: what choosing it and showing it need.
    struct Label {
        std::int64_t id = 0; ///< the label's row id
        CoreConfig config;
        std::string source;
        double cpi = 0;
        std::vector<float> windowIpc;
    };

    /// No reference (Match::None).
    ReferenceIpc() = default;

    /// Decodes a stored label. A configuration or per-window IPC that cannot be decoded is a
    /// bad-input ConcordeError naming `what` (the region) and the label.
    static Label decode(const LabelRow& row, const std::string& what);
    /// Chooses among one region's decoded labels, in storage order, for `config`; no decoding
    /// and no I/O (ReferenceIpcCache answers slider steps with it).
    static ReferenceIpc select(std::span<const Label> labels, const CoreConfig& config,
                               const ParameterGrid& grid);
    /// Selects among `labels` (one region's) for `config`, decoding every label's configuration
    /// but only the chosen one's per-window IPC (errors as decode()).
    static ReferenceIpc select(const std::vector<LabelRow>& labels, const CoreConfig& config,
                               const ParameterGrid& grid, const std::string& what);
    /// Reads the region's labels from `database` and selects (grid from its build settings).
    static ReferenceIpc forRegion(FeatureDatabase& database, std::int64_t regionId,
                                  const CoreConfig& config);
    /// The `what` that forRegion() names the region's labels with in errors.
    static std::string describeRegion(FeatureDatabase& database, std::int64_t regionId);

    Match match() const { return match_; }
    /// The chosen label's row id (0 when none).
    std::int64_t labelId() const { return labelId_; }
    bool available() const { return match_ != Match::None; }
    /// The labelled configuration (the default CoreConfig when none).
    const CoreConfig& config() const { return config_; }
    /// The label's source ("random", "preset:n1-like"), empty when none.
    const std::string& source() const { return source_; }
    /// The simulated CPI of the whole region (0 when none).
    double cpi() const { return cpi_; }
    /// IPC per window (empty when none).
    const std::vector<float>& windowIpc() const { return windowIpc_; }
    /// The distance defined in the class comment (0 when exact).
    double distance() const { return distance_; }
    /// For Match::Nearest, one entry per differing parameter: "rob 256 (shown 128)".
    const std::vector<std::string>& differences() const { return differences_; }
    /// Which simulation it is, for a legend or status line: "exact configuration,
    /// preset:n1-like", "nearest labelled configuration: rob 256 (shown 128), lq 64 (shown 32)",
    /// "no reference simulation for this region".
    std::string describe() const;

private:
    Match match_ = Match::None;
    std::int64_t labelId_ = 0;
    CoreConfig config_;
    std::string source_;
    double cpi_ = 0;
    std::vector<float> windowIpc_;
    double distance_ = 0;
    std::vector<std::string> differences_;
};

} // namespace concorde
