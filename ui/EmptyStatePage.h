#pragma once

#include <QWidget>

class QLabel;

namespace concorde::ui {

/// A page that says why it is empty and what to do about it: a title, an explanation, an optional
/// command (selectable, in a monospace box so it can be copied) and an optional hint below it.
/// Used wherever a view has nothing to show yet, so every empty view looks and reads the same.
class EmptyStatePage : public QWidget {
    Q_OBJECT

public:
    EmptyStatePage(const QString& title, const QString& message, QWidget* parent = nullptr);

    /// Shows `command` in a copyable monospace box under the message (hidden when empty).
    void setCommand(const QString& command);
    /// Shows `hint` under the command (hidden when empty); may be rich text, e.g. for <nobr>.
    void setHint(const QString& hint);

    QString title() const;
    QString message() const;
    QString command() const;
    QString hint() const;

private:
    QLabel* title_;
    QLabel* message_;
    QLabel* command_;
    QLabel* hint_;
};

} // namespace concorde::ui
