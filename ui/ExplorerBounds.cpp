#include "ExplorerBounds.h"

#include "Session.h"
#include "explore/ExplorerModel.h"
#include "store/FeatureDatabase.h"

#include <exception>

namespace concorde::ui {

namespace {

std::shared_ptr<const DatabaseBounds> loadBounds(const ExplorerModel& explorer,
                                                 const JobControl& job = {},
                                                 const std::string& onlyProgram = {}) {
    // A connection of this thread's own (the per-region reads open one per worker): the
    // explorer's shared connection, and its lock, stay free for the UI thread. The explorer's
    // region catalog, so the bounds' region indices are the predictor's.
    FeatureDatabase database = FeatureDatabase::openReadOnly(explorer.path());
    if (!onlyProgram.empty())
        return std::make_shared<const DatabaseBounds>(
            DatabaseBounds::load(database, explorer.regionCatalog().only({onlyProgram}), job));
    return std::make_shared<const DatabaseBounds>(
        DatabaseBounds::load(database, explorer.regionCatalog(), job));
}

} // namespace

ExplorerBounds::ExplorerBounds(Session& session, QObject* parent)
    : QObject(parent), session_(session) {
    connect(&session_, &Session::databaseOpened, this, &ExplorerBounds::startLoading);
    connect(&session_, &Session::programChanged, this, [this] { drillInto(-1); });
}

// The tasks cancel and wait for their runs as members.
ExplorerBounds::~ExplorerBounds() = default;

void ExplorerBounds::clear() {
    loader_.cancel();
    bounds_.reset();
    region_ = -1;
    // A series computation still running was for the old bounds: its result is dropped.
    seriesTask_.cancel();
    series_.reset();
    seriesSelection_ = {};
}

bool ExplorerBounds::loadNow(QString* error, const QString& onlyProgram) {
    clear();
    if (!session_.explorer())
        return true;
    try {
        bounds_ = loadBounds(*session_.explorer(), {}, onlyProgram.toStdString());
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
    clear();
    emit boundsChanged();
    const ExplorerPtr explorer = session_.explorer();
    if (!explorer)
        return;
    loader_.request(
        [explorer](const JobControl& job) -> std::shared_ptr<const DatabaseBounds> {
            try {
                return loadBounds(*explorer, job);
            } catch (const std::exception&) {
                return nullptr; // a cancelled load's result is dropped unseen
            }
        },
        [this](std::shared_ptr<const DatabaseBounds> bounds) { onLoaded(std::move(bounds)); });
}

void ExplorerBounds::onLoaded(std::shared_ptr<const DatabaseBounds> bounds) {
    bounds_ = std::move(bounds);
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

void ExplorerBounds::requestSeries() {
    if (isSeriesCurrent())
        return;
    // Prepared when the run starts: a request waiting behind a running one computes from the
    // selection then, reusing the unchanged CDFs of the series delivered just before.
    seriesTask_.requestPrepared(
        [this] {
            return [selection = currentSelection(), before = seriesSelection_,
                    previous = series_](const JobControl&) {
                return SeriesOutcome{selection, computeSeries(selection, before, previous.get())};
            };
        },
        [this](const SeriesOutcome& outcome) { onSeriesComputed(outcome); });
}

void ExplorerBounds::onSeriesComputed(const SeriesOutcome& outcome) {
    if (isSeriesCurrent() && outcome.selection != seriesSelection_)
        return; // the sliders came back to the series shown: this one is already older
    series_ = outcome.series;
    seriesSelection_ = outcome.selection;
    emit seriesReady();
}

void ExplorerBounds::updateSeriesNow() {
    // Whatever is on its way is not newer than what is computed here.
    seriesTask_.cancel();
    if (isSeriesCurrent())
        return;
    const Selection selection = currentSelection();
    series_ = computeSeries(selection, seriesSelection_, series_.get());
    seriesSelection_ = selection;
    emit seriesReady();
}

} // namespace concorde::ui
