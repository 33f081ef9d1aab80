#pragma once

#include "params/ParameterSpace.h"

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace concorde {

enum class BranchPredictorKind { Simple = 0, Tage = 1 };

/// One point in the parameter space: a value for each of the twenty parameters.
/// A CoreConfig is always valid: every setter checks the value against the parameter's range and
/// kind and throws a bad-input ConcordeError naming the key and the allowed range.
class CoreConfig {
public:
    /// Every parameter at its ParameterSpec::defaultValue.
    CoreConfig();

    double value(ParamId id) const { return values_[index(id)]; }
    int intValue(ParamId id) const { return static_cast<int>(values_[index(id)]); }
    /// Sets one parameter after validating it.
    void set(ParamId id, double value);
    /// Parses `text` as the parameter's value ("128", "2.5", "tage") and sets it.
    void set(std::string_view key, std::string_view text);
    /// Applies one "key=value" assignment, as given to --set on the command line.
    void applyAssignment(std::string_view assignment);

    /// Throws if `value` is not acceptable for `id` (range, integrality, choice index).
    static void validate(ParamId id, double value);
    /// Parses a user-written value for `id` without setting it.
    static double parseValue(ParamId id, std::string_view text);

    /// Parameters as a JSON object keyed by parameter key (choices written by name).
    nlohmann::json toJson() const;
    /// Reads a JSON object of key → value. Every key must be known; with `requireAll`, every
    /// parameter must be present, otherwise missing ones keep their default. `context` names the
    /// source in errors (e.g. a file path).
    static CoreConfig fromJson(const nlohmann::json& object, bool requireAll,
                               const std::string& context);

    /// "rob=128 commit_width=4 ..." in canonical order.
    std::string toAssignments() const;

    // Typed accessors for the simulator and models.
    int rob() const { return intValue(ParamId::Rob); }
    int commitWidth() const { return intValue(ParamId::CommitWidth); }
    int loadQueue() const { return intValue(ParamId::LoadQueue); }
    int storeQueue() const { return intValue(ParamId::StoreQueue); }
    int aluIssue() const { return intValue(ParamId::AluIssue); }
    int fpIssue() const { return intValue(ParamId::FpIssue); }
    int lsIssue() const { return intValue(ParamId::LsIssue); }
    int lsPipes() const { return intValue(ParamId::LsPipes); }
    int loadPipes() const { return intValue(ParamId::LoadPipes); }
    int fetchWidth() const { return intValue(ParamId::FetchWidth); }
    int decodeWidth() const { return intValue(ParamId::DecodeWidth); }
    int renameWidth() const { return intValue(ParamId::RenameWidth); }
    int fetchBuffers() const { return intValue(ParamId::FetchBuffers); }
    int icacheFills() const { return intValue(ParamId::IcacheFills); }
    BranchPredictorKind branchPredictor() const {
        return static_cast<BranchPredictorKind>(intValue(ParamId::BranchPredictor));
    }
    double bpMissPct() const { return value(ParamId::BpMissPct); }
    int l1dKb() const { return intValue(ParamId::L1dKb); }
    int l1iKb() const { return intValue(ParamId::L1iKb); }
    int l2Kb() const { return intValue(ParamId::L2Kb); }
    int prefetchDegree() const { return intValue(ParamId::PrefetchDegree); }

    bool operator==(const CoreConfig&) const = default;

private:
    std::array<double, kParamCount> values_{};
};

} // namespace concorde
