#include "analysis/WarmStateWorker.h"

#include <memory>
#include <utility>

namespace concorde {

WarmStateWorker::WarmStateWorker(const TagePredictor::Geometry& tage,
                                 const BranchTargetSpec& targets)
    : geometry_(tage), targetSpec_(targets) {
    log_.reserve(kEventsPerTask);
    thread_ = std::thread([this] { work(); });
}

WarmStateWorker::~WarmStateWorker() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
        workerWaiting_ = false;
    }
    workReady_.notify_one();
    thread_.join();
}

bool WarmStateWorker::worthAThread() {
    return std::thread::hardware_concurrency() > 1;
}

void WarmStateWorker::reset() {
    Task task;
    task.kind = Kind::Reset;
    push(std::move(task));
}

void WarmStateWorker::snapshot(WarmState lines) {
    Task task;
    task.kind = Kind::Snapshot;
    task.state = std::move(lines);
    push(std::move(task));
}

std::vector<std::uint8_t> WarmStateWorker::takeSnapshot() {
    std::unique_lock lock(mutex_);
    producerWaiting_ = true;
    roomReady_.wait(lock, [&] { return !snapshots_.empty() || failure_; });
    producerWaiting_ = false;
    if (failure_)
        std::rethrow_exception(failure_);
    std::vector<std::uint8_t> bytes = std::move(snapshots_.front());
    snapshots_.pop_front();
    return bytes;
}

void WarmStateWorker::pushEvents() {
    if (log_.empty())
        return;
    Task task;
    task.kind = Kind::Events;
    {
        const std::lock_guard lock(mutex_);
        if (!spare_.empty()) {
            task.events = std::move(spare_.back());
            spare_.pop_back();
        }
    }
    task.events.swap(log_);
    log_.clear();
    log_.reserve(kEventsPerTask);
    push(std::move(task));
}

void WarmStateWorker::push(Task&& task) {
    if (task.kind != Kind::Events)
        pushEvents(); // the branches logged so far come first
    std::unique_lock lock(mutex_);
    if (queue_.size() >= kMaxQueued) {
        // Wait until the worker has done kWakeBatch tasks: one wake-up per so many.
        producerWaiting_ = true;
        roomReady_.wait(lock, [&] { return queue_.size() <= kMaxQueued - kWakeBatch || failure_; });
        producerWaiting_ = false;
    }
    if (failure_)
        std::rethrow_exception(failure_);
    urgent_ = urgent_ || task.kind == Kind::Snapshot;
    queue_.push_back(std::move(task));
    // A sleeping worker is woken once kWakeBatch tasks are queued, or for a snapshot that the
    // caller will wait for.
    if (workerWaiting_ && (urgent_ || queue_.size() >= kWakeBatch)) {
        workerWaiting_ = false;
        lock.unlock();
        workReady_.notify_one();
    }
}

void WarmStateWorker::run(Task& task) {
    switch (task.kind) {
    case Kind::Reset:
        tage_.emplace(geometry_);
        targets_.emplace(targetSpec_);
        break;
    case Kind::Events: {
        TraceRecord scratch;
        WarmStateBuilder::trainOn(*tage_, *targets_, task.events, scratch);
        break;
    }
    case Kind::Snapshot: {
        WarmState& state = *task.state;
        state.tage = std::make_shared<const TagePredictor>(*tage_);
        state.targets = std::make_shared<const BranchTargetPredictor>(*targets_);
        std::vector<std::uint8_t> bytes = state.encode();
        const std::lock_guard lock(mutex_);
        snapshots_.push_back(std::move(bytes));
        break;
    }
    }
}

void WarmStateWorker::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (queue_.empty() && !stop_) {
            urgent_ = false;
            workerWaiting_ = true;
            workReady_.wait(lock, [&] { return !workerWaiting_ || stop_; });
        }
        if (stop_)
            return;
        Task task = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        try {
            if (!failure_) // written by this thread only
                run(task);
        } catch (...) {
            lock.lock();
            failure_ = std::current_exception();
            lock.unlock();
        }
        lock.lock();
        if (task.kind == Kind::Events) {
            task.events.clear();
            spare_.push_back(std::move(task.events));
        }
        // The caller waits for room (until kWakeBatch are done), for a snapshot, or fails.
        if (producerWaiting_ &&
            (queue_.size() <= kMaxQueued - kWakeBatch || task.kind == Kind::Snapshot || failure_))
            roomReady_.notify_one();
    }
}

} // namespace concorde
