#include "JobRunner.h"

namespace concorde::cli {

JobRunner::JobRunner(std::ostream& err, std::string name)
    : reporter_(err, std::move(name), ProgressReporter::stderrIsTerminal()),
      control_(
          [this](const JobProgress& progress) {
              if (!progress.log.empty())
                  reporter_.line(progress.log);
              if (progress.total)
                  reporter_.update(progress.fraction(), progress.item);
          },
          &interrupt_.flag()) {}

} // namespace concorde::cli
