#include "ConfigSummaryLabel.h"

#include "Session.h"
#include "params/PresetLibrary.h"

namespace concorde::ui {

ConfigSummaryLabel::ConfigSummaryLabel(Session& session, const PresetLibrary& presets,
                                       QWidget* parent)
    : QLabel(parent), session_(session), presets_(presets.presets()) {
    setObjectName(QStringLiteral("config_summary"));
    setTextFormat(Qt::PlainText);
    refresh();
    connect(&session_, &Session::configChanged, this, &ConfigSummaryLabel::refresh);
    connect(&session_, &Session::baselineChanged, this, &ConfigSummaryLabel::refresh);
    connect(&session_, &Session::savedPresetsChanged, this, &ConfigSummaryLabel::refresh);
}

QString ConfigSummaryLabel::briefSummary(const CoreConfig& c) {
    const auto bp = ParameterSpace::spec(ParamId::BranchPredictor);
    QString predictor = QString::fromStdString(bp.formatValue(c.value(ParamId::BranchPredictor)));
    if (c.branchPredictor() == BranchPredictorKind::Simple)
        predictor += QStringLiteral(" %1 %").arg(c.bpMissPct());
    return QStringLiteral("ROB %1 · LQ/SQ %2/%3 · F/D/R/C %4/%5/%6/%7 · issue %8/%9/%10 · BP %11 · "
                          "L1d/L1i/L2 %12/%13/%14 kB")
        .arg(c.rob())
        .arg(c.loadQueue())
        .arg(c.storeQueue())
        .arg(c.fetchWidth())
        .arg(c.decodeWidth())
        .arg(c.renameWidth())
        .arg(c.commitWidth())
        .arg(c.aluIssue())
        .arg(c.fpIssue())
        .arg(c.lsIssue())
        .arg(predictor)
        .arg(c.l1dKb())
        .arg(c.l1iKb())
        .arg(c.l2Kb());
}

QString ConfigSummaryLabel::nameOf(const CoreConfig& config) const {
    const std::string name = session_.presetName(presets_, config);
    return name.empty() ? tr("custom") : QString::fromStdString(name);
}

void ConfigSummaryLabel::refresh() {
    const CoreConfig& target = session_.config();
    const CoreConfig& baseline = session_.baseline();
    int differing = 0;
    for (const ParameterSpec& spec : ParameterSpace::all())
        differing += target.value(spec.id) != baseline.value(spec.id) ? 1 : 0;

    const QString comparison =
        differing == 0 ? tr("same as target")
                       : tr("%1 of %2 parameters differ").arg(differing).arg(kParamCount);
    // Both names first: on a narrow screen the label is clipped at its end, never the names.
    setText(tr("Target: %1 · Baseline: %2 (%3) — %4")
                .arg(nameOf(target), nameOf(baseline), comparison, briefSummary(target)));
    // One line per parameter, in the key=value form the command line accepts.
    QStringList lines{tr("Target (baseline value where it differs):")};
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        QString line = QStringLiteral("%1=%2").arg(
            QString::fromStdString(spec.key),
            QString::fromStdString(spec.formatValue(target.value(spec.id))));
        if (target.value(spec.id) != baseline.value(spec.id))
            line += QStringLiteral("  (%1)").arg(
                QString::fromStdString(spec.formatValue(baseline.value(spec.id))));
        lines << line;
    }
    setToolTip(lines.join(QLatin1Char('\n')));
}

} // namespace concorde::ui
