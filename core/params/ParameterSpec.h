#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace concorde {

/// The twenty microarchitectural parameters, in the canonical order used by every vector,
/// table column and feature block in the project.
enum class ParamId : std::size_t {
    Rob,
    CommitWidth,
    LoadQueue,
    StoreQueue,
    AluIssue,
    FpIssue,
    LsIssue,
    LsPipes,
    LoadPipes,
    FetchWidth,
    DecodeWidth,
    RenameWidth,
    FetchBuffers,
    IcacheFills,
    BranchPredictor,
    BpMissPct,
    L1dKb,
    L1iKb,
    L2Kb,
    PrefetchDegree,
};

inline constexpr std::size_t kParamCount = 20;

/// Where a parameter sits in the core; the GUI groups its sliders by this.
enum class ParamGroup { FrontEnd, BackEnd, Memory };

/// Integer parameters take whole numbers, Real ones any number in range, Choice ones an index
/// into `choices` (written by name in presets and on the command line).
enum class ParamKind { Integer, Real, Choice };

/// Everything known about one parameter: its key, what it means, its unit, the range the reference
/// simulator accepts and the grid the default database precomputes.
struct ParameterSpec {
    ParamId id;
    std::string key;     ///< name used everywhere: CLI --set, JSON presets, database columns
    std::string label;   ///< short human label for sliders
    std::string meaning; ///< one-line description
    std::string unit;    ///< e.g. "entries", "instr/cycle", "kB", "%" (empty for choices)
    ParamGroup group;
    ParamKind kind;
    double min;
    double max;
    std::vector<double> grid;         ///< sorted ascending, within [min, max]
    double defaultValue;              ///< value of a default-constructed CoreConfig
    std::vector<std::string> choices; ///< names of the values 0..n-1 for Choice parameters

    /// Formats a value the way a user writes it: "128", "2.5", "tage".
    std::string formatValue(double value) const;
    /// Formats a value with its unit for display: "128 entries", "64 kB", "tage".
    std::string formatWithUnit(double value) const;
    /// "8–1024" or "simple, tage": the accepted range as a user would read it in an error.
    std::string describeRange() const;
    /// Index of the grid value closest to `value` (ties go to the lower value).
    std::size_t nearestGridIndex(double value) const;
};

std::string_view groupName(ParamGroup group);

} // namespace concorde
