#include "LastConfiguration.h"

#include <QSettings>
#include <nlohmann/json.hpp>

namespace concorde::ui {
namespace {

const QString kTarget = QStringLiteral("lastConfiguration/target");
const QString kBaseline = QStringLiteral("lastConfiguration/baseline");

QString toText(const CoreConfig& config) {
    return QString::fromStdString(config.toJson().dump());
}

CoreConfig fromText(const QString& text) {
    return CoreConfig::fromJson(nlohmann::json::parse(text.toStdString()), true,
                                "the last configuration (settings)");
}

} // namespace

void LastConfiguration::save(const CoreConfig& target, const CoreConfig& baseline) {
    QSettings settings;
    settings.setValue(kTarget, toText(target));
    settings.setValue(kBaseline, toText(baseline));
}

bool LastConfiguration::load(CoreConfig& target, CoreConfig& baseline) {
    const QSettings settings;
    if (!settings.contains(kTarget) || !settings.contains(kBaseline))
        return false;
    try {
        CoreConfig storedTarget = fromText(settings.value(kTarget).toString());
        CoreConfig storedBaseline = fromText(settings.value(kBaseline).toString());
        target = storedTarget;
        baseline = storedBaseline;
        return true;
    } catch (const std::exception&) { // written by another version, or edited: start afresh
        return false;
    }
}

} // namespace concorde::ui
