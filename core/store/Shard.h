#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace concorde {

/// One slice of an embarrassingly parallel job (docs/design.md §14): `--shard I/N` takes the items
/// whose global index % N == I, so N independent processes (e.g. a Slurm job array with I =
/// $SLURM_ARRAY_TASK_ID) cover every item exactly once. The default 0/1 is everything.
class Shard {
public:
    Shard() = default;
    Shard(std::uint32_t index, std::uint32_t count);
    /// Parses "I/N" with 0 ≤ I < N; a usage ConcordeError otherwise.
    static Shard parse(const std::string& text);

    bool contains(std::size_t globalIndex) const { return globalIndex % count_ == index_; }
    std::uint32_t index() const { return index_; }
    std::uint32_t count() const { return count_; }
    bool all() const { return count_ == 1; }
    std::string toString() const;

private:
    std::uint32_t index_ = 0;
    std::uint32_t count_ = 1;
};

} // namespace concorde
