#include "features/SeriesKey.h"

#include "bounds/GridBounds.h"
#include "params/ParameterSpace.h"

namespace concorde {

SeriesKey SeriesKey::of(const GridSeries& series) {
    return {series.name, series.memoryDependent, series.memory, series.settings};
}

std::string SeriesKey::settingsText(const std::vector<std::pair<ParamId, double>>& settings) {
    std::string text;
    for (const auto& [id, value] : settings) {
        const auto& spec = ParameterSpace::spec(id);
        text += (text.empty() ? "" : ",") + spec.key + "=" + spec.formatValue(value);
    }
    return text;
}

std::string SeriesKey::text() const {
    return name + "|" + (memoryDependent ? memory.toString() : std::string("-")) + "|" +
           settingsText(settings);
}

} // namespace concorde
