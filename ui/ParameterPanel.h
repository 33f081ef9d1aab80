#pragma once

#include "params/CoreConfig.h"

#include <QWidget>
#include <array>
#include <vector>

class QGridLayout;
class QGroupBox;
class QLabel;
class QScrollArea;
class QSlider;

namespace concorde::ui {

class Session;

/// The twenty parameter sliders, grouped "Front end", "Back end" and "Memory".
///
/// Each slider's positions are the indices of its parameter's grid values — the open database's
/// grid (Session::grid(); the default grid before one is open) — so it can only land on values
/// the database precomputes. Moving a slider sets the parameter in the Session; a change in the
/// Session (a preset, undo, another view) moves the sliders. Child objects are named
/// "slider_<key>", "value_<key>" and "label_<key>" (e.g. "slider_rob") for tests and styling.
///
/// A parameter that has no effect in the current configuration (bp_miss_pct under TAGE:
/// ParameterRelevance) is disabled, its tooltip saying why.
///
/// dragStarted() and dragFinished() bracket a mouse drag of any slider, so that the undo history
/// can make one step of a whole drag.
class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(Session& session, QWidget* parent = nullptr);

    /// The slider of one parameter.
    QSlider* slider(ParamId id) const { return rows_[index(id)].slider; }
    /// The label showing one parameter's current value with its unit.
    QLabel* valueLabel(ParamId id) const { return rows_[index(id)].value; }

signals:
    /// The user pressed the mouse on a slider's handle.
    void dragStarted();
    /// The user released it.
    void dragFinished();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Row {
        QSlider* slider = nullptr;
        QLabel* value = nullptr;
        QLabel* name = nullptr;
        double shown = 0; ///< the value the label shows (NaN: to be redrawn)
        /// Why the parameter has no effect in the shown configuration (ParameterRelevance);
        /// empty while it has one. Its row is disabled meanwhile, the reason in its tooltips.
        QString inert;
    };

    QGroupBox* buildGroup(ParamGroup group);
    /// Slider ranges, ticks and tooltips from the Session's grid (on construction and whenever
    /// a database opens).
    void applyGrid();
    /// Label widths and column alignment from the current font (on construction and whenever
    /// the font changes, e.g. in projector mode).
    void updateMetrics();
    QString toolTipFor(const ParameterSpec& spec) const;
    void onSliderMoved(ParamId id, int position);
    void showConfig(const CoreConfig& config);
    /// Enables a parameter's row where it has an effect in `config`, else disables it and
    /// says why in its tooltips.
    void showRelevance(const ParameterSpec& spec, const CoreConfig& config);
    /// Makes the next showConfig() redraw every value label (new grid, new font).
    void forgetShownValues();
    void showValue(ParamId id, double value);

    Session& session_;
    std::array<Row, kParamCount> rows_{};
    std::vector<QGridLayout*> grids_;
    QScrollArea* scroll_ = nullptr;
    QWidget* content_ = nullptr;
    /// True while the sliders are being moved to match the Session, so that those moves are not
    /// written back (which would snap off-grid preset values to the grid).
    bool syncing_ = false;
};

} // namespace concorde::ui
