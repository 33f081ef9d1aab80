#pragma once

#include "Command.h"
#include "TraceWorkload.h"
#include "bounds/AnalysisRevision.h"

namespace concorde::cli {

/// `concorde bounds TRACE [--preset P] [--set k=v ...] [--region I] [--window W] [--json|--csv]`
class BoundsCommand : public Command {
public:
    std::string name() const override { return "bounds"; }
    std::string summary() const override { return "per-window analytical throughput bounds"; }
    std::string description() const override;
    void declare(CLI::App& app) override;
    int run(std::ostream& out, std::ostream& err) override;

private:
    TraceWorkload workload_;
    AnalysisRevision analysis_ = AnalysisRevision::current();
    bool json_ = false;
    bool csv_ = false;
};

} // namespace concorde::cli
