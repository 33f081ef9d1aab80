#include "ParameterHistory.h"

#include "Session.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace concorde::ui {

/// One step: the target and baseline before and after. Steps of the same gesture merge.
class ParameterChange : public QUndoCommand {
public:
    ParameterChange(ParameterHistory& history, CoreConfig beforeTarget, CoreConfig beforeBaseline,
                    CoreConfig afterTarget, CoreConfig afterBaseline, int gesture)
        : history_(history), beforeTarget_(std::move(beforeTarget)),
          beforeBaseline_(std::move(beforeBaseline)), afterTarget_(std::move(afterTarget)),
          afterBaseline_(std::move(afterBaseline)), gesture_(gesture) {
        describe();
    }

    void undo() override { history_.apply(beforeTarget_, beforeBaseline_); }
    // The first redo() runs when the step is pushed: the Session already holds these values,
    // so setting them again emits nothing.
    void redo() override { history_.apply(afterTarget_, afterBaseline_); }
    int id() const override { return gesture_ > 0 ? 1 : -1; }

    bool mergeWith(const QUndoCommand* other) override {
        const auto* next = static_cast<const ParameterChange*>(other);
        if (next->gesture_ != gesture_)
            return false;
        afterTarget_ = next->afterTarget_;
        afterBaseline_ = next->afterBaseline_;
        setObsolete(afterTarget_ == beforeTarget_ && afterBaseline_ == beforeBaseline_);
        describe();
        return true;
    }

private:
    static QString differences(const CoreConfig& before, const CoreConfig& after) {
        QStringList changed;
        const ParameterSpec* only = nullptr;
        for (const ParameterSpec& spec : ParameterSpace::all())
            if (before.value(spec.id) != after.value(spec.id)) {
                changed << QString::fromStdString(spec.key);
                only = &spec;
            }
        if (changed.size() == 1)
            return QStringLiteral("%1 %2 → %3")
                .arg(QString::fromStdString(only->label),
                     QString::fromStdString(only->formatValue(before.value(only->id))),
                     QString::fromStdString(only->formatValue(after.value(only->id))));
        return QObject::tr("%n parameter(s)", nullptr, int(changed.size()));
    }

    void describe() {
        QStringList parts;
        if (!(beforeTarget_ == afterTarget_))
            parts << differences(beforeTarget_, afterTarget_);
        if (!(beforeBaseline_ == afterBaseline_))
            parts << QObject::tr("Baseline: %1").arg(differences(beforeBaseline_, afterBaseline_));
        setText(parts.join(QStringLiteral("; ")));
    }

    ParameterHistory& history_;
    CoreConfig beforeTarget_, beforeBaseline_, afterTarget_, afterBaseline_;
    int gesture_;
};

ParameterHistory::ParameterHistory(Session& session, QObject* parent)
    : QObject(parent), session_(session), stack_(new QUndoStack(this)), target_(session.config()),
      baseline_(session.baseline()) {
    stack_->setObjectName(QStringLiteral("parameter_history"));
    connect(&session_, &Session::configChanged, this,
            [this](const CoreConfig& target) { record(target, baseline_); });
    connect(&session_, &Session::baselineChanged, this,
            [this](const CoreConfig& baseline) { record(target_, baseline); });
}

void ParameterHistory::beginGesture() {
    if (gesture_ == 0)
        gesture_ = nextGesture_++;
}

void ParameterHistory::endGesture() {
    gesture_ = 0;
}

void ParameterHistory::record(const CoreConfig& target, const CoreConfig& baseline) {
    const CoreConfig beforeTarget = target_;
    const CoreConfig beforeBaseline = baseline_;
    target_ = target;
    baseline_ = baseline;
    if (applying_)
        return;
    stack_->push(
        new ParameterChange(*this, beforeTarget, beforeBaseline, target, baseline, gesture_));
}

void ParameterHistory::apply(const CoreConfig& target, const CoreConfig& baseline) {
    applying_ = true;
    session_.setConfig(target);
    session_.setBaseline(baseline);
    applying_ = false;
}

} // namespace concorde::ui
