#include "attribution/CallableValueFunction.h"

#include "common/ConcordeError.h"

namespace concorde {

CallableValueFunction::CallableValueFunction(Callable callable) : callable_(std::move(callable)) {
    if (!callable_)
        throw usageError("a value function needs a callable");
}

void CallableValueFunction::evaluate(std::span<const CoreConfig> configs,
                                     std::span<double> out) const {
    for (std::size_t i = 0; i < configs.size(); ++i)
        out[i] = callable_(configs[i]);
}

} // namespace concorde
