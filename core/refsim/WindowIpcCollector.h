#pragma once

#include "params/MethodConstants.h"
#include "refsim/SimulationListener.h"

#include <vector>

namespace concorde {

/// IPC per window of `windowSize` committed instructions: window k holds instructions
/// [k·w, (k+1)·w) and lasts from the commit of the previous window's last instruction to the
/// commit of its own last one. A final partial window is kept.
class WindowIpcCollector : public SimulationListener {
public:
    explicit WindowIpcCollector(std::uint32_t windowSize = kDefaultWindowSize) : windowSize_(windowSize) {}
    void onStart(std::uint64_t instructions) override;
    void onCommit(const CommitEvent& event) override;
    const std::vector<double>& windowIpc() const { return ipc_; }

private:
    std::uint32_t windowSize_;
    std::uint64_t instructions_ = 0;
    std::int64_t previousEnd_ = -1;
    std::vector<double> ipc_;
};

} // namespace concorde
