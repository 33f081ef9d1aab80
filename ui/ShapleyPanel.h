#pragma once

#include "BackgroundTask.h"
#include "attribution/AttributionReport.h"
#include "attribution/PlayerSet.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"

#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace concorde {
class DatabasePredictor;
}

namespace concorde::ui {

class ShapleyView;

/// The Shapley view with its controls: baseline and target pickers (the session's baseline or
/// current sliders, or any preset), per-program / per-region mode with a program picker (and,
/// while the phase drill-down has chosen one, the single-region mode), a Compute button, and while
/// a run is going a progress bar and a Cancel button. The run is ShapleyJob::run (TBB inside) in a
/// BackgroundTask: its JobControl reports the progress and takes the cancel, and the panel shows
/// the report when it arrives. Destroying the panel cancels a run and waits for it to stop. It
/// knows nothing of the Session: the main window feeds it the predictor, the presets and the
/// current configurations.
class ShapleyPanel : public QWidget {
    Q_OBJECT

public:
    explicit ShapleyPanel(QWidget* parent = nullptr);
    ~ShapleyPanel() override;

    ShapleyView* view() const { return view_; }

    /// The model to attribute with (null: Compute is disabled). Cancels a running job.
    void setPredictor(std::shared_ptr<const DatabasePredictor> predictor);
    /// The presets offered as baseline and target.
    void setPresets(const std::vector<Preset>& presets);
    /// The session's baseline and the sliders' configuration (the first entries of the pickers).
    void setCurrentConfigs(const CoreConfig& baseline, const CoreConfig& target);
    /// The players (PlayerSet::defaultGroups() unless set).
    void setPlayers(const PlayerSet& players);
    /// Selects the baseline / target entry by name: "session baseline", "current sliders" or a
    /// preset name. Returns false for an unknown name.
    bool chooseBaseline(const QString& name);
    bool chooseTarget(const QString& name);

    /// Shows the regions of `program`, or every program when empty.
    void showProgram(const QString& program);
    /// Shows region `region` of `program` (its label in the report: the region index) beside the
    /// whole program, the phase drill-down; an empty `region` returns to every program.
    void showRegion(const QString& program, const QString& region);

    CoreConfig baselineConfig() const;
    CoreConfig targetConfig() const;
    QString baselineName() const;
    QString targetName() const;

    bool running() const;
    /// The progress of the running (or last) job, in [0, 1].
    double progress() const;
    /// The last status line ("Computing… 40 %", "Done: exact over 10 players...", errors).
    QString status() const;

public slots:
    /// Starts an attribution of every program with the chosen baseline and target.
    void start();
    /// Cancels the running attribution: it stops at its next batch and its result is dropped; the
    /// chart keeps the previous one. Emits cancelled().
    void cancel();

signals:
    void started();
    /// The run finished and the view shows its report.
    void finished();
    void cancelled();
    void failed(const QString& message);
    void progressChanged(double fraction);

private:
    void fillPickers();
    void updateControls();
    void showProgress(double fraction);
    void showReport(const AttributionReport& report);
    void showFailure(const QString& message);
    void showModeControls();
    /// Removes the single-region mode (no region chosen any more).
    void dropRegionMode();
    /// Puts `program` in the program picker (adding it if missing) and shows it in the view.
    void selectProgram(const QString& program);

    std::shared_ptr<const DatabasePredictor> predictor_;
    std::vector<Preset> presets_;
    CoreConfig sessionBaseline_;
    CoreConfig sessionTarget_;
    PlayerSet players_ = PlayerSet::defaultGroups();
    BackgroundTask task_{BackgroundTask::Mode::Latest};
    double progress_ = 0.0;

    QComboBox* baselineBox_ = nullptr;
    QComboBox* targetBox_ = nullptr;
    QComboBox* modeBox_ = nullptr;
    QComboBox* programBox_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    ShapleyView* view_ = nullptr;
};

} // namespace concorde::ui
