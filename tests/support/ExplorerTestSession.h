#pragma once
// What the explorer window tests share: a Session on the tiny explorer database's grid, and
// where a person would grab a slider.

#include "Session.h"
#include "TinyExplorerDatabase.h"
#include "explore/ConfigChecker.h"

#include <QPoint>
#include <QSlider>
#include <QStyle>

namespace concorde::testing {

/// The default configuration snapped to the tiny explorer grid.
inline CoreConfig onTinyGrid() {
    return ConfigChecker(ParameterGrid(tinyExplorerGrid()), {}).snap(CoreConfig{});
}

/// A session whose target is on the tiny grid at ROB 64 (the only ROB the tiny model was trained
/// on) and whose baseline differs in ALU issue width and load-queue size.
inline ui::Session* newTinySession() {
    CoreConfig target = onTinyGrid();
    target.set(ParamId::Rob, 64);
    CoreConfig baseline = target;
    baseline.set(ParamId::AluIssue, 4);
    baseline.set(ParamId::LoadQueue, 48);
    return new ui::Session(target, baseline);
}

/// The centre of `slider`'s handle, in the slider's coordinates: where a mouse drag starts.
inline QPoint sliderHandleCentre(const QSlider* slider) {
    const int length = slider->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, slider);
    const int x = QStyle::sliderPositionFromValue(slider->minimum(), slider->maximum(),
                                                  slider->value(), slider->width() - length) +
                  length / 2;
    return {x, slider->height() / 2};
}

} // namespace concorde::testing
