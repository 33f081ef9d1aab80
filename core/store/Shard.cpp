#include "store/Shard.h"

#include "common/ConcordeError.h"

#include <charconv>

namespace concorde {

Shard::Shard(std::uint32_t index, std::uint32_t count) : index_(index), count_(count) {
    if (count == 0 || index >= count)
        throw usageError("shard " + std::to_string(index) + "/" + std::to_string(count) +
                         " is invalid: need 0 ≤ I < N");
}

Shard Shard::parse(const std::string& text) {
    const auto slash = text.find('/');
    const auto number = [&](std::size_t from, std::size_t to, std::uint32_t& value) {
        const auto [end, ec] = std::from_chars(text.data() + from, text.data() + to, value);
        return from < to && ec == std::errc() && end == text.data() + to;
    };
    std::uint32_t index = 0;
    std::uint32_t count = 0;
    if (slash == std::string::npos || !number(0, slash, index) ||
        !number(slash + 1, text.size(), count))
        throw usageError("--shard expects I/N (e.g. 3/16), got '" + text + "'");
    return Shard(index, count);
}

std::string Shard::toString() const {
    return std::to_string(index_) + "/" + std::to_string(count_);
}

} // namespace concorde
