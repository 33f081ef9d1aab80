#include "ExplorerBounds.h"

#include "Session.h"
#include "store/ExplorerModel.h"
#include "store/FeatureDatabase.h"

#include <QtConcurrent>
#include <exception>

namespace concorde::ui {

namespace {

std::shared_ptr<const DatabaseBounds> loadBounds(const ExplorerPtr& explorer) {
    return explorer->withDatabase([](FeatureDatabase& database) {
        return std::make_shared<const DatabaseBounds>(DatabaseBounds::load(database));
    });
}

} // namespace

ExplorerBounds::ExplorerBounds(Session& session, QObject* parent)
    : QObject(parent), session_(session) {
    connect(&session_, &Session::databaseOpened, this, &ExplorerBounds::startLoading);
    connect(&session_, &Session::programChanged, this, [this] { drillInto(-1); });
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<const DatabaseBounds>>::finished, this,
            &ExplorerBounds::onLoaded);
}

ExplorerBounds::~ExplorerBounds() {
    watcher_.waitForFinished();
}

bool ExplorerBounds::loadNow(QString* error) {
    watcher_.waitForFinished();
    loading_ = false;
    bounds_.reset();
    region_ = -1;
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

std::shared_ptr<const RegionBoundsSeries> ExplorerBounds::currentSeries() const {
    if (!bounds_ || !session_.explorer())
        return nullptr;
    const CoreConfig config = session_.explorer()->snap(session_.config());
    try {
        if (region_ >= 0)
            return std::make_shared<const RegionBoundsSeries>(
                bounds_->region(std::size_t(region_), config));
        const std::string program = session_.program().toStdString();
        for (const std::string& known : bounds_->programs())
            if (known == program)
                return std::make_shared<const RegionBoundsSeries>(
                    bounds_->program(program, config));
    } catch (const std::exception&) {
    }
    return nullptr;
}

} // namespace concorde::ui
