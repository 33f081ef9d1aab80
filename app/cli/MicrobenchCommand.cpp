#include "MicrobenchCommand.h"

#include "CommonOptions.h"
#include "common/ConcordeError.h"
#include "trace/synthetic/KernelCatalog.h"

#include <CLI/CLI.hpp>
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

std::string MicrobenchCommand::description() const {
    return "Generates a DiagSim-style microbenchmark kernel NAME directly as a .ctrace trace: a\n"
           "loop that makes one resource of the core binding (a latency, a width, a queue size),\n"
           "to validate the reference simulator and the analytical models. The trace holds one\n"
           "region: warm-up iterations (flagged), then the measured iterations. Generation is\n"
           "deterministic; the kernel, its parameters and the equivalent command line are\n"
           "recorded in the trace header (see concorde info). With --list, lists the kernels\n"
           "instead.\n";
}

std::string MicrobenchCommand::epilogue() const {
    const KernelCatalog catalog;
    std::ostringstream text;
    text << "Kernels:\n";
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

void MicrobenchCommand::declare(CLI::App& app) {
    CLI::Option* kernel = app.add_option("NAME", kernel_, "the kernel (see Kernels below)");
    CLI::Option* iterations =
        app.add_option("--iterations", iterations_,
                       "measured iterations (what an iteration is depends on the kernel, see "
                       "below)")
            ->type_name("N")
            ->check(wholeNumber(1, 1'000'000'000'000ull))
            ->default_str("about 100k instructions");
    CLI::Option* param = app.add_option("--param", params_, "set a kernel parameter")
                             ->type_name("KEY=VALUE")
                             ->allow_extra_args(false);
    CLI::Option* output =
        app.add_option("-o,--output", output_, "the .ctrace to write; required")->type_name("FILE");
    app.add_flag("--list", list_, "list the kernels, one line each, with parameter defaults")
        ->excludes(kernel)
        ->excludes(iterations)
        ->excludes(param)
        ->excludes(output);
}

int MicrobenchCommand::run(std::ostream& out, std::ostream&) {
    const KernelCatalog catalog;
    if (list_) {
        const std::size_t width = nameWidth(catalog);
        for (const auto& kernel : catalog.kernels()) {
            std::string name = kernel->name();
            name.resize(width, ' ');
            out << name << kernel->description() << " [" << defaultsText(*kernel) << "]\n";
        }
        return 0;
    }

    if (!kernel_)
        throw usageError("missing kernel NAME (see concorde microbench --list)");
    const MicrobenchKernel& kernel = catalog.require(*kernel_);
    const auto params = kernel.resolve(parseParams(params_));
    if (!output_ || output_->empty())
        throw usageError("missing -o FILE (the .ctrace to write)");
    const std::uint64_t iterations =
        iterations_ != 0 ? iterations_ : kernel.defaultIterations(params);

    const Region region = kernel.writeTrace(*output_, params, iterations);
    out << "wrote " << *output_ << ": " << kernel.name() << ", " << iterations << " iterations, "
        << region.warmup << " warm-up + " << region.length << " measured instructions\n";
    return 0;
}

} // namespace concorde::cli
