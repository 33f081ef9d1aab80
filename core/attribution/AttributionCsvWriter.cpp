#include "attribution/AttributionCsvWriter.h"

#include "common/AtomicFile.h"

#include <array>
#include <charconv>
#include <sstream>

namespace concorde {

namespace {

void writeRows(std::ostream& out, const std::string& program, std::string_view region,
               const Attribution& attribution) {
    const std::string prefix =
        AttributionCsvWriter::field(program) + ',' + AttributionCsvWriter::field(region) + ',';
    for (const PlayerAttribution& p : attribution.players)
        out << prefix << AttributionCsvWriter::field(p.player) << ','
            << AttributionCsvWriter::number(p.value) << ','
            << AttributionCsvWriter::number(p.standardError) << '\n';
}

} // namespace

std::string AttributionCsvWriter::field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string AttributionCsvWriter::number(double value) {
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

void AttributionCsvWriter::write(std::ostream& out, std::span<const ProgramAttribution> programs) {
    out << kHeader << '\n';
    for (const ProgramAttribution& program : programs) {
        writeRows(out, program.program, "all", program.total);
        for (const RegionAttribution& region : program.regions)
            writeRows(out, program.program, region.region, region.attribution);
    }
}

void AttributionCsvWriter::write(std::ostream& out, const AttributionReport& report) {
    write(out, std::span<const ProgramAttribution>(report.programs));
}

void AttributionCsvWriter::writeFile(const std::filesystem::path& file,
                                     const AttributionReport& report) {
    std::ostringstream text;
    write(text, report);
    const std::string bytes = text.str();
    AtomicFile out(file);
    out.write(bytes.data(), bytes.size());
    out.commit();
}

} // namespace concorde
