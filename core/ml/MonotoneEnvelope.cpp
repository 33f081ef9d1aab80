#include "ml/MonotoneEnvelope.h"

#include "common/ConcordeError.h"
#include "params/ParameterSpace.h"

#include <algorithm>

namespace concorde {

void MonotoneEnvelope::apply(const std::vector<ParamId>& params, const ParameterGrid& grid,
                             std::span<const InputConstraint> constraints,
                             Eigen::MatrixXf& features) {
    if (constraints.size() != static_cast<std::size_t>(features.rows()))
        throw usageError("the monotone envelope needs one constraint per feature row");
    std::size_t count = 1;
    for (const ParamId p : params)
        count *= grid.size(p);
    if (count != static_cast<std::size_t>(features.cols()))
        throw usageError("the monotone envelope needs one column per parameter combination");
    std::vector<Eigen::Index> growing, falling; // rows that may only grow / only fall
    for (std::size_t r = 0; r < constraints.size(); ++r) {
        if (constraints[r] == InputConstraint::NonIncreasing)
            growing.push_back(static_cast<Eigen::Index>(r));
        else if (constraints[r] == InputConstraint::NonDecreasing)
            falling.push_back(static_cast<Eigen::Index>(r));
    }
    if (growing.empty() && falling.empty())
        return;
    // Carries the better of a column and its neighbour one step down (the smaller core) along
    // one axis into the column.
    const auto carry = [&](Eigen::Index into, Eigen::Index from) {
        for (const Eigen::Index r : growing)
            features(r, into) = std::max(features(r, into), features(r, from));
        for (const Eigen::Index r : falling)
            features(r, into) = std::min(features(r, into), features(r, from));
    };
    std::size_t stride = 1; // of the parameter being processed; the last is the least significant
    for (std::size_t j = params.size(); j-- > 0;) {
        const std::size_t radix = grid.size(params[j]);
        const int direction = ParameterSpace::betterDirection(params[j]);
        if (direction != 0 && radix > 1) {
            // Walk each axis from its smallest core to its biggest, so that the running best
            // accumulates: ascending indices when larger values are better, else descending.
            for (std::size_t k = 0; k < count; ++k) {
                const std::size_t at = direction > 0 ? k : count - 1 - k;
                const std::size_t digit = at / stride % radix;
                if (direction > 0 && digit >= 1)
                    carry(static_cast<Eigen::Index>(at), static_cast<Eigen::Index>(at - stride));
                else if (direction < 0 && digit + 1 < radix)
                    carry(static_cast<Eigen::Index>(at), static_cast<Eigen::Index>(at + stride));
            }
        }
        stride *= radix;
    }
}

namespace {

/// Working storage of nonDecreasing, kept across calls: the tables of a composed model repair
/// hundreds of thousands of short lines when a database opens.
struct PoolScratch {
    std::vector<double> sums;
    std::vector<std::size_t> counts;
};

/// Isotonic regression of `values` to a non-decreasing sequence (pool adjacent violators, equal
/// weights), in place. A sequence already in order is left as it is, which is what the pooling
/// would give.
void nonDecreasing(std::vector<float>& values, PoolScratch& scratch) {
    if (std::is_sorted(values.begin(), values.end()))
        return;
    std::vector<double>& sums = scratch.sums;
    std::vector<std::size_t>& counts = scratch.counts;
    sums.clear();
    counts.clear();
    for (const float v : values) {
        sums.push_back(v);
        counts.push_back(1);
        while (sums.size() > 1 && sums[sums.size() - 2] * double(counts.back()) >
                                      sums.back() * double(counts[counts.size() - 2])) {
            sums[sums.size() - 2] += sums.back();
            counts[counts.size() - 2] += counts.back();
            sums.pop_back();
            counts.pop_back();
        }
    }
    std::size_t at = 0;
    for (std::size_t b = 0; b < sums.size(); ++b)
        for (std::size_t k = 0; k < counts[b]; ++k)
            values[at++] = static_cast<float>(sums[b] / double(counts[b]));
}

} // namespace

void MonotoneEnvelope::isotonic(const std::vector<ParamId>& params, const ParameterGrid& grid,
                                std::span<const InputConstraint> constraints,
                                Eigen::MatrixXf& features, int sweeps) {
    if (constraints.size() != static_cast<std::size_t>(features.rows()))
        throw usageError("the monotone envelope needs one constraint per feature row");
    std::vector<std::size_t> stride(params.size());
    std::size_t count = 1;
    for (std::size_t j = params.size(); j-- > 0;) {
        stride[j] = count;
        count *= grid.size(params[j]);
    }
    if (count != static_cast<std::size_t>(features.cols()))
        throw usageError("the monotone envelope needs one column per parameter combination");
    std::vector<float> line;
    PoolScratch scratch;
    for (int sweep = 0; sweep < sweeps; ++sweep)
        for (std::size_t j = 0; j < params.size(); ++j) {
            const std::size_t radix = grid.size(params[j]);
            const int direction = ParameterSpace::betterDirection(params[j]);
            if (direction == 0 || radix < 2)
                continue;
            line.resize(radix);
            for (std::size_t start = 0; start < count; ++start) {
                if (start / stride[j] % radix != 0)
                    continue; // not the first point of its line along axis j
                // Position k of the line from the smallest core to the biggest.
                const auto column = [&](std::size_t k) {
                    return static_cast<Eigen::Index>(start + (direction > 0 ? k : radix - 1 - k) *
                                                                 stride[j]);
                };
                for (std::size_t r = 0; r < constraints.size(); ++r) {
                    const auto row = static_cast<Eigen::Index>(r);
                    // Growing rows rise along the line; falling ones are fitted negated.
                    float sign = 0;
                    if (constraints[r] == InputConstraint::NonIncreasing)
                        sign = 1;
                    else if (constraints[r] == InputConstraint::NonDecreasing)
                        sign = -1;
                    if (sign == 0)
                        continue;
                    for (std::size_t k = 0; k < radix; ++k)
                        line[k] = sign * features(row, column(k));
                    nonDecreasing(line, scratch);
                    for (std::size_t k = 0; k < radix; ++k)
                        features(row, column(k)) = sign * line[k];
                }
            }
        }
    apply(params, grid, constraints, features);
}

} // namespace concorde
