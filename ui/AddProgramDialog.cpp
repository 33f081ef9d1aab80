#include "AddProgramDialog.h"

#include "ProgramImport.h"
#include "Session.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace concorde::ui {

AddProgramDialog::AddProgramDialog(Session& session, QString concorde, QString userDatabase,
                                   QWidget* parent)
    : QDialog(parent), session_(session), concorde_(std::move(concorde)),
      userDatabase_(std::move(userDatabase)), import_(new ProgramImport(this)) {
    setObjectName(QStringLiteral("addProgramDialog"));
    setWindowTitle(tr("Add program"));

    fromCommand_ = new QRadioButton(tr("Trace a &command line"), this);
    fromCommand_->setObjectName(QStringLiteral("fromCommand"));
    fromCommand_->setChecked(true);
    command_ = new QLineEdit(this);
    command_->setObjectName(QStringLiteral("command"));
    command_->setPlaceholderText(tr("e.g. gzip -9 -c /path/to/input"));
    command_->setToolTip(tr("Run under Valgrind twice (counting, then tracing): it must do the "
                            "same work both times and exit with code 0."));
    fromTrace_ = new QRadioButton(tr("Use a &trace file (.ctrace, or a ChampSim trace)"), this);
    fromTrace_->setObjectName(QStringLiteral("fromTrace"));
    traceFile_ = new QLineEdit(this);
    traceFile_->setObjectName(QStringLiteral("traceFile"));
    browse_ = new QPushButton(tr("Browse…"), this);
    auto* traceRow = new QHBoxLayout;
    traceRow->addWidget(traceFile_, 1);
    traceRow->addWidget(browse_);

    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("programName"));
    regions_ = new QSpinBox(this);
    regions_->setObjectName(QStringLiteral("regions"));
    regions_->setRange(2, 64);
    regions_->setValue(8);
    regions_->setToolTip(tr("Regions of 100,000 instructions, spread evenly over the run, each "
                            "after a 10M-instruction functional warm-up."));

    auto* form = new QFormLayout;
    form->addRow(fromCommand_);
    form->addRow(command_);
    form->addRow(fromTrace_);
    form->addRow(traceRow);
    form->addRow(tr("&Name"), name_);
    form->addRow(tr("&Regions"), regions_);

    auto* where = new QLabel(
        tr("The program goes into <b>%1</b>: a copy of the open database with your program "
           "added, predicted by its model. A ChampSim trace gives one region.")
            .arg(QFileInfo(userDatabase_).fileName()),
        this);
    where->setToolTip(userDatabase_);
    where->setWordWrap(true);

    step_ = new QLabel(this);
    step_->setObjectName(QStringLiteral("step"));
    step_->setWordWrap(true);
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("progress"));
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->hide();
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("error"));
    error_->setWordWrap(true);
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    error_->hide();

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    add_ = buttons_->addButton(tr("&Add"), QDialogButtonBox::AcceptRole);
    add_->setObjectName(QStringLiteral("add"));
    add_->setDefault(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(where);
    layout->addWidget(step_);
    layout->addWidget(progress_);
    layout->addWidget(error_);
    layout->addWidget(buttons_);
    setMinimumWidth(520);

    const auto updateSource = [this] {
        const bool command = fromCommand_->isChecked();
        command_->setEnabled(command);
        regions_->setEnabled(command);
        traceFile_->setEnabled(!command);
        browse_->setEnabled(!command);
        suggestName();
    };
    connect(fromCommand_, &QRadioButton::toggled, this, updateSource);
    connect(command_, &QLineEdit::textChanged, this, &AddProgramDialog::suggestName);
    connect(traceFile_, &QLineEdit::textChanged, this, &AddProgramDialog::suggestName);
    connect(name_, &QLineEdit::textEdited, this, [this] { nameEdited_ = true; });
    connect(browse_, &QPushButton::clicked, this, &AddProgramDialog::chooseTraceFile);
    connect(add_, &QPushButton::clicked, this, &AddProgramDialog::startAdding);
    connect(buttons_, &QDialogButtonBox::rejected, this, &AddProgramDialog::reject);
    updateSource();
    command_->setFocus(); // the usual case: type the command at once

    connect(import_, &ProgramImport::progressChanged, this,
            [this](const QString& step, double fraction) {
                step_->setText(step);
                progress_->setValue(static_cast<int>(fraction * 1000));
            });
    connect(import_, &ProgramImport::failed, this, [this](const QString& message) {
        setRunning(false);
        step_->clear();
        showError(message);
    });
    connect(import_, &ProgramImport::cancelled, this, [this] {
        setRunning(false);
        step_->setText(tr("Cancelled; nothing was added."));
    });
    connect(import_, &ProgramImport::finished, this,
            [this](const QString& database, const QString& program) {
                setRunning(false);
                emit programAdded(database, program);
                accept();
            });
}

bool AddProgramDialog::startAdding() {
    error_->hide();
    ProgramImport::Request request;
    request.name = name_->text().trimmed();
    const QString nameProblem = ProgramImport::checkName(request.name, session_.programs());
    if (!nameProblem.isEmpty()) {
        showError(nameProblem);
        return false;
    }
    if (fromCommand_->isChecked()) {
        QString syntax;
        request.command = ProgramImport::splitCommandLine(command_->text(), &syntax);
        if (!syntax.isEmpty()) {
            showError(syntax);
            return false;
        }
        if (request.command.isEmpty()) {
            showError(tr("Type the command line to trace."));
            return false;
        }
        request.regions = regions_->value();
    } else {
        request.traceFile = traceFile_->text().trimmed();
        if (request.traceFile.isEmpty()) {
            showError(tr("Choose a trace file."));
            return false;
        }
    }
    request.sourceDatabase = session_.databasePath();
    request.userDatabase = userDatabase_;
    request.concorde = concorde_;
    setRunning(true);
    import_->start(request);
    return import_->isRunning();
}

void AddProgramDialog::reject() {
    if (import_->isRunning()) {
        import_->cancel(); // the dialog stays open and says so
        return;
    }
    QDialog::reject();
}

void AddProgramDialog::chooseTraceFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Trace to add"), QString(),
        tr("Traces (*.ctrace *.champsimtrace *.xz *.gz);;All files (*)"));
    if (!path.isEmpty())
        traceFile_->setText(path);
}

void AddProgramDialog::suggestName() {
    if (nameEdited_)
        return;
    QString base;
    if (fromCommand_->isChecked()) {
        const QStringList words = ProgramImport::splitCommandLine(command_->text());
        if (!words.isEmpty())
            base = QFileInfo(words.front()).fileName();
    } else {
        base = QFileInfo(traceFile_->text()).fileName().section('.', 0, 0);
    }
    // The first free name: gzip, gzip-2, gzip-3...
    const QStringList existing = session_.programs();
    QString name = base;
    for (int n = 2; !base.isEmpty() && existing.contains(name); ++n)
        name = QStringLiteral("%1-%2").arg(base).arg(n);
    name_->setText(name);
}

void AddProgramDialog::setRunning(bool running) {
    for (QWidget* input : {static_cast<QWidget*>(fromCommand_), static_cast<QWidget*>(fromTrace_),
                           static_cast<QWidget*>(name_)})
        input->setEnabled(!running);
    command_->setEnabled(!running && fromCommand_->isChecked());
    regions_->setEnabled(!running && fromCommand_->isChecked());
    traceFile_->setEnabled(!running && fromTrace_->isChecked());
    browse_->setEnabled(!running && fromTrace_->isChecked());
    add_->setEnabled(!running);
    progress_->setVisible(running);
    if (running)
        progress_->setValue(0);
}

void AddProgramDialog::showError(const QString& message) {
    error_->setText(message);
    error_->show();
}

} // namespace concorde::ui
