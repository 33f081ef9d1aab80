#pragma once

#include "params/CoreConfig.h"

#include <QObject>

class QUndoStack;

namespace concorde::ui {

class Session;

/// Undo and redo of parameter changes: every change of the Session's target or baseline
/// configuration (a slider, a preset, a loaded session) becomes one step on a QUndoStack, named
/// after what changed ("ROB 128 → 192", "Baseline: 20 parameters"). Changes between
/// beginGesture() and endGesture() — a slider drag, loading a session — merge into a single step,
/// and a gesture that ends where it started leaves no step at all.
class ParameterHistory : public QObject {
    Q_OBJECT

public:
    explicit ParameterHistory(Session& session, QObject* parent = nullptr);

    QUndoStack* stack() const { return stack_; }

    /// Starts a gesture: the changes until endGesture() make one step.
    void beginGesture();
    void endGesture();

private:
    friend class ParameterChange;
    void record(const CoreConfig& target, const CoreConfig& baseline);
    /// Sets the Session's configurations without recording (undo/redo).
    void apply(const CoreConfig& target, const CoreConfig& baseline);

    Session& session_;
    QUndoStack* stack_;
    CoreConfig target_;   ///< the Session's target as last seen
    CoreConfig baseline_; ///< the Session's baseline as last seen
    bool applying_ = false;
    int gesture_ = 0; ///< id of the open gesture, 0 when none
    int nextGesture_ = 1;
};

} // namespace concorde::ui
