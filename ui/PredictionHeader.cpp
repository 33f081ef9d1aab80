#include "PredictionHeader.h"

#include "ProgramSelector.h"
#include "QtStrings.h"
#include "Theme.h"
#include "params/ParameterSpace.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

namespace concorde::ui {
namespace {

/// Below this relative change the target and the baseline count as equal (0.0 % when rounded).
constexpr double kSameDelta = 0.0005;

QString number(double value, int decimals) {
    return QString::number(value, 'f', decimals);
}

} // namespace

PredictionHeader::PredictionHeader(Session& session, std::vector<Preset> presets, QWidget* parent)
    : QWidget(parent), session_(session), presets_(std::move(presets)) {
    setObjectName(QStringLiteral("prediction_header"));
    selector_ = new ProgramSelector(session_);
    auto* programLabel = new QLabel(tr("&Program"));
    programLabel->setBuddy(selector_);

    const auto label = [](const char* name) {
        auto* l = new QLabel;
        l->setObjectName(QLatin1String(name));
        l->setTextFormat(Qt::PlainText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        return l;
    };
    cpi_ = label("cpi_label");
    ipc_ = label("ipc_label");
    delta_ = label("delta_label");
    accuracy_ = label("accuracy_label");
    warning_ = label("warning_label");
    // The second and third lines wrap instead of widening the window (projector fonts).
    accuracy_->setWordWrap(true);
    warning_->setWordWrap(true);
    // So does the delta beside the CPI ("▲ +78.3 % vs baseline (0.883)").
    delta_->setWordWrap(true);
    cpi_->setToolTip(tr("Predicted cycles per instruction of the selected program: the "
                        "instruction-weighted mean of its regions' CPIs"));
    ipc_->setToolTip(tr("Instructions per cycle (1 / CPI)"));

    auto* readout = new QHBoxLayout;
    readout->setSpacing(18);
    readout->addWidget(programLabel);
    readout->addWidget(selector_);
    readout->addSpacing(12);
    readout->addWidget(cpi_);
    readout->addWidget(delta_, 1);
    // IPC and the accuracy on a second line, which wraps: the header never makes the window
    // wider than a projector's screen.
    auto* details = new QHBoxLayout;
    details->setSpacing(18);
    details->addWidget(ipc_);
    details->addWidget(accuracy_, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 4);
    layout->setSpacing(4);
    layout->addLayout(readout);
    layout->addLayout(details);
    layout->addWidget(warning_);

    restyle();
    if (session_.prediction())
        showPrediction(session_.prediction());
    else
        showEmpty();
    connect(&session_, &Session::predictionReady, this, &PredictionHeader::showPrediction);
    connect(&session_, &Session::savedPresetsChanged, this,
            [this] { showPrediction(session_.prediction()); });
    connect(&session_, &Session::databaseOpened, this, [this] {
        if (!session_.prediction())
            showEmpty();
    });
    connect(&session_.theme(), &Theme::changed, this, &PredictionHeader::restyle);
}

void PredictionHeader::showEmpty() {
    cpi_->setText(tr("CPI —"));
    ipc_->setText(tr("IPC —"));
    delta_->setText(QString());
    accuracy_->setText(QString());
    warning_->hide();
    deltaSign_ = 0;
    colourDelta();
}

void PredictionHeader::showPrediction(const PredictionPtr& prediction) {
    if (!prediction || !prediction->hasProgram()) {
        showEmpty();
        return;
    }
    const ExplorerPrediction& p = *prediction;
    const double cpi = p.selectedCpi();
    const double base = p.selectedBaselineCpi();
    const double delta = p.selectedDelta();
    // An ensemble's band beside the CPI: the range the simulated CPI fell in for the
    // calibrated share of regions the model never trained on.
    if (p.banded && std::isfinite(p.selectedCpiLow) && std::isfinite(p.selectedCpiHigh)) {
        cpi_->setText(
            tr("CPI %1 (%2–%3)")
                .arg(number(cpi, 3), number(p.selectedCpiLow, 3), number(p.selectedCpiHigh, 3)));
        cpi_->setToolTip(tr("Predicted CPI and its band: on regions the model never trained on, "
                            "%1 of simulated CPIs fell inside such a band")
                             .arg(toQString(ModelAccuracy::percent(p.accuracy.bandCoverage))));
    } else {
        cpi_->setText(tr("CPI %1").arg(number(cpi, 3)));
        cpi_->setToolTip(QString());
    }
    ipc_->setText(tr("IPC %1").arg(number(1.0 / cpi, 3)));
    // The baseline by its preset's name where it is one: "vs baseline" alone leaves a review
    // asking which.
    const std::string presetName = session_.presetName(presets_, session_.baseline());
    const QString baselineName = presetName.empty()
                                     ? tr("baseline")
                                     : tr("baseline %1").arg(QString::fromStdString(presetName));
    if (!std::isfinite(delta) || std::abs(delta) < kSameDelta) {
        deltaSign_ = 0;
        delta_->setText(tr("= %1 (%2)").arg(baselineName, number(base, 3)));
    } else {
        deltaSign_ = delta < 0 ? -1 : 1;
        // An arrow and a sign as well as the colour: never colour alone.
        delta_->setText(tr("%1 %2 % vs %3 (%4)")
                            .arg(delta < 0 ? QStringLiteral("▼") : QStringLiteral("▲"))
                            .arg((delta < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
                                 number(std::abs(delta) * 100.0, 1))
                            .arg(baselineName, number(base, 3)));
    }
    delta_->setToolTip((deltaSign_ < 0   ? tr("The target is faster than the baseline")
                        : deltaSign_ > 0 ? tr("The target is slower than the baseline")
                                         : tr("The target and the baseline predict the same CPI")) +
                       tr(" (baseline CPI %1)").arg(number(base, 3)));
    colourDelta();

    accuracy_->setText(toQString(p.accuracy.summary()));
    QStringList details{
        tr("Model \"%1\", measured against the reference simulator").arg(toQString(p.modelName))};
    if (p.accuracy.unseenRegions)
        details
            << tr("Regions never trained on: mean error %1, %2 of samples over 10 %")
                   .arg(toQString(ModelAccuracy::percent(p.accuracy.unseenRegions->meanRelError)))
                   .arg(toQString(ModelAccuracy::percent(p.accuracy.unseenRegions->fracOver10Pct)));
    if (p.accuracy.unseenPrograms)
        details << tr("Programs never trained on: mean error %1")
                       .arg(toQString(
                           ModelAccuracy::percent(p.accuracy.unseenPrograms->meanRelError)));
    const std::string program = p.accuracy.programSummary(p.program);
    if (!program.empty())
        details << tr("This program: %1").arg(toQString(program));
    accuracy_->setToolTip(details.join(QLatin1Char('\n')));

    QStringList warnings;
    for (const ParameterWarning& w : p.warnings)
        warnings << toQString(w.message);
    for (const ParameterWarning& w : p.baselineWarnings)
        warnings << tr("Baseline: %1").arg(toQString(w.message));
    if (p.accuracy.isHeldOut(p.program) && !p.accuracy.trainPrograms.empty())
        warnings << tr("%1 was not among the programs the model was trained on")
                        .arg(QString::fromStdString(p.program));
    if (p.hasProgram() && p.programIndex < p.programDamage.size() &&
        !p.programDamage[p.programIndex].empty())
        warnings << tr("%1: %2; its CPI is from the other regions")
                        .arg(QString::fromStdString(p.program),
                             QString::fromStdString(p.programDamage[p.programIndex]));
    if (p.selectedOodScore > 1)
        warnings << tr("%1 lies outside the model's training data (distance score %2, above 1 "
                       "is outside): trust its CPI less than the measured accuracy")
                        .arg(QString::fromStdString(p.program), number(p.selectedOodScore, 1));
    if (warnings.isEmpty()) {
        warning_->hide();
    } else {
        QString text = QStringLiteral("⚠ ") + warnings.front();
        if (warnings.size() > 1)
            text += tr(" — and %n more (hover to see all)", nullptr, int(warnings.size() - 1));
        warning_->setText(text);
        warning_->setToolTip(warnings.join(QLatin1Char('\n')));
        warning_->show();
    }
}

void PredictionHeader::colourDelta() {
    const Theme& theme = session_.theme();
    const QColor colour = deltaSign_ < 0   ? theme.better()
                          : deltaSign_ > 0 ? theme.worse()
                                           : theme.foreground();
    delta_->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(colour.name()));
}

void PredictionHeader::restyle() {
    const Theme& theme = session_.theme();
    cpi_->setFont(theme.font(1.6, true));
    ipc_->setFont(theme.font());
    delta_->setFont(theme.font(1.15, true));
    accuracy_->setFont(theme.font());
    accuracy_->setStyleSheet(
        QStringLiteral("QLabel { color: %1; }").arg(theme.mutedForeground().name()));
    warning_->setFont(theme.font());
    warning_->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: %2; padding: 4px 8px; "
                       "border-radius: 3px; }")
            .arg(theme.warningBackground().name(), theme.warningForeground().name()));
    colourDelta();
}

} // namespace concorde::ui
