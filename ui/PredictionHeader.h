#pragma once

#include "Session.h"
#include "params/Preset.h"

#include <QWidget>
#include <vector>

class QLabel;

namespace concorde::ui {

class ProgramSelector;

/// The live CPI readout above the views: the program selector, the selected program's predicted
/// CPI, the change against the baseline (an arrow, a signed percentage and a colour:
/// bluish green when the target is faster, vermillion when slower); below them IPC and the model's
/// measured accuracy; and a warning line when a setting lies off the database grid or outside what
/// the model was trained on.
///
/// Children are named "cpi_label", "ipc_label", "delta_label", "accuracy_label" and
/// "warning_label" for tests and styling.
class PredictionHeader : public QWidget {
    Q_OBJECT

public:
    /// `presets` name the baseline in the delta ("vs little (0.883)").
    explicit PredictionHeader(Session& session, std::vector<Preset> presets = {},
                              QWidget* parent = nullptr);

    QLabel* cpiLabel() const { return cpi_; }
    QLabel* ipcLabel() const { return ipc_; }
    QLabel* deltaLabel() const { return delta_; }
    QLabel* accuracyLabel() const { return accuracy_; }
    QLabel* warningLabel() const { return warning_; }

private:
    void showPrediction(const PredictionPtr& prediction);
    void showEmpty();
    void restyle();
    void colourDelta();

    Session& session_;
    std::vector<Preset> presets_;
    ProgramSelector* selector_ = nullptr;
    QLabel* cpi_ = nullptr;
    QLabel* ipc_ = nullptr;
    QLabel* delta_ = nullptr;
    QLabel* accuracy_ = nullptr;
    QLabel* warning_ = nullptr;
    int deltaSign_ = 0; ///< -1 faster than the baseline, +1 slower, 0 same or unknown
};

} // namespace concorde::ui
