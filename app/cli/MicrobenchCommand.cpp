#include "MicrobenchCommand.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "trace/synthetic/KernelCatalog.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>

namespace concorde::cli {
namespace {

using synthetic::KernelCatalog;
using synthetic::MicrobenchKernel;

std::string defaultsText(const MicrobenchKernel& kernel) {
    std::string text;
    for (const auto& p : kernel.parameters())
        text += (text.empty() ? "" : " ") + p.key + "=" + p.defaultText();
    return text;
}

std::size_t nameWidth(const KernelCatalog& catalog) {
    std::size_t width = 0;
    for (const auto& kernel : catalog.kernels())
        width = std::max(width, kernel->name().size());
    return width + 2;
}

/// `--param` values as a map, rejecting malformed and repeated keys.
std::map<std::string, std::string> parseParams(const std::vector<std::string>& texts) {
    std::map<std::string, std::string> values;
    for (const auto& text : texts) {
        const auto equals = text.find('=');
        if (equals == std::string::npos || equals == 0)
            throw usageError("--param expects KEY=VALUE, got '" + text + "'");
        const std::string key = text.substr(0, equals);
        if (!values.emplace(key, text.substr(equals + 1)).second)
            throw usageError("parameter '" + key + "' given more than once");
    }
    return values;
}

} // namespace

std::string MicrobenchCommand::help() const {
    const KernelCatalog catalog;
    std::ostringstream text;
    text << "Usage: concorde microbench NAME [--iterations N] [--param KEY=VALUE]... -o FILE\n"
            "       concorde microbench --list\n\n"
            "Generates a DiagSim-style microbenchmark kernel directly as a .ctrace trace: a loop\n"
            "that makes one resource of the core binding (a latency, a width, a queue size), to\n"
            "validate the reference simulator and the analytical models. The trace holds one\n"
            "region: warm-up iterations (flagged), then the measured iterations. Generation is\n"
            "deterministic; the kernel, its parameters and the equivalent command line are\n"
            "recorded in the trace header (see concorde info).\n\n"
            "Options:\n"
            "  --iterations N      measured iterations (default: about 100k instructions;\n"
            "                      what an iteration is depends on the kernel, see below)\n"
            "  --param KEY=VALUE   set a kernel parameter (repeatable)\n"
            "  -o, --output FILE   the .ctrace to write (required)\n"
            "  --list              list the kernels, one line each, with parameter defaults\n\n"
            "Kernels:\n";
    for (const auto& kernel : catalog.kernels()) {
        text << "  " << kernel->name() << "\n      " << kernel->description() << "\n"
             << "      iteration: " << kernel->iterationMeaning() << "\n";
        for (const auto& p : kernel->parameters())
            text << "      " << p.key << "=" << p.defaultText() << "  " << p.description << " ("
                 << p.allowedText() << ")\n";
    }
    text
        << "\nExamples:\n"
           "  concorde microbench chain-int-mul -o mul.ctrace\n"
           "  concorde microbench pointer-chase --param ws_kb=8192 --iterations 4 -o chase.ctrace\n"
           "  concorde microbench rob-knee --param fillers=126 -o rob128.ctrace\n"
           "  concorde microbench independent --param class=fp-add -o fpadd.ctrace\n";
    return text.str();
}

int MicrobenchCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    ArgParser parser(args);
    const bool list = parser.takeFlag("--list");
    const auto paramTexts = parser.takeValues("--param");
    const std::uint64_t iterationsOption =
        parser.takeUnsigned("--iterations", 0, 1, 1'000'000'000'000ull);
    auto output = parser.takeValue("-o");
    if (auto longOutput = parser.takeValue("--output")) {
        if (output)
            throw usageError("give the output file once (-o or --output)");
        output = std::move(longOutput);
    }
    const auto positional = parser.finish();

    const KernelCatalog catalog;
    if (list) {
        if (!positional.empty() || !paramTexts.empty() || output || iterationsOption != 0)
            throw usageError("--list takes no other arguments");
        const std::size_t width = nameWidth(catalog);
        for (const auto& kernel : catalog.kernels()) {
            std::string name = kernel->name();
            name.resize(width, ' ');
            out << name << kernel->description() << " [" << defaultsText(*kernel) << "]\n";
        }
        return 0;
    }

    if (positional.empty())
        throw usageError("missing kernel NAME (see concorde microbench --list)");
    if (positional.size() > 1)
        throw usageError("microbench takes one kernel NAME, got " +
                         std::to_string(positional.size()) + " arguments");
    const MicrobenchKernel& kernel = catalog.require(positional.front());
    const auto params = kernel.resolve(parseParams(paramTexts));
    if (!output || output->empty())
        throw usageError("missing -o FILE (the .ctrace to write)");
    const std::uint64_t iterations =
        iterationsOption != 0 ? iterationsOption : kernel.defaultIterations(params);

    const Region region = kernel.writeTrace(*output, params, iterations);
    out << "wrote " << *output << ": " << kernel.name() << ", " << iterations << " iterations, "
        << region.warmup << " warm-up + " << region.length << " measured instructions\n";
    return 0;
}

} // namespace concorde::cli
