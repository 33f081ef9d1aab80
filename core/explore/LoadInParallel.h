#pragma once

#include "common/JobControl.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>

namespace concorde {

class FeatureDatabase;

/// Runs `load(index, connection)` for indices 0..count-1 in parallel (TBB). Each worker thread
/// reads through its own read-only connection to `database`: reading and decoding stored series
/// is a large share of opening a database, and one shared connection would serialise it.
///
/// The first exception stops the remaining work and is rethrown. `job` counts the indices
/// loaded; a cancelled job stops and throws jobCancelled("<what> was cancelled").
void loadInParallel(
    const std::filesystem::path& database, std::size_t count, const JobControl& job,
    const std::string& what,
    const std::function<void(std::size_t index, FeatureDatabase& connection)>& load);

} // namespace concorde
