#pragma once

#include "attribution/AttributionReport.h"
#include "attribution/ProgramAttribution.h"

#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace concorde {

/// Writes attributions as CSV with exactly the header `program,region,player,attribution,stderr`
/// (the format the CLI promises). Per program: first the program-level rows (region `all`),
/// then each region's rows in region order; within each, one row per player in PlayerSet order,
/// inactive players included (attribution 0), so every program has the same set of rows.
/// Numbers are written in the shortest form that reads back to the same double. Fields that
/// contain a comma, a quote or a line break are quoted (RFC 4180).
class AttributionCsvWriter {
public:
    static constexpr std::string_view kHeader = "program,region,player,attribution,stderr";

    static void write(std::ostream& out, std::span<const ProgramAttribution> programs);
    static void write(std::ostream& out, const AttributionReport& report);
    /// Writes the file atomically (AtomicFile); errors name the file.
    static void writeFile(const std::filesystem::path& file, const AttributionReport& report);

    /// One CSV field, quoted if needed.
    static std::string field(std::string_view text);
    /// A double in its shortest round-trip form ("0.125", "-3.5e-05").
    static std::string number(double value);
};

} // namespace concorde
