#include "analysis/DependencyAnalyzer.h"

#include <algorithm>
#include <bit>

namespace concorde {

namespace {
constexpr std::size_t kInitialCapacity = 4096;
}

DependencyAnalyzer::DependencyAnalyzer() {
    reset();
}

void DependencyAnalyzer::reset() {
    lastWriter_.fill(-1);
    earlyWriter_.fill(false);
    granules_.clear();
    rehash(kInitialCapacity);
    nextIndex_ = 0;
}

void DependencyAnalyzer::rehash(std::size_t capacity) {
    std::vector<Granule> old;
    old.swap(granules_);
    granules_.assign(capacity, Granule{});
    hashShift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    used_ = 0;
    for (const Granule& g : old) {
        if (g.key == kEmptyKey)
            continue;
        findOrInsert(g.key).writer = g.writer;
    }
}

const DependencyAnalyzer::Granule* DependencyAnalyzer::find(std::uint64_t key) const {
    const std::size_t mask = granules_.size() - 1;
    for (std::size_t slot = slotOf(key);; slot = (slot + 1) & mask) {
        const Granule& g = granules_[slot];
        if (g.key == key)
            return &g;
        if (g.key == kEmptyKey)
            return nullptr;
    }
}

DependencyAnalyzer::Granule& DependencyAnalyzer::findOrInsert(std::uint64_t key) {
    // Keep the load factor ≤ 1/2 so that linear probing stays short.
    if (2 * (used_ + 1) > granules_.size())
        rehash(2 * granules_.size());
    const std::size_t mask = granules_.size() - 1;
    for (std::size_t slot = slotOf(key);; slot = (slot + 1) & mask) {
        Granule& g = granules_[slot];
        if (g.key == key)
            return g;
        if (g.key == kEmptyKey) {
            g.key = key;
            ++used_;
            return g;
        }
    }
}

ProducerList DependencyAnalyzer::next(const TraceRecord& record) {
    const std::int32_t self = nextIndex_++;
    ProducerList producers;

    for (std::size_t k = 0; k < record.sourceCount; ++k) {
        const std::uint8_t reg = record.sources[k];
        if (reg == ArchReg::kNone || reg == ArchReg::kRip || reg >= ArchReg::kCount)
            continue;
        if (lastWriter_[reg] >= 0)
            producers.add(lastWriter_[reg], false, earlyWriter_[reg]);
    }
    for (std::size_t k = 0; k < record.loadCount; ++k) {
        const MemoryAccess& load = record.loads[k];
        const std::uint64_t end = load.address + load.size;
        for (std::uint64_t byte = load.address; byte < end;) {
            const std::uint64_t granuleEnd = std::min(end, (byte | 7u) + 1);
            if (const Granule* g = find(byte >> 3)) {
                for (; byte < granuleEnd; ++byte)
                    if (const std::int32_t w = g->writer[byte & 7u]; w >= 0)
                        producers.add(w, true);
            }
            byte = granuleEnd;
        }
    }

    for (std::size_t k = 0; k < record.destinationCount; ++k) {
        const std::uint8_t reg = record.destinations[k];
        if (reg == ArchReg::kNone || reg == ArchReg::kRip || reg >= ArchReg::kCount)
            continue;
        lastWriter_[reg] = self;
        // pop, ret and leave update the stack pointer with an add beside their load (a stack
        // engine or a separate address-side micro-op): it does not wait for the load data.
        earlyWriter_[reg] = record.loadCount > 0 && reg == ArchReg::kRsp;
    }
    for (std::size_t k = 0; k < record.storeCount; ++k) {
        const MemoryAccess& store = record.stores[k];
        const std::uint64_t end = store.address + store.size;
        for (std::uint64_t byte = store.address; byte < end;) {
            const std::uint64_t granuleEnd = std::min(end, (byte | 7u) + 1);
            Granule& g = findOrInsert(byte >> 3);
            for (; byte < granuleEnd; ++byte)
                g.writer[byte & 7u] = self;
        }
    }
    return producers;
}

std::vector<ProducerList> DependencyAnalyzer::analyze(std::span<const TraceRecord> records,
                                                      std::size_t firstMeasured) {
    DependencyAnalyzer analyzer;
    std::vector<ProducerList> result;
    result.reserve(records.size() > firstMeasured ? records.size() - firstMeasured : 0);
    const auto base = static_cast<std::int32_t>(firstMeasured);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const ProducerList absolute = analyzer.next(records[i]);
        if (i < firstMeasured)
            continue;
        ProducerList relative;
        for (std::size_t k = 0; k < absolute.count; ++k)
            if (absolute.index[k] >= base)
                relative.add(absolute.index[k] - base, absolute.isMemory(k), absolute.isEarly(k));
        result.push_back(relative);
    }
    return result;
}

} // namespace concorde
