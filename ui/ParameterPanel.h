#pragma once

#include "params/CoreConfig.h"

#include <QWidget>
#include <array>
#include <vector>

class QGridLayout;
class QGroupBox;
class QLabel;
class QSlider;

namespace concorde::ui {

class Session;

/// The twenty parameter sliders, grouped "Front end", "Back end" and "Memory".
///
/// Each slider's positions are the indices of its parameter's grid values, so it can only land on
/// values the database precomputes. Moving a slider sets the parameter in the Session; a change in
/// the Session (a preset, undo, another view) moves the sliders. Child objects are named
/// "slider_<key>", "value_<key>" and "label_<key>" (e.g. "slider_rob") for tests and styling.
class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(Session& session, QWidget* parent = nullptr);

    /// The slider of one parameter.
    QSlider* slider(ParamId id) const { return rows_[index(id)].slider; }
    /// The label showing one parameter's current value with its unit.
    QLabel* valueLabel(ParamId id) const { return rows_[index(id)].value; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row {
        QSlider* slider = nullptr;
        QLabel* value = nullptr;
    };

    QGroupBox* buildGroup(ParamGroup group);
    static void alignColumns(const std::vector<QGridLayout*>& grids);
    void onSliderMoved(ParamId id, int position);
    void showConfig(const CoreConfig& config);
    void showValue(ParamId id, double value);

    Session& session_;
    std::array<Row, kParamCount> rows_{};
    /// True while the sliders are being moved to match the Session, so that those moves are not
    /// written back (which would snap off-grid preset values to the grid).
    bool syncing_ = false;
};

} // namespace concorde::ui
