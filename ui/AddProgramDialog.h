#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace concorde::ui {

class ProgramImport;
class Session;

/// File ▸ Add program…: asks for a command line or a trace file and a name, then runs
/// ProgramImport with progress and Cancel. On success it emits programAdded(); the window opens
/// that database with the new program selected.
class AddProgramDialog : public QDialog {
    Q_OBJECT

public:
    /// `concorde` is the tool that does the work; `userDatabase` where the result goes.
    AddProgramDialog(Session& session, QString concorde, QString userDatabase,
                     QWidget* parent = nullptr);

    /// Starts adding what the form describes (the Add button); false, with the reason shown,
    /// when the form is incomplete.
    bool startAdding();
    /// The running import (tests watch its signals).
    ProgramImport& import() const { return *import_; }

signals:
    void programAdded(const QString& database, const QString& program);

protected:
    void reject() override;

private:
    void chooseTraceFile();
    void suggestName();
    void setRunning(bool running);
    void showError(const QString& message);

    Session& session_;
    QString concorde_;
    QString userDatabase_;
    ProgramImport* import_;
    QRadioButton* fromCommand_;
    QRadioButton* fromTrace_;
    QLineEdit* command_;
    QLineEdit* traceFile_;
    QPushButton* browse_;
    QLineEdit* name_;
    QSpinBox* regions_;
    QLabel* step_;
    QProgressBar* progress_;
    QLabel* error_;
    QDialogButtonBox* buttons_;
    QPushButton* add_;
    bool nameEdited_ = false;
};

} // namespace concorde::ui
