#include "InterruptFlag.h"

namespace concorde::cli {
namespace {

// Lock-free atomics are async-signal-safe; nothing else is touched in the handler.
std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onSignal(int signal) {
    if (interrupted.exchange(true)) {
        std::signal(signal, SIG_DFL);
        std::raise(signal);
    }
}

} // namespace

InterruptFlag::InterruptFlag() {
    interrupted = false;
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previousInt_);
    sigaction(SIGTERM, &action, &previousTerm_);
}

InterruptFlag::~InterruptFlag() {
    sigaction(SIGINT, &previousInt_, nullptr);
    sigaction(SIGTERM, &previousTerm_, nullptr);
}

const std::atomic<bool>& InterruptFlag::flag() const {
    return interrupted;
}

} // namespace concorde::cli
