#pragma once

#include <chrono>
#include <iosfwd>
#include <string>

namespace concorde::cli {

/// Progress of a long command on stderr. On a terminal: a bar redrawn in place (at most ten
/// times a second) with permanent log lines printed above it. Otherwise (a log file, a Slurm
/// job, a test): only the log lines, plus a plain status line every `plainInterval` so that a
/// long step still shows signs of life.
class ProgressReporter {
public:
    ProgressReporter(std::ostream& err, std::string prefix, bool terminal,
                     std::chrono::seconds plainInterval = std::chrono::seconds(30));
    ~ProgressReporter();
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;

    /// True if the process's stderr is a terminal.
    static bool stderrIsTerminal();

    /// Updates the bar: `fraction` in [0, 1] of the whole job, `status` a short text.
    void update(double fraction, const std::string& status);
    /// A permanent line ("prefix: text").
    void line(const std::string& text);
    /// Removes the bar (called by the destructor too).
    void finish();

private:
    void clearBar();

    std::ostream& err_;
    std::string prefix_;
    bool terminal_;
    std::chrono::seconds plainInterval_;
    bool barShown_ = false;
    std::chrono::steady_clock::time_point lastDraw_{};
    std::chrono::steady_clock::time_point lastPlain_;
};

} // namespace concorde::cli
