#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace concorde {

/// A region's basic-block vector: (basic-block start PC, instructions executed in that block)
/// pairs, in any order; a PC may repeat (its counts add up).
using BasicBlockVector = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// SimPoint's dimension reduction: a basic-block vector, normalised to sum 1, multiplied by a
/// random matrix with one row per PC and `dimensions` columns (SimPoint uses 15). The matrix is
/// never stored: entry (pc, d) is a uniform value in [−1, 1] computed from hash(seed, pc, d), so
/// every region — in any program, on any machine, in any run — sees the same column for the
/// same PC, and nothing has to be known about the set of PCs in advance. Uniform [−1, 1] entries
/// are what SimPoint 3.0 uses; any zero-mean distribution preserves distances approximately
/// (Johnson–Lindenstrauss) and 15 dimensions keep phases of real programs apart in practice.
class RandomProjection {
public:
    explicit RandomProjection(std::size_t dimensions = 15, std::uint64_t seed = 2042712918);

    std::size_t dimensions() const { return dimensions_; }

    /// The projected, normalised vector. Independent of the order of the pairs (they are
    /// summed in PC order). Throws a bad-input error when the counts add up to 0.
    std::vector<double> project(const BasicBlockVector& bbv) const;

    /// Matrix entry for (pc, dimension), in [−1, 1).
    double coefficient(std::uint64_t pc, std::size_t dimension) const;

private:
    std::size_t dimensions_;
    std::uint64_t seed_;
};

} // namespace concorde
