#include "ExplorerBounds.h"

#include "Session.h"
#include "explore/ExplorerModel.h"
#include "store/FeatureDatabase.h"

#include <QtConcurrent>
#include <exception>

namespace concorde::ui {

namespace {

std::shared_ptr<const DatabaseBounds> loadBounds(const ExplorerPtr& explorer) {
    // The explorer's region catalog, so the bounds' region indices are the predictor's.
    return explorer->withDatabase([&](FeatureDatabase& database) {
        return std::make_shared<const DatabaseBounds>(
            DatabaseBounds::load(database, explorer->regionCatalog()));
    });
}

} // namespace

ExplorerBounds::ExplorerBounds(Session& session, QObject* parent)
    : QObject(parent), session_(session) {
    connect(&session_, &Session::databaseOpened, this, &ExplorerBounds::startLoading);
    connect(&session_, &Session::programChanged, this, [this] { drillInto(-1); });
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<const DatabaseBounds>>::finished, this,
            &ExplorerBounds::onLoaded);
    seriesWorker_ = std::make_unique<CoalescingWorker<SeriesOutcome>>(
        [this] {
            const Selection selection = currentSelection();
            // The last series computed: its unchanged CDFs are reused.
            return [selection, before = seriesSelection_, previous = series_] {
                return SeriesOutcome{selection, computeSeries(selection, before, previous.get())};
            };
        },
        [this](const SeriesOutcome& outcome) { onSeriesComputed(outcome); });
}

ExplorerBounds::~ExplorerBounds() {
    watcher_.waitForFinished();
    seriesWorker_.reset(); // waits for a running computation
}

bool ExplorerBounds::loadNow(QString* error) {
    watcher_.waitForFinished();
    loading_ = false;
    bounds_.reset();
    region_ = -1;
    clearSeries();
    if (!session_.explorer())
        return true;
    try {
        bounds_ = loadBounds(session_.explorer());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        emit boundsChanged();
        return false;
    }
    emit boundsChanged();
    return true;
}

void ExplorerBounds::startLoading() {
    watcher_.waitForFinished();
    bounds_.reset();
    region_ = -1;
    clearSeries();
    emit boundsChanged();
    const ExplorerPtr explorer = session_.explorer();
    if (!explorer)
        return;
    loading_ = true;
    watcher_.setFuture(QtConcurrent::run([explorer]() -> std::shared_ptr<const DatabaseBounds> {
        try {
            return loadBounds(explorer);
        } catch (const std::exception&) {
            return nullptr;
        }
    }));
}

void ExplorerBounds::onLoaded() {
    if (!loading_)
        return;
    loading_ = false;
    bounds_ = watcher_.result();
    if (!bounds_)
        emit loadFailed(tr("The per-window bounds of the database could not be read."));
    emit boundsChanged();
}

void ExplorerBounds::drillInto(int region) {
    if (!bounds_ || region < 0 || std::size_t(region) >= bounds_->regions().size())
        region = -1;
    if (region == region_)
        return;
    region_ = region;
    emit selectionChanged();
}

QString ExplorerBounds::selectionLabel() const {
    if (bounds_ && region_ >= 0)
        return QString::fromStdString(bounds_->regions()[std::size_t(region_)].label());
    return session_.program();
}

ExplorerBounds::Selection ExplorerBounds::currentSelection() const {
    Selection selection;
    if (!bounds_ || !session_.explorer())
        return selection;
    selection.bounds = bounds_;
    selection.config = session_.explorer()->snap(session_.config());
    selection.program = session_.program().toStdString();
    selection.region = region_;
    return selection;
}

std::shared_ptr<const RegionBoundsSeries>
ExplorerBounds::computeSeries(const Selection& selection) {
    return computeSeries(selection, {}, nullptr);
}

std::shared_ptr<const RegionBoundsSeries>
ExplorerBounds::computeSeries(const Selection& selection, const Selection& previousSelection,
                              const RegionBoundsSeries* previous) {
    const DatabaseBounds* data = selection.bounds.get();
    // Only the same program of the same bounds shares rows (and their memory is alive: the
    // selection holds the bounds).
    if (previousSelection.bounds != selection.bounds || previousSelection.region >= 0 ||
        previousSelection.program != selection.program)
        previous = nullptr;
    if (!data)
        return nullptr;
    try {
        if (selection.region >= 0)
            return std::make_shared<const RegionBoundsSeries>(
                data->region(std::size_t(selection.region), selection.config));
        for (const std::string& known : data->programs())
            if (known == selection.program)
                return std::make_shared<const RegionBoundsSeries>(
                    data->program(selection.program, selection.config, previous));
    } catch (const std::exception&) {
    }
    return nullptr;
}

bool ExplorerBounds::isSeriesCurrent() const {
    // Before a series is computed seriesSelection_ has no bounds, so it never equals a current
    // selection of loaded bounds.
    return !bounds_ || seriesSelection_ == currentSelection();
}

void ExplorerBounds::clearSeries() {
    // A computation still running was for the old bounds: its result is dropped on arrival.
    series_.reset();
    seriesSelection_ = {};
}

void ExplorerBounds::requestSeries() {
    if (!isSeriesCurrent())
        seriesWorker_->request();
}

void ExplorerBounds::onSeriesComputed(const SeriesOutcome& outcome) {
    if (!outcome.selection.bounds || outcome.selection.bounds != bounds_)
        return; // computed on bounds since replaced
    if (isSeriesCurrent() && outcome.selection != seriesSelection_)
        return; // older than the series computed meanwhile on the UI thread
    series_ = outcome.series;
    seriesSelection_ = outcome.selection;
    emit seriesReady();
}

void ExplorerBounds::updateSeriesNow() {
    // A running computation's delivery may start one more, from the latest state: wait for at
    // most those two; whatever still runs then is not newer than what is computed below.
    seriesWorker_->finishNow();
    seriesWorker_->finishNow();
    if (isSeriesCurrent())
        return;
    const Selection selection = currentSelection();
    series_ = computeSeries(selection, seriesSelection_, series_.get());
    seriesSelection_ = selection;
    emit seriesReady();
}

} // namespace concorde::ui
