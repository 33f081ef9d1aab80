#pragma once

#include "bounds/GridBounds.h"
#include "common/JobControl.h"
#include "params/CoreConfig.h"
#include "params/MethodConstants.h"
#include "store/Shard.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

/// `concorde dataset` (docs/design.md §8): random (region, configuration) samples with the raw
/// feature vector for exactly that configuration, the reference simulator's CPI as the label and
/// the min-of-bounds CPI as the no-ML baseline.
///
/// The sample plan is a pure function of the seed: draw i picks a region with probability
/// proportional to its measured length (so programs weigh by how much of them is traced) and a
/// configuration with every parameter drawn independently and uniformly from the grid
/// (RegionLabeler::randomConfig with draw i). Asking for more samples later only adds draws, and
/// an interrupted run resumes where it stopped: samples are written region by region, and draws
/// already in the file are skipped.
///
/// Splits: samples of the hold-out programs are "held_out" and never trained on; of the other
/// programs, every region whose index is 3 mod 8 (two of sixteen, spread over the run) is "test"
/// (regions the model never sees in training); the rest is "train".
///
/// Sharding (`--shard I/N`): a shard keeps the draws of the plan that fall on regions whose
/// position in the input list (all regions of all inputs, in order) is I mod N, so each region's
/// series are computed by one shard only, and the N shards together hold exactly the one-machine
/// file's rows. A shard's file records "shard": "I/N" in its sources; DatasetMerger joins them.
class DatasetBuilder {
public:
    struct Options {
        std::size_t samples = 0;
        std::uint64_t seed = 1;
        std::vector<std::string> holdOut;
        unsigned jobs = 0; ///< 0: every core
        int percentiles = 10;
        std::uint32_t windowSize = kDefaultWindowSize; ///< traces only (a database has its own)
        /// The analysis of the features, traces only (a database has its own).
        AnalysisRevision analysis = AnalysisRevision::current();
        /// An earlier dataset drawn with the same seed and inputs (e.g. before a feature layout
        /// change): draws found there with the same region and configuration take its label
        /// instead of a new simulation. Only the features are recomputed.
        std::filesystem::path labelsFrom;
        /// Fraction of draws that are balanced cores (balancedConfig) instead of independent
        /// parameters. Independent draws rarely make every resource large or small at once, so a
        /// model trained on them alone extrapolates at presets like `big`.
        double balancedFraction = 0;
        /// Fraction of draws that start at one of `anchors` (a preset) and move one to three of
        /// its parameters to random grid values (nearAnchorConfig). What a user does in the
        /// explorer is exactly that: start at a preset and move sliders; independent draws
        /// almost never land near a realistic core, so the model is least trained where it is
        /// used most. Draws that are neither balanced nor near an anchor are independent.
        double nearAnchorFraction = 0;
        /// The anchor configurations (the CLI passes the presets), with their names for the
        /// file's sources. Needed when nearAnchorFraction > 0.
        std::vector<std::pair<std::string, CoreConfig>> anchors;
        /// Only the draws on regions whose input position % N == I (the default: every draw).
        Shard shard;
    };
    struct Summary {
        std::size_t written = 0;
        std::size_t existing = 0; ///< draws already in the file
        /// Rows already in the file that failed their check (a crash, damage), removed before
        /// resuming and drawn again; the first one's problem says what was wrong.
        std::size_t removed = 0;
        std::string firstRemovedProblem;
        std::size_t regions = 0;
        std::size_t drawsInShard = 0; ///< draws of the plan this shard owns (all without one)
        std::size_t total = 0;        ///< samples in the file afterwards
        double seconds = 0;
    };

    /// Progress counts the samples this run draws, with a log line per region written. A
    /// cancelled job keeps every region it wrote and throws jobCancelled saying how to resume.
    ///
    /// From a feature database: its stored series and trace records; configurations on its grid.
    static Summary fromDatabase(const std::filesystem::path& database,
                                const std::filesystem::path& output, const Options& options,
                                const JobControl& job = {});
    /// From .ctrace files: each region's series computed over `grid` as build-db would
    /// (seconds per region), then sampled the same way.
    static Summary fromTraces(const std::vector<std::filesystem::path>& traces,
                              const BoundsGrid& grid, const std::filesystem::path& output,
                              const Options& options, const JobControl& job = {});

    /// A balanced core: one size level drawn uniformly, every numeric parameter at about that
    /// position of its grid (miss rate mirrored), choices uniform. A pure function of the draw.
    static CoreConfig balancedConfig(const BoundsGrid& grid, std::uint64_t seed,
                                     std::uint64_t draw);
    /// A draw near an anchor: anchor (draw % anchors) snapped to the grid's nearest values,
    /// then one to three distinct parameters (uniform) set to uniform grid values. A pure
    /// function of the seed, the draw and the anchors.
    static CoreConfig nearAnchorConfig(const BoundsGrid& grid,
                                       std::span<const std::pair<std::string, CoreConfig>> anchors,
                                       std::uint64_t seed, std::uint64_t draw);
    /// "held_out", "test" or "train" (see the class comment).
    static std::string splitOf(const std::string& program, std::uint32_t regionIndex,
                               const std::vector<std::string>& holdOut);
};

} // namespace concorde
