#pragma once
// A synthetic kernel generated in memory (no file), as tests of the simulator, the bounds and the
// database need it: the records, warm-up first, and the warm-up length.

#include "trace/synthetic/KernelCatalog.h"
#include "trace/synthetic/MicrobenchKernel.h"
#include "trace/synthetic/VectorSink.h"

#include <map>
#include <string>
#include <vector>

namespace concorde::testing {

struct KernelTrace {
    std::vector<TraceRecord> records;
    std::size_t warmup = 0;
};

inline KernelTrace kernel(const std::string& name, std::map<std::string, std::string> params,
                          std::uint64_t iterations) {
    static const synthetic::KernelCatalog catalog;
    const auto& k = catalog.require(name);
    synthetic::VectorSink sink;
    k.generate(k.resolve(params), iterations, sink);
    const auto warmup = static_cast<std::size_t>(sink.regions().front().warmup);
    return {sink.takeRecords(), warmup};
}

} // namespace concorde::testing
