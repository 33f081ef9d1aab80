#include "refsim/WindowIpcCollector.h"

namespace concorde {

void WindowIpcCollector::onStart(std::uint64_t instructions) {
    instructions_ = instructions;
    previousEnd_ = -1;
    ipc_.clear();
    ipc_.reserve(instructions / windowSize_ + 1);
}

void WindowIpcCollector::onCommit(const CommitEvent& event) {
    const bool windowEnds =
        (event.index + 1) % windowSize_ == 0 || event.index + 1 == instructions_;
    if (!windowEnds)
        return;
    const std::uint64_t count = event.index % windowSize_ + 1;
    const auto end = static_cast<std::int64_t>(event.cycle);
    ipc_.push_back(static_cast<double>(count) / static_cast<double>(end - previousEnd_));
    previousEnd_ = end;
}

} // namespace concorde
