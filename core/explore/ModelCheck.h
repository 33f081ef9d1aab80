#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace concorde {

/// Loads and runs every model of a feature database the way the explorer and `predict` do, for
/// `validate-db`: a database whose model cannot be loaded is not OK, however sound its blobs.
class ModelCheck {
public:
    struct Report {
        std::vector<std::string> problems; ///< one per model that fails, naming it
        std::size_t models = 0;            ///< models loaded and run successfully
    };

    /// For every stored model: read it (layout, weights, normalisation, linear baseline, metrics)
    /// and check its parts agree; read its measured accuracy (each accuracy record present must
    /// give a mean relative error) and trained values as the explorer does; precompute it on the
    /// first complete region and predict the default configuration snapped to the grid, which must
    /// give a finite, positive CPI. Never throws for a damaged model: each failure is a problem in
    /// the report.
    static Report run(const std::filesystem::path& database);
};

} // namespace concorde
