#include "trace/synthetic/KernelParams.h"

#include <stdexcept>

namespace concorde::synthetic {

void KernelParams::setNumber(const std::string& key, std::uint64_t value) {
    entries_.push_back({key, std::to_string(value), value, false});
}

void KernelParams::setChoice(const std::string& key, const std::string& value) {
    entries_.push_back({key, value, 0, true});
}

const KernelParams::Entry& KernelParams::find(const std::string& key) const {
    for (const auto& entry : entries_)
        if (entry.key == key)
            return entry;
    throw std::logic_error("kernel parameter '" + key + "' was not declared");
}

std::uint64_t KernelParams::number(const std::string& key) const {
    const Entry& entry = find(key);
    if (entry.isChoice)
        throw std::logic_error("kernel parameter '" + key + "' is not a number");
    return entry.number;
}

const std::string& KernelParams::choice(const std::string& key) const {
    const Entry& entry = find(key);
    if (!entry.isChoice)
        throw std::logic_error("kernel parameter '" + key + "' is not a choice");
    return entry.text;
}

std::vector<std::pair<std::string, std::string>> KernelParams::entries() const {
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(entries_.size());
    for (const auto& entry : entries_)
        out.emplace_back(entry.key, entry.text);
    return out;
}

} // namespace concorde::synthetic
