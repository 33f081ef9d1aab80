#include "attribution/ValueFunction.h"

namespace concorde {

double ValueFunction::operator()(const CoreConfig& config) const {
    double value = 0;
    evaluate(std::span<const CoreConfig>(&config, 1), std::span<double>(&value, 1));
    return value;
}

} // namespace concorde
