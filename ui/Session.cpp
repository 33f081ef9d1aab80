#include "Session.h"

#include "Theme.h"
#include "params/Preset.h"
#include "params/PresetLibrary.h"
#include "explore/ExplorerModel.h"

#include <QFileInfo>
#include <QPromise>
#include <QtConcurrent>
#include <atomic>

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
    predictor_ = std::make_unique<CoalescingWorker<PredictionOutcome>>(
        [this] { return predictionJob(); },
        [this](const PredictionOutcome& outcome) { publish(outcome); });
}

Session::~Session() {
    openFuture_.cancel();
    openFuture_.waitForFinished();
    predictor_.reset(); // waits for a running prediction
}

CoreConfig Session::defaultBaseline(const PresetLibrary& presets) {
    if (const Preset* big = presets.find("big"))
        return big->config;
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

void Session::openDatabase(const QString& path) {
    cancelOpening();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    openingPath_ = absolute;
    const std::uint64_t generation = ++openGeneration_;

    openFuture_ = QtConcurrent::run([absolute](QPromise<OpenOutcome>& promise) {
        OpenOutcome outcome;
        try {
            std::atomic<bool> rangeSet{false};
            JobControl job;
            job = JobControl([&](const JobProgress& progress) {
                if (!rangeSet.exchange(true))
                    promise.setProgressRange(0, static_cast<int>(progress.total));
                promise.setProgressValue(static_cast<int>(progress.done));
                if (promise.isCanceled())
                    job.cancel();
            });
            outcome.explorer = ExplorerModel::open(absolute.toStdString(), {}, job);
        } catch (const std::exception& error) {
            outcome.error = messageOf(error);
        }
        promise.addResult(outcome);
    });

    auto* watcher = new QFutureWatcher<OpenOutcome>(this);
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this,
            [this, watcher, generation](int value) {
                if (generation == openGeneration_)
                    emit databaseProgress(value, watcher->progressMaximum());
            });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, absolute] {
        watcher->deleteLater();
        if (generation != openGeneration_ || watcher->future().isCanceled() ||
            watcher->future().resultCount() == 0)
            return; // cancelled or superseded by a newer open
        finishOpen(absolute, watcher->future().result());
    });
    watcher->setFuture(openFuture_);
    emit databaseOpening(absolute);
}

bool Session::openDatabaseNow(const QString& path, QString* error) {
    cancelOpening();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    openingPath_ = absolute;
    ++openGeneration_;
    emit databaseOpening(absolute);
    OpenOutcome outcome;
    try {
        outcome.explorer = ExplorerModel::open(absolute.toStdString());
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
    openFuture_.cancel();
    ++openGeneration_; // the worker's result, if any, is dropped
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

// --- Predictions ---

void Session::requestPrediction() {
    if (!explorer_)
        return;
    ++requested_;
    predictor_->request();
}

std::function<Session::PredictionOutcome()> Session::predictionJob() {
    const ExplorerPtr explorer = explorer_;
    const CoreConfig target = config_;
    const CoreConfig baseline = baseline_;
    const std::string program = program_.toStdString();
    const std::uint64_t sequence = requested_;
    const PredictionPtr previous = prediction_; // its baseline is reused when unchanged
    return [=] {
        PredictionOutcome outcome;
        outcome.explorer = explorer;
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
    if (!outcome.explorer || outcome.explorer != explorer_)
        return; // computed on a database that has since been replaced
    if (!outcome.prediction) {
        emit predictionFailed(outcome.error);
        return;
    }
    if (prediction_ && outcome.prediction->sequence < prediction_->sequence)
        return; // never go back in time
    prediction_ = outcome.prediction;
    emit predictionReady(prediction_);
}

void Session::recomputeNow() {
    if (!explorer_)
        return;
    predictor_->finishNow(); // delivered first, so this one is the newest
    ++requested_;
    publish(predictionJob()());
}

} // namespace concorde::ui
