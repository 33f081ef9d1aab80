#pragma once

#include "params/CoreConfig.h"

#include <QObject>
#include <QString>

namespace concorde {
class PresetLibrary;
struct Preset;
} // namespace concorde

namespace concorde::ui {

/// The state one explorer window works on: the target configuration the sliders edit, the
/// baseline it is compared against, and the feature database the views read.
///
/// Views receive the Session in their constructors and subscribe to its signals; no view keeps its
/// own copy of this state, so there is one source of truth per window. Signals fire only when a
/// value really changes, so views can redraw on every signal without filtering.
class Session : public QObject {
    Q_OBJECT

public:
    /// Target and baseline both at the default CoreConfig.
    explicit Session(QObject* parent = nullptr);
    Session(const CoreConfig& target, const CoreConfig& baseline, QObject* parent = nullptr);

    /// The baseline a new session starts with: the preset named "big" when `presets` has it (the
    /// usual Shapley baseline, DESIGN §3), otherwise the default CoreConfig.
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

    // --- Feature database ---
    // Reading databases arrives with core/store. Until then the session only records which file
    // the user asked for, and hasDatabase() stays false so views keep showing their empty states.

    /// Path of the feature database the user chose; empty when none.
    const QString& databasePath() const { return databasePath_; }
    /// Records the database the user chose; emits databasePathChanged() when it differs.
    void setDatabasePath(const QString& path);
    /// True when a feature database is loaded and views have data to show.
    bool hasDatabase() const { return false; } // no loader yet: see the comment above

signals:
    /// The target configuration changed (never emitted for a no-op).
    void configChanged(const concorde::CoreConfig& config);
    /// The baseline configuration changed (never emitted for a no-op).
    void baselineChanged(const concorde::CoreConfig& baseline);
    /// The chosen database path changed.
    void databasePathChanged(const QString& path);

private:
    CoreConfig config_;
    CoreConfig baseline_;
    QString databasePath_;
};

} // namespace concorde::ui
