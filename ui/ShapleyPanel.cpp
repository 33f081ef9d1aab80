#include "ShapleyPanel.h"

#include "ShapleyView.h"
#include "explore/DatabasePredictor.h"
#include "explore/ShapleyJob.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace concorde::ui {
namespace {

const QString kSessionBaseline = QStringLiteral("session baseline");
const QString kCurrentSliders = QStringLiteral("current sliders");

/// Entries of the mode picker; the last exists only while a region is chosen.
enum ModeEntry { kAllPrograms = 0, kRegionsOfProgram = 1, kOneRegion = 2 };

} // namespace

ShapleyPanel::ShapleyPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("shapley_panel"));
    baselineBox_ = new QComboBox(this);
    baselineBox_->setObjectName(QStringLiteral("shapley_baseline"));
    targetBox_ = new QComboBox(this);
    targetBox_->setObjectName(QStringLiteral("shapley_target"));
    modeBox_ = new QComboBox(this);
    modeBox_->setObjectName(QStringLiteral("shapley_mode"));
    modeBox_->addItem(tr("All programs"));
    modeBox_->addItem(tr("Regions of one program"));
    programBox_ = new QComboBox(this);
    programBox_->setObjectName(QStringLiteral("shapley_program"));
    runButton_ = new QPushButton(tr("Compute"), this);
    runButton_->setObjectName(QStringLiteral("shapley_run"));
    runButton_->setToolTip(tr("Attribute the CPI change from the baseline to the target to the "
                              "parameter groups (Shapley values), for every program"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("shapley_cancel"));
    progressBar_ = new QProgressBar(this);
    progressBar_->setObjectName(QStringLiteral("shapley_progress"));
    progressBar_->setRange(0, 1000);
    progressBar_->setTextVisible(true);
    progressBar_->setFormat(QStringLiteral("%p %"));
    // The pickers stay as wide as their longest entry in the current font. The default policy
    // measures once, at the first show: after projector mode enlarged the font, the layout
    // squeezed them back to the old width and they read "session base…".
    for (QComboBox* box : {baselineBox_, targetBox_, modeBox_, programBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    }
    statusLabel_ = new QLabel(this);
    statusLabel_->setObjectName(QStringLiteral("shapley_status"));
    statusLabel_->setTextFormat(Qt::PlainText);
    view_ = new ShapleyView(this);

    // Two rows, what to compare and what to compute: in one row they made the window wider
    // than a 1024-pixel screen (issue 23).
    auto* comparison = new QHBoxLayout;
    comparison->addWidget(new QLabel(tr("Baseline"), this));
    comparison->addWidget(baselineBox_);
    comparison->addWidget(new QLabel(tr("Target"), this));
    comparison->addWidget(targetBox_);
    comparison->addStretch(1);
    auto* controls = new QHBoxLayout;
    controls->addWidget(modeBox_);
    controls->addWidget(programBox_);
    controls->addStretch(1);
    controls->addWidget(progressBar_);
    controls->addWidget(cancelButton_);
    controls->addWidget(runButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(comparison);
    layout->addLayout(controls);
    layout->addWidget(statusLabel_);
    layout->addWidget(view_, 1);

    connect(runButton_, &QPushButton::clicked, this, &ShapleyPanel::start);
    connect(cancelButton_, &QPushButton::clicked, this, &ShapleyPanel::cancel);
    connect(&task_, &BackgroundTask::progressChanged, this,
            [this](const JobProgress& progress) { showProgress(progress.fraction()); });
    connect(&task_, &BackgroundTask::failed, this, &ShapleyPanel::showFailure);
    connect(modeBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            &ShapleyPanel::showModeControls);
    connect(programBox_, &QComboBox::currentTextChanged, view_, &ShapleyView::setProgram);
    connect(view_, &ShapleyView::programActivated, this, [this](const QString& program) {
        programBox_->setCurrentText(program);
        modeBox_->setCurrentIndex(kRegionsOfProgram);
    });
    fillPickers();
    showModeControls();
    updateControls();
}

// The task cancels a running attribution and waits for it to stop, as a member, before the
// widgets it would report to go: nothing reaches the panel after this.
ShapleyPanel::~ShapleyPanel() = default;

void ShapleyPanel::setPredictor(std::shared_ptr<const DatabasePredictor> predictor) {
    task_.cancel(); // attributing with the model before: dropped
    progress_ = 0.0;
    predictor_ = std::move(predictor);
    view_->clear();
    statusLabel_->clear();
    updateControls();
}

void ShapleyPanel::setPresets(const std::vector<Preset>& presets) {
    presets_ = presets;
    fillPickers();
}

void ShapleyPanel::setCurrentConfigs(const CoreConfig& baseline, const CoreConfig& target) {
    sessionBaseline_ = baseline;
    sessionTarget_ = target;
}

void ShapleyPanel::setPlayers(const PlayerSet& players) {
    players_ = players;
}

void ShapleyPanel::fillPickers() {
    const QString baseline = baselineBox_->currentText();
    const QString target = targetBox_->currentText();
    baselineBox_->clear();
    targetBox_->clear();
    baselineBox_->addItem(kSessionBaseline);
    baselineBox_->addItem(kCurrentSliders);
    targetBox_->addItem(kCurrentSliders);
    targetBox_->addItem(kSessionBaseline);
    for (const Preset& p : presets_) {
        baselineBox_->addItem(QString::fromStdString(p.name));
        targetBox_->addItem(QString::fromStdString(p.name));
    }
    if (!baseline.isEmpty())
        chooseBaseline(baseline);
    if (!target.isEmpty())
        chooseTarget(target);
}

bool ShapleyPanel::chooseBaseline(const QString& name) {
    const int i = baselineBox_->findText(name);
    if (i < 0)
        return false;
    baselineBox_->setCurrentIndex(i);
    return true;
}

bool ShapleyPanel::chooseTarget(const QString& name) {
    const int i = targetBox_->findText(name);
    if (i < 0)
        return false;
    targetBox_->setCurrentIndex(i);
    return true;
}

namespace {

CoreConfig resolve(const QString& name, const CoreConfig& sessionBaseline,
                   const CoreConfig& sessionTarget, const std::vector<Preset>& presets) {
    if (name == kSessionBaseline)
        return sessionBaseline;
    if (name == kCurrentSliders)
        return sessionTarget;
    for (const Preset& p : presets)
        if (QString::fromStdString(p.name) == name)
            return p.config;
    return sessionTarget;
}

} // namespace

CoreConfig ShapleyPanel::baselineConfig() const {
    return resolve(baselineName(), sessionBaseline_, sessionTarget_, presets_);
}

CoreConfig ShapleyPanel::targetConfig() const {
    return resolve(targetName(), sessionBaseline_, sessionTarget_, presets_);
}

QString ShapleyPanel::baselineName() const {
    return baselineBox_->currentText();
}

QString ShapleyPanel::targetName() const {
    return targetBox_->currentText();
}

bool ShapleyPanel::running() const {
    return task_.isRunning();
}

double ShapleyPanel::progress() const {
    return progress_;
}

QString ShapleyPanel::status() const {
    return statusLabel_->text();
}

void ShapleyPanel::start() {
    if (running() || !predictor_)
        return;
    ShapleyJob::Request request;
    request.predictor = predictor_;
    request.baseline = baselineConfig();
    request.target = targetConfig();
    request.players = players_;
    try {
        const ShapleyJob checked(request); // a bad request is told at once, not after a thread
    } catch (const std::exception& e) {
        const QString message = QString::fromUtf8(e.what());
        statusLabel_->setText(tr("Cannot compute: %1").arg(message));
        updateControls();
        emit failed(message);
        return;
    }
    statusLabel_->setText(
        tr("Computing Shapley values, %1 \u2192 %2\u2026").arg(baselineName(), targetName()));
    showProgress(0.0);
    task_.request([request](const JobControl& job) { return ShapleyJob::run(request, job); },
                  [this](const AttributionReport& report) { showReport(report); });
    updateControls();
    emit started();
}

void ShapleyPanel::cancel() {
    if (!running())
        return;
    task_.cancel();
    statusLabel_->setText(tr("Cancelled; the chart shows the previous result"));
    updateControls();
    emit cancelled();
}

void ShapleyPanel::showProgress(double fraction) {
    progress_ = fraction;
    progressBar_->setValue(int(fraction * 1000));
    emit progressChanged(fraction);
}

void ShapleyPanel::showFailure(const QString& message) {
    statusLabel_->setText(tr("Failed: %1").arg(message));
    updateControls();
    emit failed(message);
}

void ShapleyPanel::showReport(const AttributionReport& report) {
    showProgress(1.0);
    view_->setConfigNames(baselineName(), targetName());
    view_->setReport(report);
    const QString selected = programBox_->currentText();
    programBox_->blockSignals(true);
    programBox_->clear();
    for (const auto& p : report.programs)
        programBox_->addItem(QString::fromStdString(p.program));
    if (programBox_->findText(selected) >= 0)
        programBox_->setCurrentText(selected);
    programBox_->blockSignals(false);
    view_->setProgram(programBox_->currentText());
    std::size_t active = 0;
    for (const auto& p : report.programs.empty() ? std::vector<PlayerAttribution>{}
                                                 : report.programs.front().total.players)
        active += p.active ? 1 : 0;
    statusLabel_->setText(
        tr("%1 \u2192 %2: %3 over %4 players that differ, %5 programs")
            .arg(baselineName(), targetName(), QString::fromUtf8(methodName(report.method).data()))
            .arg(active)
            .arg(report.programs.size()));
    updateControls();
    emit finished();
}

void ShapleyPanel::selectProgram(const QString& program) {
    if (programBox_->findText(program) < 0)
        programBox_->addItem(program);
    programBox_->setCurrentText(program);
    view_->setProgram(program);
}

void ShapleyPanel::showProgram(const QString& program) {
    dropRegionMode();
    if (program.isEmpty()) {
        modeBox_->setCurrentIndex(kAllPrograms);
        return;
    }
    selectProgram(program);
    modeBox_->setCurrentIndex(kRegionsOfProgram);
}

void ShapleyPanel::showRegion(const QString& program, const QString& region) {
    if (region.isEmpty()) {
        showProgram(QString());
        return;
    }
    selectProgram(program);
    view_->setRegion(region);
    const QString entry = tr("Region %1 of %2").arg(region, program);
    if (modeBox_->count() <= kOneRegion)
        modeBox_->addItem(entry);
    else
        modeBox_->setItemText(kOneRegion, entry);
    modeBox_->setCurrentIndex(kOneRegion);
    showModeControls(); // also when the entry was already current
}

void ShapleyPanel::dropRegionMode() {
    if (modeBox_->count() <= kOneRegion)
        return;
    if (modeBox_->currentIndex() == kOneRegion)
        modeBox_->setCurrentIndex(kAllPrograms);
    modeBox_->removeItem(kOneRegion);
    view_->setRegion(QString());
}

void ShapleyPanel::showModeControls() {
    const int mode = modeBox_->currentIndex();
    programBox_->setVisible(mode == kRegionsOfProgram);
    view_->setMode(mode == kOneRegion          ? ShapleyView::Mode::Region
                   : mode == kRegionsOfProgram ? ShapleyView::Mode::Regions
                                               : ShapleyView::Mode::Programs);
}

void ShapleyPanel::updateControls() {
    const bool busy = running();
    runButton_->setEnabled(!busy && predictor_ != nullptr);
    cancelButton_->setVisible(busy);
    progressBar_->setVisible(busy);
    baselineBox_->setEnabled(!busy);
    targetBox_->setEnabled(!busy);
}

} // namespace concorde::ui
