#include "params/NearestValue.h"

#include <cmath>

namespace concorde {

std::size_t nearestValueIndex(std::span<const double> values, double value) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (std::fabs(values[i] - value) < std::fabs(values[best] - value))
            best = i;
    return best;
}

} // namespace concorde
