#include "Session.h"

#include "Theme.h"
#include "explore/ExplorerModel.h"
#include "params/Preset.h"
#include "params/PresetLibrary.h"

#include <QFileInfo>

namespace concorde::ui {
namespace {

QString messageOf(const std::exception& error) {
    return QString::fromStdString(error.what());
}

} // namespace

Session::Session(QObject* parent) : Session(CoreConfig{}, CoreConfig{}, parent) {}

Session::Session(const CoreConfig& target, const CoreConfig& baseline, QObject* parent)
    : QObject(parent), config_(target), baseline_(baseline), theme_(new Theme(this)) {
    qRegisterMetaType<PredictionPtr>();
    connect(&opener_, &BackgroundTask::progressChanged, this, [this](const JobProgress& progress) {
        emit databaseProgress(int(progress.done), int(progress.total));
    });
}

// The tasks cancel and wait for their runs as members.
Session::~Session() = default;

CoreConfig Session::defaultTarget(const PresetLibrary& presets) {
    if (const Preset* n1 = presets.find("n1-like"))
        return n1->config;
    return CoreConfig{};
}

CoreConfig Session::defaultBaseline(const PresetLibrary& presets) {
    for (const char* name : {"little", "big"})
        if (const Preset* preset = presets.find(name))
            return preset->config;
    return CoreConfig{};
}

void Session::setConfig(const CoreConfig& config) {
    if (config == config_)
        return;
    config_ = config;
    emit configChanged(config_);
    requestPrediction();
}

void Session::setParameter(ParamId id, double value) {
    // Validate on a copy so a rejected value leaves the session untouched.
    CoreConfig next = config_;
    next.set(id, value);
    setConfig(next);
}

void Session::applyPreset(const Preset& preset) {
    setConfig(preset.config);
}

void Session::setBaseline(const CoreConfig& baseline) {
    if (baseline == baseline_)
        return;
    baseline_ = baseline;
    emit baselineChanged(baseline_);
    requestPrediction();
}

void Session::applyPresetAsBaseline(const Preset& preset) {
    setBaseline(preset.config);
}

// --- Database ---

const ParameterGrid& Session::grid() const {
    static const ParameterGrid defaultGrid;
    return explorer_ ? explorer_->grid() : defaultGrid;
}

QStringList Session::programs() const {
    QStringList names;
    if (explorer_)
        for (const std::string& name : explorer_->programs())
            names << QString::fromStdString(name);
    return names;
}

QString Session::damageWarning() const {
    if (!explorer_ || explorer_->damaged().empty())
        return {};
    const auto& damaged = explorer_->damaged();
    QStringList labels;
    for (const auto& d : damaged)
        labels << QString::fromStdString(d.label());
    constexpr int kNamed = 4; // a status line, not the list: the tooltip has every region
    QString named = QStringList(labels.mid(0, kNamed)).join(QStringLiteral(", "));
    if (labels.size() > kNamed)
        named += tr(" and %n more", nullptr, int(labels.size() - kNamed));
    const QString count = damaged.size() == 1
                              ? tr("1 damaged region skipped")
                              : tr("%1 damaged regions skipped").arg(damaged.size());
    return tr("%1 (%2): their programs' CPIs come from the remaining regions; concorde "
              "validate-db names the damage")
        .arg(count, named);
}

QString Session::damageDetails() const {
    QStringList lines;
    if (explorer_)
        for (const auto& d : explorer_->damaged())
            lines << QString::fromStdString(d.describe());
    return lines.join(QLatin1Char('\n'));
}

void Session::openDatabase(const QString& path) {
    cancelOpening();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    openingPath_ = absolute;
    opener_.request(
        [absolute](const JobControl& job) {
            OpenOutcome outcome;
            try {
                outcome.explorer = ExplorerModel::open(absolute.toStdString(), {}, job);
            } catch (const std::exception& error) { // a cancelled open's is dropped unseen
                outcome.error = messageOf(error);
            }
            return outcome;
        },
        [this, absolute](const OpenOutcome& outcome) { finishOpen(absolute, outcome); });
    emit databaseOpening(absolute);
}

bool Session::openDatabaseNow(const QString& path, QString* error,
                              const std::vector<CoreConfig>& only) {
    cancelOpening();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    openingPath_ = absolute;
    emit databaseOpening(absolute);
    OpenOutcome outcome;
    try {
        outcome.explorer = ExplorerModel::open(absolute.toStdString(), {}, {}, only);
    } catch (const std::exception& e) {
        outcome.error = messageOf(e);
    }
    finishOpen(absolute, outcome);
    if (error)
        *error = outcome.error;
    return outcome.explorer != nullptr;
}

void Session::cancelOpening() {
    if (!isOpening())
        return;
    const QString path = openingPath_;
    opener_.cancel(); // the open stops at its next region; its result, if any, is dropped
    openingPath_.clear();
    emit databaseOpenCancelled(path);
}

void Session::finishOpen(const QString& path, const OpenOutcome& outcome) {
    openingPath_.clear();
    if (!outcome.explorer) {
        emit databaseFailed(path, outcome.error);
        return;
    }
    explorer_ = outcome.explorer;
    databasePath_ = path;
    predictor_.cancel(); // predictions on the database before are dropped
    prediction_.reset();
    const QStringList names = programs();
    if (!names.contains(program_)) {
        program_ = names.isEmpty() ? QString() : names.front();
        emit programChanged(program_);
    }
    emit databasePathChanged(databasePath_);
    emit databaseOpened(databasePath_);
    requestPrediction();
}

// --- Selection ---

bool Session::setProgram(const QString& program) {
    if (program == program_)
        return true;
    if (explorer_ && !isOpening() && !programs().contains(program))
        return false;
    program_ = program;
    emit programChanged(program_);
    requestPrediction();
    return true;
}

void Session::setView(const QString& view) {
    if (view == view_)
        return;
    view_ = view;
    emit viewChanged(view_);
}

void Session::setSweptParameter(ParamId parameter) {
    if (parameter == sweptParameter_)
        return;
    sweptParameter_ = parameter;
    emit sweptParameterChanged(static_cast<int>(parameter));
}

void Session::sweep(ParamId parameter) {
    setSweptParameter(parameter);
    setView(QStringLiteral("view_sweep"));
}

// --- Predictions ---

void Session::requestPrediction() {
    if (!explorer_)
        return;
    ++requested_;
    // The job is made when the run starts, so a request waiting behind a running one predicts
    // from the state then and reuses the prediction delivered just before.
    predictor_.requestPrepared([this] { return predictionJob(); },
                               [this](const PredictionOutcome& outcome) { publish(outcome); });
}

std::function<Session::PredictionOutcome(const JobControl&)> Session::predictionJob() {
    const ExplorerPtr explorer = explorer_;
    const CoreConfig target = config_;
    const CoreConfig baseline = baseline_;
    const std::string program = program_.toStdString();
    const std::uint64_t sequence = requested_;
    const PredictionPtr previous = prediction_; // its baseline is reused when unchanged
    return [=](const JobControl&) {
        PredictionOutcome outcome;
        try {
            auto prediction = std::make_shared<ExplorerPrediction>(
                explorer->predict(target, baseline, program, previous.get()));
            prediction->sequence = sequence;
            outcome.prediction = std::move(prediction);
        } catch (const std::exception& error) {
            outcome.error = messageOf(error);
        }
        return outcome;
    };
}

void Session::publish(const PredictionOutcome& outcome) {
    if (!outcome.prediction) {
        emit predictionFailed(outcome.error);
        return;
    }
    prediction_ = outcome.prediction;
    emit predictionReady(prediction_);
}

void Session::recomputeNow() {
    if (!explorer_)
        return;
    predictor_.cancel(); // what is on its way is older than this one
    ++requested_;
    publish(predictionJob()(JobControl{}));
}

void Session::addSavedPreset(Preset preset) {
    savedPresets_.push_back(std::move(preset));
    emit savedPresetsChanged();
}

std::string Session::presetName(const std::vector<Preset>& library,
                                const CoreConfig& config) const {
    std::string name = presetNameFor(library, config);
    return name.empty() ? presetNameFor(savedPresets_, config) : name;
}

} // namespace concorde::ui
