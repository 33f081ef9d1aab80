#pragma once

#include "trace/synthetic/MicrobenchKernel.h"

#include <memory>
#include <string>
#include <vector>

namespace concorde::synthetic {

/// The microbenchmark kernels `concorde microbench` and `concorde diagnose` know, in listing
/// order. A default-constructed catalog holds every built-in kernel; add() extends it.
class KernelCatalog {
public:
    /// All built-in kernels.
    KernelCatalog();

    void add(std::unique_ptr<MicrobenchKernel> kernel);

    const std::vector<std::unique_ptr<MicrobenchKernel>>& kernels() const { return kernels_; }
    /// The kernel called `name`, or nullptr.
    const MicrobenchKernel* find(const std::string& name) const;
    /// Like find() but throws a usage ConcordeError naming `name` and listing the valid names.
    const MicrobenchKernel& require(const std::string& name) const;
    /// Kernel names joined by ", ".
    std::string nameList() const;

private:
    std::vector<std::unique_ptr<MicrobenchKernel>> kernels_;
};

} // namespace concorde::synthetic
