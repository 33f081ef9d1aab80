#include "trace/synthetic/MicrobenchKernel.h"

#include "common/ConcordeError.h"
#include "trace/RecordSink.h"
#include "trace/TraceWriter.h"
#include "trace/TraceWriterSink.h"
#include "trace/synthetic/KernelBuilder.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace concorde::synthetic {
namespace {

/// Quotes `text` for a POSIX shell when it holds anything but plainly safe characters.
std::string shellQuoted(const std::string& text) {
    const bool safe = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("_-+=./:,@%").find(c) != std::string_view::npos;
    });
    if (safe)
        return text;
    std::string quoted = "'";
    for (const char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

} // namespace

KernelParams MicrobenchKernel::resolve(const std::map<std::string, std::string>& values) const {
    const auto declared = parameters();
    for (const auto& entry : values) {
        const std::string& key = entry.first; // clang 14 cannot capture a structured binding
        const bool known = std::any_of(declared.begin(), declared.end(),
                                       [&](const KernelParameter& p) { return p.key == key; });
        if (!known) {
            std::string keys;
            for (const auto& p : declared)
                keys += (keys.empty() ? "" : ", ") + p.key;
            throw usageError("microbench kernel '" + name() + "' has no parameter '" + key +
                             "' (its parameters: " + (keys.empty() ? "none" : keys) + ")");
        }
    }

    KernelParams params;
    for (const auto& p : declared) {
        const auto given = values.find(p.key);
        if (p.isChoice()) {
            const std::string& text = given == values.end() ? p.defaultChoice : given->second;
            if (std::find(p.choices.begin(), p.choices.end(), text) == p.choices.end())
                reject("parameter " + p.key + " = '" + text +
                       "' is not one of: " + p.allowedText());
            params.setChoice(p.key, text);
            continue;
        }
        std::uint64_t number = p.defaultNumber;
        if (given != values.end()) {
            const std::string& text = given->second;
            const char* end = text.data() + text.size();
            const auto result = std::from_chars(text.data(), end, number);
            if (text.empty() || result.ec != std::errc() || result.ptr != end)
                reject("parameter " + p.key + " expects a whole number in " + p.allowedText() +
                       ", got '" + text + "'");
        }
        if (number < p.min || number > p.max)
            reject("parameter " + p.key + " = " + std::to_string(number) + " is out of range " +
                   p.allowedText() + " (" + p.description + ")");
        params.setNumber(p.key, number);
    }
    return params;
}

void MicrobenchKernel::validate(const KernelParams&, std::uint64_t) const {}

void MicrobenchKernel::reject(const std::string& problem) const {
    throw badInput("microbench kernel '" + name() + "': " + problem);
}

KernelParameter MicrobenchKernel::warmupParameter(std::uint64_t defaultValue, std::uint64_t max,
                                                  const std::string& unit) {
    return KernelParameter::number("warmup", "warm-up " + unit + " before the measured ones",
                                   defaultValue, 0, max);
}

void MicrobenchKernel::generate(const KernelParams& params, std::uint64_t iterations,
                                RecordSink& sink) const {
    if (iterations == 0)
        reject("iterations must be at least 1");
    validate(params, iterations);

    // Sinks need the warm-up length before the first record; a counting pass is cheaper and
    // less error-prone than every kernel computing its own record counts.
    KernelBuilder counter(nullptr);
    emitLoop(params, iterations, counter);
    if (!counter.measurementBegun())
        throw std::logic_error("microbench kernel " + name() + " never began measurement");

    const std::uint64_t warmup = counter.warmupRecords();
    sink.beginRegion(warmup, warmup);
    KernelBuilder builder(&sink);
    emitLoop(params, iterations, builder);
    if (builder.recordCount() != counter.recordCount() || builder.warmupRecords() != warmup)
        throw std::logic_error("microbench kernel " + name() + " is not deterministic");
    sink.endRegion();
}

std::string MicrobenchKernel::invocation(const KernelParams& params,
                                         std::uint64_t iterations) const {
    std::string text =
        "concorde microbench " + name() + " --iterations " + std::to_string(iterations);
    for (const auto& [key, value] : params.entries())
        text += " --param " + shellQuoted(key + "=" + value);
    return text;
}

TraceInfo MicrobenchKernel::traceInfo(const KernelParams& params, std::uint64_t iterations) const {
    TraceInfo info;
    info.source = "microbench";
    info.commandLine = invocation(params, iterations);
    info.properties["kernel"] = name();
    info.properties["iterations"] = std::to_string(iterations);
    info.properties["microbench_version"] = std::to_string(kGeneratorVersion);
    for (const auto& [key, value] : params.entries())
        info.properties["param." + key] = value;
    return info;
}

Region MicrobenchKernel::writeTrace(const std::filesystem::path& path, const KernelParams& params,
                                    std::uint64_t iterations) const {
    TraceInfo info = traceInfo(params, iterations);
    info.commandLine += " -o " + shellQuoted(path.string());
    TraceWriter writer(path, std::move(info));
    TraceWriterSink sink(writer);
    generate(params, iterations, sink);
    writer.finish();
    return sink.regions().front();
}

} // namespace concorde::synthetic
