#include "TraceWorkload.h"

#include "CommonOptions.h"
#include "trace/TraceReader.h"

#include <CLI/CLI.hpp>

namespace concorde::cli {

void TraceWorkload::addTo(CLI::App& app, const std::string& windowHelp, std::uint32_t minWindow) {
    app.add_option("TRACE", trace, "the .ctrace")->required();
    config.addTo(app);
    regions.addTo(app);
    app.add_option("--window", window, windowHelp)
        ->type_name("W")
        ->check(wholeNumber(minWindow, 1u << 20))
        ->capture_default_str();
}

std::vector<std::size_t> TraceWorkload::selectRegions(TraceReader& reader) const {
    reader.verifyAll();
    return regions.resolve(reader.info().regions.size());
}

} // namespace concorde::cli
