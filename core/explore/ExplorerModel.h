#pragma once

#include "explore/ConfigChecker.h"
#include "explore/DatabasePredictor.h"
#include "explore/ExplorerPrediction.h"
#include "ml/ModelAccuracy.h"
#include "store/FeatureDatabase.h"
#include "store/RegionCatalog.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// What the explorer asks of an open feature database (docs/design.md §11), without Qt: the
/// database opened read-only, its CPI model, one block-precomputed DatabasePredictor over every
/// program, the model's measured accuracy and a ConfigChecker for the database grid and the
/// training grid.
///
/// Construction is the slow part (every region precomputed, in parallel, with progress and
/// cancel); afterwards every const member is thread-safe, so the GUI builds it on a worker
/// thread and predicts from another while the user drags sliders.
class ExplorerModel {
public:
    /// Opens `path` read-only and loads its model `modelName` (the newest when empty). Throws a
    /// ConcordeError with a message for the user: the file is missing, not a feature database or
    /// damaged (FeatureDatabase::openReadOnly), has no model, a model that does not load, no
    /// complete region or only damaged ones, or the user cancelled through `job`
    /// (jobCancelled). `job` counts the regions precomputed. Damaged regions are skipped and
    /// listed in damaged() (DatabasePredictor).
    ///
    /// With `only` (e.g. a headless export's target and baseline), predictions are precomputed
    /// just for configurations made of these configurations' values, snapped to the grid: every
    /// mix of them (Shapley's coalitions), and nothing else (a sweep or a sensitivity step is
    /// then refused as off the grid). grid() and snap() keep the database's whole grid.
    static std::unique_ptr<ExplorerModel> open(const std::filesystem::path& path,
                                               const std::string& modelName = {},
                                               const JobControl& job = {},
                                               std::span<const CoreConfig> only = {});
    /// Uses an already-open database and model (tests, `--model-from`).
    ExplorerModel(FeatureDatabase database, CpiModel model, const JobControl& job = {},
                  std::span<const CoreConfig> only = {});

    const std::filesystem::path& path() const { return path_; }
    const CpiModel& model() const { return predictor_->model(); }
    const DatabasePredictor& predictor() const { return *predictor_; }
    /// The database's programs and intact complete regions, read once at open (the predictor's
    /// regions are these, in this order), and the damaged regions left out.
    const RegionCatalog& regionCatalog() const { return predictor_->catalog(); }
    /// The damaged regions skipped at open (empty for an intact database): every view shows
    /// the rest, and the overview marks these and their programs.
    const std::vector<RegionCatalog::Damage>& damaged() const { return predictor_->damaged(); }
    /// The database's grid: the values sliders may take.
    const ParameterGrid& grid() const { return checker_.grid(); }
    const ConfigChecker& checker() const { return checker_; }
    const ModelAccuracy& accuracy() const { return accuracy_; }
    /// Program names in database order (programs with at least one complete region).
    const std::vector<std::string>& programs() const { return predictor_->programs(); }
    /// How far each program (programs() order) lies from the model's training data
    /// (DatabasePredictor::programOodScore; above 1: outside).
    const std::vector<double>& programOodScores() const { return oodScores_; }
    /// Number of regions of `program` (usage error for an unknown one).
    std::size_t regionCount(const std::string& program) const;
    bool hasProgram(const std::string& program) const;

    /// Every parameter on its nearest database grid value (see ConfigChecker::snap).
    CoreConfig snap(const CoreConfig& config) const { return checker_.snap(config); }
    /// Off-grid and outside-training warnings for `config` (see ConfigChecker::check).
    std::vector<ParameterWarning> warnings(const CoreConfig& config) const {
        return checker_.check(config);
    }

    /// Every program's CPI (programs() order) at `config`, snapped to the grid.
    std::vector<double> programCpis(const CoreConfig& config) const;
    /// Batched: result[c][p] is program p's CPI at configs[c] (each snapped to the grid). Each
    /// region evaluates all configurations in one batch.
    std::vector<std::vector<double>> programCpis(std::span<const CoreConfig> configs) const;
    /// Program `program`'s (an index into programs()) CPI at each of `configs`: the same numbers
    /// as programCpis(configs)[c][program], evaluating that program's regions only.
    std::vector<double> programCpiAt(std::size_t program,
                                     std::span<const CoreConfig> configs) const;
    /// One program's regions at `config` (snapped), in execution order; `targetCpi` holds the
    /// prediction and `baselineCpi` is left 0.
    std::vector<ExplorerPrediction::Region> regionCpis(const std::string& program,
                                                       const CoreConfig& config) const;

    /// The live views' snapshot in one pass over the regions: every program's CPI at the target
    /// and the baseline, the selected program's regions, warnings and accuracy. An empty or
    /// unknown `program` gives no selection (no error). `sequence` is left 0. When `previous` (a
    /// prediction of this model) has the same baseline, its baseline CPIs are reused and only
    /// the target is evaluated.
    ExplorerPrediction predict(const CoreConfig& target, const CoreConfig& baseline,
                               const std::string& program,
                               const ExplorerPrediction* previous = nullptr) const;

    /// Runs `read` on the database under a lock (one SQLite connection is not thread-safe):
    /// views that read stored series (CDFs, timeseries, phases) go through here.
    template <typename Read>
    decltype(auto) withDatabase(Read&& read) const {
        std::lock_guard lock(databaseMutex_);
        return read(database_);
    }

private:
    /// `out[k * n + c]`: the CPI of region `only[k]` (every region, k = r, when `only` is
    /// empty) at configs[c], n = configs.size(); the regions in parallel.
    void evaluateRegions(std::span<const CoreConfig> configs, std::vector<double>& out,
                         std::span<const std::size_t> only = {}) const;
    /// The same with every region's band (one pass: the band comes with the members' CPIs).
    void evaluateRegions(std::span<const CoreConfig> configs, std::vector<CpiBand>& out,
                         std::span<const std::size_t> only = {}) const;
    /// Both: runs `regionCpis(r, configs, out)` on every region in parallel.
    template <typename Value, typename RegionValues>
    void evaluateEachRegion(std::span<const CoreConfig> configs, std::vector<Value>& out,
                            std::span<const std::size_t> only, RegionValues regionValues) const;
    std::vector<CoreConfig> snapAll(std::span<const CoreConfig> configs) const;

    std::filesystem::path path_;
    mutable FeatureDatabase database_;
    mutable std::mutex databaseMutex_;
    std::unique_ptr<DatabasePredictor> predictor_;
    ConfigChecker checker_;
    ModelAccuracy accuracy_;
    std::vector<std::optional<std::int64_t>> phases_; ///< per predictor region
    std::vector<double> oodScores_;                   ///< per program, programs() order
    std::vector<std::string> programDamage_;          ///< ExplorerPrediction::programDamage
    std::vector<std::pair<std::string, std::string>> lostPrograms_;
};

} // namespace concorde
