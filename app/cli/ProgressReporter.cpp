#include "ProgressReporter.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace concorde::cli {

ProgressReporter::ProgressReporter(std::ostream& err, std::string prefix, bool terminal,
                                   std::chrono::seconds plainInterval)
    : err_(err), prefix_(std::move(prefix)), terminal_(terminal), plainInterval_(plainInterval),
      lastPlain_(std::chrono::steady_clock::now()) {}

ProgressReporter::~ProgressReporter() {
    finish();
}

bool ProgressReporter::stderrIsTerminal() {
    return ::isatty(STDERR_FILENO) == 1;
}

void ProgressReporter::clearBar() {
    if (barShown_) {
        err_ << "\r\x1b[K";
        barShown_ = false;
    }
}

void ProgressReporter::update(double fraction, const std::string& status) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    const auto now = std::chrono::steady_clock::now();
    std::ostringstream percent;
    percent << std::fixed << std::setprecision(1) << 100.0 * fraction << " %";
    if (!terminal_) {
        if (now - lastPlain_ < plainInterval_)
            return;
        lastPlain_ = now;
        err_ << prefix_ << ": " << percent.str() << " " << status << "\n" << std::flush;
        return;
    }
    if (barShown_ && now - lastDraw_ < std::chrono::milliseconds(100) && fraction < 1.0)
        return;
    lastDraw_ = now;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(std::lround(fraction * kWidth));
    err_ << "\r\x1b[K" << prefix_ << " [" << std::string(filled, '#')
         << std::string(kWidth - filled, '.') << "] " << percent.str() << " " << status
         << std::flush;
    barShown_ = true;
}

void ProgressReporter::line(const std::string& text) {
    clearBar();
    err_ << prefix_ << ": " << text << "\n" << std::flush;
    lastPlain_ = std::chrono::steady_clock::now();
}

void ProgressReporter::finish() {
    clearBar();
    err_ << std::flush;
}

} // namespace concorde::cli
