#include "common/JobControl.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <mutex>

namespace concorde {

double JobProgress::fraction() const {
    if (total == 0)
        return 0.0;
    return std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
}

struct JobControl::State {
    Handler handler;
    const std::atomic<bool>* external = nullptr;
    std::shared_ptr<const State> parent; ///< cancelled with it (nested controls)
    std::atomic<bool> requested{false};
    std::mutex reportMutex;
};

JobControl::JobControl() : state_(std::make_shared<State>()) {}

JobControl::JobControl(Handler handler, const std::atomic<bool>* externalCancel)
    : state_(std::make_shared<State>()) {
    state_->handler = std::move(handler);
    state_->external = externalCancel;
}

void JobControl::report(const JobProgress& progress) const {
    if (!state_->handler)
        return;
    std::lock_guard lock(state_->reportMutex);
    state_->handler(progress);
}

void JobControl::report(std::size_t done, std::size_t total, const std::string& item) const {
    if (!state_->handler)
        return;
    JobProgress progress;
    progress.done = done;
    progress.total = total;
    progress.item = item;
    report(progress);
}

bool JobControl::reporting() const {
    return static_cast<bool>(state_->handler);
}

void JobControl::cancel() const {
    state_->requested.store(true);
}

bool JobControl::cancelled() const {
    for (const State* state = state_.get(); state; state = state->parent.get())
        if (state->requested.load(std::memory_order_relaxed) ||
            (state->external && state->external->load(std::memory_order_relaxed)))
            return true;
    return false;
}

JobControl JobControl::nested(Handler handler) const {
    JobControl part(std::move(handler));
    part.state_->parent = state_;
    return part;
}

void JobControl::throwIfCancelled(const std::string& what) const {
    if (cancelled())
        throw jobCancelled(what + " was cancelled");
}

} // namespace concorde
