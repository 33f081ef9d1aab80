#pragma once

#include "attribution/ValueFunction.h"

#include <functional>

namespace concorde {

/// A ValueFunction from a plain callable, evaluated one configuration at a time. For tests,
/// analytical stand-ins and anything without a batched implementation. The callable must be
/// safe to call concurrently and deterministic (see ValueFunction).
class CallableValueFunction : public ValueFunction {
public:
    using Callable = std::function<double(const CoreConfig&)>;

    /// Throws a usage error for an empty callable.
    explicit CallableValueFunction(Callable callable);

    void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const override;

private:
    Callable callable_;
};

} // namespace concorde
