#pragma once

#include <atomic>
#include <csignal>

namespace concorde::cli {

/// While alive, SIGINT (Ctrl-C) and SIGTERM (e.g. Slurm's time limit) set a flag instead of
/// killing the process, so a long command can stop between two committed units of work and say
/// how to resume. A second signal restores the default action and re-raises it: a user who
/// presses Ctrl-C twice gets out at once (the database stays consistent either way).
class InterruptFlag {
public:
    InterruptFlag();
    ~InterruptFlag();
    InterruptFlag(const InterruptFlag&) = delete;
    InterruptFlag& operator=(const InterruptFlag&) = delete;

    const std::atomic<bool>& flag() const;
    bool raised() const { return flag().load(); }

private:
    struct sigaction previousInt_ {};
    struct sigaction previousTerm_ {};
};

} // namespace concorde::cli
