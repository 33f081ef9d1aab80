#pragma once

#include "analysis/ProducerList.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// The reverse of a region's dependence edges: for each instruction, the instructions that
/// consume its result, in CSR form (one flat array and an offset per instruction). Schedulers
/// walk it to wake consumers up when a producer finishes; both the ROB bound and the reference
/// simulator use it.
class ConsumerLists {
public:
    /// Set in an edge when the consumer needs only the producer's early result
    /// (ProducerList::isEarly: ready one cycle after the producer issues).
    static constexpr std::uint32_t kEarlyEdge = 1u << 31;

    ConsumerLists() = default;

    /// Built from `count` instructions whose producers producersOf(i) returns (a
    /// `const ProducerList&`); producer indices must be below `count`.
    template <class ProducersOf>
    ConsumerLists(std::size_t count, ProducersOf&& producersOf) : start_(count + 1, 0) {
        // Count, prefix-sum, fill.
        for (std::size_t i = 0; i < count; ++i)
            for (std::int32_t p : producersOf(i))
                ++start_[static_cast<std::size_t>(p) + 1];
        for (std::size_t i = 0; i < count; ++i)
            start_[i + 1] += start_[i];
        edges_.resize(start_[count]);
        std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
        for (std::size_t i = 0; i < count; ++i) {
            const ProducerList& list = producersOf(i);
            for (std::size_t k = 0; k < list.size(); ++k)
                edges_[fill[static_cast<std::size_t>(list.index[k])]++] =
                    static_cast<std::uint32_t>(i) | (list.isEarly(k) ? kEarlyEdge : 0);
        }
    }

    /// Consumer edges of instruction i: the consumer's index, with kEarlyEdge set for
    /// early-result edges.
    std::span<const std::uint32_t> of(std::size_t i) const {
        return std::span<const std::uint32_t>(edges_).subspan(start_[i], start_[i + 1] - start_[i]);
    }
    /// The consumer an edge leads to.
    static std::uint32_t consumer(std::uint32_t edge) { return edge & ~kEarlyEdge; }
    /// Whether an edge needs only the producer's early result.
    static bool isEarly(std::uint32_t edge) { return (edge & kEarlyEdge) != 0; }

private:
    std::vector<std::uint32_t> start_;
    std::vector<std::uint32_t> edges_;
};

} // namespace concorde
