#include "TextFormat.h"

#include <cstdio>

namespace concorde::cli {
namespace {

std::string printed(const char* format, double value) {
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

} // namespace

std::string TextFormat::kilobytes(std::uint64_t bytes) {
    return printed("%.1f kB", static_cast<double>(bytes) / 1000.0);
}

std::string TextFormat::percent(double fraction) {
    return printed("%.2f %%", 100.0 * fraction);
}

std::string TextFormat::signedPercent(double fraction) {
    return printed("%+.2f %%", 100.0 * fraction);
}

} // namespace concorde::cli
