#include "trace/synthetic/KernelParameter.h"

#include <utility>

namespace concorde::synthetic {

KernelParameter KernelParameter::number(std::string key, std::string description,
                                        std::uint64_t defaultValue, std::uint64_t min,
                                        std::uint64_t max) {
    KernelParameter p;
    p.key = std::move(key);
    p.description = std::move(description);
    p.defaultNumber = defaultValue;
    p.min = min;
    p.max = max;
    return p;
}

KernelParameter KernelParameter::choice(std::string key, std::string description,
                                        std::string defaultValue,
                                        std::vector<std::string> choices) {
    KernelParameter p;
    p.key = std::move(key);
    p.description = std::move(description);
    p.defaultChoice = std::move(defaultValue);
    p.choices = std::move(choices);
    return p;
}

std::string KernelParameter::defaultText() const {
    return isChoice() ? defaultChoice : std::to_string(defaultNumber);
}

std::string KernelParameter::allowedText() const {
    if (!isChoice())
        return std::to_string(min) + "–" + std::to_string(max);
    std::string text;
    for (const auto& c : choices)
        text += (text.empty() ? "" : ", ") + c;
    return text;
}

} // namespace concorde::synthetic
