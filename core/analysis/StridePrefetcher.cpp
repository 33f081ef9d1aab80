#include "analysis/StridePrefetcher.h"

#include "common/ConcordeError.h"

#include <bit>
#include <string>

namespace concorde {

StridePrefetcher::StridePrefetcher(int degree, std::uint32_t entries)
    : degree_(degree), indexMask_(entries - 1), table_(entries) {
    if (degree < 0 || degree > kMaxDegree)
        throw badInput("prefetch degree must be in 0–" + std::to_string(kMaxDegree) + ", not " +
                       std::to_string(degree));
    if (!std::has_single_bit(entries))
        throw badInput("prefetcher table size must be a power of two");
}

int StridePrefetcher::train(std::uint64_t pc, std::uint64_t line,
                            std::array<std::uint64_t, kMaxDegree>& out) {
    if (degree_ == 0)
        return 0;
    // x86 PCs are byte-granular: fold higher bits in so nearby loads spread over the table.
    Entry& e = table_[(pc ^ (pc >> 8) ^ (pc >> 17)) & indexMask_];
    if (e.pc != pc) {
        e = Entry{pc, line, 0, 0};
        return 0;
    }
    if (line == e.lastLine)
        return 0;
    const std::int64_t stride = static_cast<std::int64_t>(line - e.lastLine);
    e.lastLine = line;
    if (stride == e.stride) {
        if (e.confidence < 3)
            ++e.confidence;
    } else if (e.confidence > 0) {
        --e.confidence;
    } else {
        e.stride = stride;
    }
    if (e.confidence < kConfidenceThreshold)
        return 0;
    for (int k = 0; k < degree_; ++k)
        out[k] = line + static_cast<std::uint64_t>(e.stride * (k + 1));
    return degree_;
}

void StridePrefetcher::reset() {
    std::fill(table_.begin(), table_.end(), Entry{});
}

} // namespace concorde
