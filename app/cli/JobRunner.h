#pragma once

#include "InterruptFlag.h"
#include "ProgressReporter.h"
#include "common/JobControl.h"

#include <iosfwd>
#include <string>

namespace concorde::cli {

/// Runs a long core job the way every verb does: its progress as a bar on a terminal (plain
/// lines in a log), its log lines kept, and Ctrl-C or SIGTERM cancelling it at its next safe
/// point. A cancelled job throws jobCancelled, which main() reports with exit code 130.
class JobRunner {
public:
    JobRunner(std::ostream& err, std::string name);
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    /// Calls `job(control)` and returns what it returns; the bar is gone afterwards, whether
    /// the job returned or threw.
    template <class Job>
    auto run(Job&& job) {
        struct FinishBar {
            ProgressReporter& reporter;
            ~FinishBar() { reporter.finish(); }
        } finishBar{reporter_};
        return job(static_cast<const JobControl&>(control_));
    }

    /// A permanent line above the bar ("name: text").
    void line(const std::string& text) { reporter_.line(text); }

private:
    InterruptFlag interrupt_;
    ProgressReporter reporter_;
    JobControl control_;
};

} // namespace concorde::cli
