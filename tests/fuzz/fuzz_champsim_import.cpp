// libFuzzer harness: the ChampSim importer (ChampSimConverter::importTrace over
// CompressedFileReader: raw, .xz or .gz input, detected by its magic bytes), then the .ctrace
// it wrote, read back whole by TraceReader.

#include "FuzzSupport.h"
#include "trace/TraceReader.h"
#include "trace/champsim/ChampSimConverter.h"

using namespace concorde;

namespace {

void import(const std::filesystem::path& input, const ChampSimConverter::ImportOptions& options) {
    const std::filesystem::path output = fuzz::scratchPath("output.ctrace");
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
    ChampSimConversionStats stats;
    if (!fuzz::expectOnlyConcordeErrors(
            [&] { stats = ChampSimConverter::importTrace(input, output, options); }))
        return;
    // What the importer wrote must read back: one region holding every record it counted.
    TraceReader reader(output);
    reader.verifyAll();
    fuzz::require(reader.recordCount() == stats.records, "the trace holds another record count");
    fuzz::require(reader.info().regions.size() == 1, "an import writes one region");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path input = fuzz::scratchPath("input.champsim");
    fuzz::writeFile(input, {data, size});
    import(input, {});
    // A skip and a warm-up exercise the other paths (too few records, all warm-up).
    import(input, {.skip = 1, .warmup = 2, .length = 3});
    return 0;
}
