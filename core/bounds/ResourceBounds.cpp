#include "bounds/ResourceBounds.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace concorde {

WindowSeries ResourceBounds::minimum() const {
    WindowSeries result(windows(), WindowBounds::kMaxIpc);
    for (const auto& s : series)
        for (std::size_t k = 0; k < result.size(); ++k)
            result[k] = std::min(result[k], s[k]);
    return result;
}

double ResourceBounds::meanBound(std::size_t resource) const {
    const WindowSeries& s = series[resource];
    double time = 0;
    double count = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
        const double n =
            std::min<double>(windowSize, double(instructions) - double(k) * windowSize);
        time += n / s[k];
        count += n;
    }
    return time > 0 ? count / time : WindowBounds::kMaxIpc;
}

std::vector<double> ResourceBounds::bindingShare() const {
    std::vector<double> share(resources.size(), 0.0);
    for (auto b : binding)
        share[b] += 1.0;
    for (auto& s : share)
        s = binding.empty() ? 0.0 : s / double(binding.size());
    return share;
}

nlohmann::json ResourceBounds::toJson(bool withSeries) const {
    nlohmann::json summary = nlohmann::json::array();
    const auto share = bindingShare();
    for (std::size_t r = 0; r < resources.size(); ++r)
        summary.push_back({{"resource", resources[r]},
                           {"mean_bound", meanBound(r)},
                           {"binding_fraction", share[r]}});
    nlohmann::json json = {{"window_size", windowSize},
                           {"instructions", instructions},
                           {"windows", windows()},
                           {"summary", summary},
                           {"scalars", scalars}};
    const WindowSeries low = minimum();
    double time = 0;
    for (std::size_t k = 0; k < low.size(); ++k)
        time +=
            std::min<double>(windowSize, double(instructions) - double(k) * windowSize) / low[k];
    json["min_of_bounds_ipc"] = time > 0 ? double(instructions) / time : 0.0;
    if (withSeries) {
        for (std::size_t r = 0; r < resources.size(); ++r)
            json["series"][resources[r]] = series[r];
        for (const auto& [name, values] : auxiliary)
            json["auxiliary"][name] = values;
        nlohmann::json names = nlohmann::json::array();
        for (auto b : binding)
            names.push_back(resources[b]);
        json["binding"] = names;
    }
    return json;
}

std::string ResourceBounds::toCsv() const {
    std::ostringstream out;
    out << "window,binding";
    for (const auto& r : resources)
        out << ',' << r;
    for (const auto& [name, values] : auxiliary)
        out << ',' << name;
    out << '\n';
    for (std::size_t k = 0; k < windows(); ++k) {
        out << k << ',' << resources[binding[k]];
        for (const auto& s : series)
            out << ',' << s[k];
        for (const auto& [name, values] : auxiliary)
            out << ',' << values[k];
        out << '\n';
    }
    return out.str();
}

} // namespace concorde
