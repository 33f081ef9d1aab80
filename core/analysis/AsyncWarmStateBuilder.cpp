#include "analysis/AsyncWarmStateBuilder.h"

#include <utility>

namespace concorde {

AsyncWarmStateBuilder::AsyncWarmStateBuilder(std::size_t batchEvents)
    : batchEvents_(batchEvents == 0 ? 1 : batchEvents), worker_([this] { work(); }) {
    filling_.reserve(batchEvents_ + 8); // a record adds at most a handful of events
}

AsyncWarmStateBuilder::~AsyncWarmStateBuilder() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
}

void AsyncWarmStateBuilder::restart() {
    filling_.clear(); // events of the state being forgotten
    waitIdle();
    builder_ = WarmStateBuilder(); // both halves: the worker is idle
}

WarmState AsyncWarmStateBuilder::finish() {
    if (!filling_.empty())
        submit();
    waitIdle();
    std::lock_guard lock(mutex_);
    if (error_)
        std::rethrow_exception(error_);
    return builder_.finish();
}

void AsyncWarmStateBuilder::submit() {
    waitIdle();
    {
        std::lock_guard lock(mutex_);
        std::swap(submitted_, filling_);
        busy_ = true;
    }
    changed_.notify_all();
    filling_.clear();
}

void AsyncWarmStateBuilder::waitIdle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !busy_; });
}

void AsyncWarmStateBuilder::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return busy_ || stopping_; });
        if (!busy_)
            return; // stopping with nothing left to do
        lock.unlock();
        try {
            builder_.apply(submitted_);
        } catch (...) {
            lock.lock();
            error_ = std::current_exception();
            lock.unlock();
        }
        lock.lock();
        busy_ = false;
        changed_.notify_all();
    }
}

} // namespace concorde
