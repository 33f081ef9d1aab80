#pragma once

#include <string>

namespace concorde {

/// Which revision of the analysis a set of bounds comes from. A feature database records it in
/// `meta` and is extended with the revision it was built with, so that its model keeps reading
/// features of the kind it was trained on; bounds of different revisions never mix in one file.
/// Each field is a change of the analysis that older databases predate.
struct AnalysisRevision {
    /// The SQ bound drains committed stores through the L1d: one "sq" series per SQ size and
    /// memory configuration (meta.store_queue_model = "timed"). False: one series per SQ size,
    /// memory-independent (QueueModel::Kind::UntimedStore).
    bool timedStores = true;
    /// Prefetches arrive a fill latency after the load that triggered them and fills share the
    /// L1d MSHRs (meta.load_timing = "timed"; RegionAnalyzer::setTimedLoads). False: a
    /// prefetched line is there at once and misses have no MSHR limit.
    bool timedLoads = true;
    /// The LQ bound holds each load's entry to its commit, through the ROB system with an
    /// unlimited ROB (RobModel::runLoadQueue; meta.load_queue_model = "through_commit"). False:
    /// loads alone, without dependencies, every other instruction free (QueueModel::Kind::Load),
    /// which lets a 16-entry LQ look unlimited where loads wait behind slow older work (what
    /// databases and models before 2026-11-30 hold; a model reads the features of the analysis
    /// it was trained on, CpiModel::checkAnalysis).
    bool loadQueueThroughCommit = true;

    /// The revision this build computes for new databases.
    static AnalysisRevision current() { return {}; }
    bool operator==(const AnalysisRevision&) const = default;
    /// For messages: "timed store-queue series, untimed loads" and the like.
    std::string describe() const;
};

} // namespace concorde
