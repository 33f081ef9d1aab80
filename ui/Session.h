#pragma once

#include "BackgroundTask.h"
#include "explore/ExplorerPrediction.h"
#include "features/ParameterGrid.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace concorde {
class ExplorerModel;
class PresetLibrary;
struct Preset;
} // namespace concorde

namespace concorde::ui {

class Theme;

/// An immutable prediction snapshot, shared by every view that shows it.
using PredictionPtr = std::shared_ptr<const ExplorerPrediction>;
/// An open database with its model and precomputed predictor (immutable, thread-safe).
using ExplorerPtr = std::shared_ptr<const ExplorerModel>;

/// The state one explorer window works on: the target configuration the sliders edit, the
/// baseline it is compared against, the open feature database, the selected program, the view
/// shown and the theme — and the live predictions computed from them.
///
/// Views receive the Session in their constructors and subscribe to its signals; no view keeps its
/// own copy of this state, so there is one source of truth per window. Signals fire only when a
/// value really changes, so views can redraw on every signal without filtering.
///
/// Threads: opening a database (seconds: every region is precomputed) runs in a BackgroundTask
/// (Latest mode) with progress and cancel through the open's JobControl. Every change of target,
/// baseline or program asks for a new prediction, computed in a second BackgroundTask (Coalesce
/// mode): while one prediction runs, further changes only replace the waiting request, and when
/// it finishes exactly one new prediction starts from the latest state, so stale work is never
/// queued and a slider drag never builds a backlog. Results arrive as predictionReady() on the UI
/// thread; a new database drops every prediction still on its way.
class Session : public QObject {
    Q_OBJECT

public:
    /// Target and baseline both at the default CoreConfig.
    explicit Session(QObject* parent = nullptr);
    Session(const CoreConfig& target, const CoreConfig& baseline, QObject* parent = nullptr);
    /// Cancels an open in progress and waits for worker threads to finish.
    ~Session() override;

    /// The target a new session starts with when nothing else is asked for or remembered: the
    /// preset "n1-like" when `presets` has it (a named, realistic core), otherwise the default
    /// CoreConfig.
    static CoreConfig defaultTarget(const PresetLibrary& presets);
    /// The baseline a new session starts with: the preset "little" when `presets` has it (so the
    /// explorer opens on a meaningful comparison of two named cores, n1-like against little),
    /// else "big", otherwise the default CoreConfig.
    static CoreConfig defaultBaseline(const PresetLibrary& presets);

    // --- Target configuration (what the sliders edit) ---

    /// The target configuration.
    const CoreConfig& config() const { return config_; }
    /// Replaces the target configuration; emits configChanged() unless it is equal to the current.
    void setConfig(const CoreConfig& config);
    /// Sets one parameter of the target. Throws a bad-input ConcordeError (and changes nothing)
    /// when the value is outside the parameter's range or kind.
    void setParameter(ParamId id, double value);
    /// Makes the preset's configuration the target.
    void applyPreset(const Preset& preset);

    // --- Baseline configuration (what the target is compared against) ---

    /// The baseline configuration.
    const CoreConfig& baseline() const { return baseline_; }
    /// Replaces the baseline; emits baselineChanged() unless it is equal to the current one.
    void setBaseline(const CoreConfig& baseline);
    /// Makes the preset's configuration the baseline.
    void applyPresetAsBaseline(const Preset& preset);
    /// Presets saved during this session (Presets ▸ Save the sliders as a preset). Views built
    /// with a copy of the preset library name configurations through presetName(), which looks
    /// here too, and refresh on savedPresetsChanged().
    const std::vector<Preset>& savedPresets() const { return savedPresets_; }
    void addSavedPreset(Preset preset);
    /// The name of the first preset of `library`, then of savedPresets(), equal to `config`;
    /// empty when none is.
    std::string presetName(const std::vector<Preset>& library, const CoreConfig& config) const;

    // --- Feature database ---

    /// Starts opening the feature database at `path` on a worker thread (cancelling an open in
    /// progress). Emits databaseOpening(), databaseProgress() as regions are precomputed, then
    /// databaseOpened() or databaseFailed() with a message for the user (a missing, damaged or
    /// foreign file, a database without a model). A failure keeps the database open before.
    void openDatabase(const QString& path);
    /// Opens on the calling thread (the headless export, tests); the same signals, no progress.
    /// Returns false, with the message in `error`, on failure.
    /// `only`: precompute predictions for these configurations' values only
    /// (ExplorerModel::open), for a one-shot export; empty: the whole grid.
    bool openDatabaseNow(const QString& path, QString* error = nullptr,
                         const std::vector<CoreConfig>& only = {});
    /// Cancels an open in progress (emits databaseOpenCancelled()); no-op when none.
    void cancelOpening();
    /// True while a database is being opened.
    bool isOpening() const { return !openingPath_.isEmpty(); }
    /// The database being opened (empty when none).
    const QString& openingPath() const { return openingPath_; }
    /// True when a feature database is open and views have data to show.
    bool hasDatabase() const { return explorer_ != nullptr; }
    /// Absolute path of the open database; empty when none.
    const QString& databasePath() const { return databasePath_; }
    /// The open database, its model and predictor (nullptr when none). Views that read stored
    /// series go through ExplorerModel::withDatabase().
    const ExplorerPtr& explorer() const { return explorer_; }
    /// The values each parameter may take: the open database's grid, or the default grid.
    const ParameterGrid& grid() const;
    /// The open database's programs, in database order (empty when none).
    QStringList programs() const;
    /// Damaged data degrades, it does not refuse: the open database's damaged regions, which
    /// the explorer skipped, in one line for a status bar or banner ("2 damaged regions skipped
    /// (gzip region 4, unxz region 0): ..."); empty when there are none or no database is open.
    QString damageWarning() const;
    /// Every damaged region skipped, one per line, naming the part and why (for a tooltip).
    QString damageDetails() const;

    // --- Selection ---

    /// The selected program (may name a program of a database not open yet, e.g. from a saved
    /// session; once a database opens, an unknown name is replaced by its first program).
    const QString& program() const { return program_; }
    /// Selects a program. With a database open (and none being opened), an unknown name is
    /// refused (returns false).
    bool setProgram(const QString& program);
    /// The view shown (a tab's object name, e.g. "view_overview"), saved with the session.
    const QString& view() const { return view_; }
    void setView(const QString& view);
    /// The parameter the sweep view sweeps (chosen there, from a slider's context menu or from
    /// a row of the sensitivity ranking).
    ParamId sweptParameter() const { return sweptParameter_; }
    void setSweptParameter(ParamId parameter);
    /// Shows the sweep view of `parameter`: setSweptParameter() and the sweep tab.
    void sweep(ParamId parameter);

    // --- Predictions ---

    /// The latest prediction (nullptr before the first, and after a new database opened until
    /// its first prediction arrives).
    const PredictionPtr& prediction() const { return prediction_; }
    /// Computes the prediction for the current state on the calling thread and emits
    /// predictionReady() before returning (the headless export; waits for a running one first).
    void recomputeNow();
    /// True while a prediction is being computed.
    bool isPredicting() const { return predictor_.isRunning(); }

    // --- Look ---

    /// The theme of this window (colour scheme, projector mode) that every view follows.
    Theme& theme() const { return *theme_; }

signals:
    /// The target configuration changed (never emitted for a no-op).
    void configChanged(const concorde::CoreConfig& config);
    /// The baseline configuration changed (never emitted for a no-op).
    void baselineChanged(const concorde::CoreConfig& baseline);
    /// An open started.
    void databaseOpening(const QString& path);
    /// `done` of `total` regions precomputed.
    void databaseProgress(int done, int total);
    /// The database at `path` is open (databasePath(), explorer() and grid() are updated).
    void databaseOpened(const QString& path);
    /// Opening `path` failed; `message` says why, for the user.
    void databaseFailed(const QString& path, const QString& message);
    /// The user cancelled the open of `path`.
    void databaseOpenCancelled(const QString& path);
    /// The open database changed (emitted with databaseOpened()).
    void databasePathChanged(const QString& path);
    /// The selected program changed.
    void programChanged(const QString& program);
    /// The view shown changed.
    void viewChanged(const QString& view);
    /// The swept parameter changed (`parameter` is its ParamId as an int).
    void sweptParameterChanged(int parameter);
    /// A preset was saved (savedPresets() grew).
    void savedPresetsChanged();
    /// A new prediction for the current (or a very recent) state.
    void predictionReady(const concorde::ui::PredictionPtr& prediction);
    /// A prediction could not be computed (should not happen: configurations are snapped).
    void predictionFailed(const QString& message);

private:
    struct OpenOutcome {
        ExplorerPtr explorer;
        QString error;
    };
    struct PredictionOutcome {
        PredictionPtr prediction;
        QString error;
    };

    void finishOpen(const QString& path, const OpenOutcome& outcome);
    void requestPrediction();
    /// Copies the state a prediction needs and returns the job computing it.
    std::function<PredictionOutcome(const JobControl&)> predictionJob();
    void publish(const PredictionOutcome& outcome);

    CoreConfig config_;
    CoreConfig baseline_;
    QString databasePath_;
    QString program_;
    QString view_;
    ParamId sweptParameter_ = ParamId::Rob;
    std::vector<Preset> savedPresets_;
    ExplorerPtr explorer_;
    Theme* theme_ = nullptr;

    // opening
    QString openingPath_;
    BackgroundTask opener_{BackgroundTask::Mode::Latest};

    // predictions
    BackgroundTask predictor_{BackgroundTask::Mode::Coalesce};
    std::uint64_t requested_ = 0;
    PredictionPtr prediction_;
};

} // namespace concorde::ui

Q_DECLARE_METATYPE(concorde::ui::PredictionPtr)
