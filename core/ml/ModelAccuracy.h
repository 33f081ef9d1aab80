#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace concorde {

/// The measured accuracy of a CPI model, read from what training and `concorde evaluate
/// --record` store in CpiModel::metrics (docs/design.md §13), in a form ready to show:
///
/// - "accuracy.test": samples of regions the model never trained on (unseen regions),
/// - "accuracy.held_out": samples of programs kept out of training (unseen programs),
/// - "accuracy.labels": the database's own reference-simulator labels (evaluate --record),
/// - "accuracy.never_seen": labels of programs no step of building the model used, not even to
///   choose between models (evaluate --record-never-seen), per preset beside the min-of-bounds
///   CPI's error: how the model does on a user's own program, and where plain physics does
///   better.
///
/// Reading never throws: a missing or malformed part is simply absent, so an old or partial
/// model still opens and the GUI says what it does not know.
struct ModelAccuracy {
    /// One accuracy figure: mean relative CPI error, fraction of samples over 10 % error.
    struct Figure {
        double meanRelError = 0;
        double fracOver10Pct = 0;
        std::uint64_t samples = 0;
    };
    /// One preset's figure on the never-seen programs and the min-of-bounds CPI's error there
    /// (negative when not recorded).
    struct PresetFigure {
        Figure model;
        double minOfBoundsError = -1;
    };
    /// One program's figure and whether the program was kept out of training.
    struct ProgramFigure {
        Figure figure;
        bool heldOut = false; ///< from the held-out split: the model never saw the program
    };

    std::optional<Figure> unseenRegions;  ///< accuracy.test
    std::optional<Figure> unseenPrograms; ///< accuracy.held_out
    std::optional<Figure> labels;         ///< accuracy.labels
    std::optional<Figure> neverSeen;      ///< accuracy.never_seen
    /// accuracy.never_seen's programs and its labels per preset ("big" → figure).
    std::set<std::string> neverSeenPrograms;
    std::map<std::string, PresetFigure> neverSeenPerPreset;
    /// Fraction of unseen-region samples inside an ensemble's band (accuracy.test.band_coverage;
    /// 0 when unknown), and the same on held-out programs.
    double bandCoverage = 0;
    double heldOutBandCoverage = 0;
    std::map<std::string, ProgramFigure> perProgram;
    std::set<std::string> trainPrograms;   ///< programs the model trained on (may be unknown)
    std::set<std::string> heldOutPrograms; ///< programs kept out of training

    static ModelAccuracy fromMetrics(const nlohmann::json& metrics);

    /// True when at least one figure is known.
    bool known() const { return unseenRegions || unseenPrograms || labels || neverSeen; }
    /// True when `program` is known to have been kept out of training.
    bool isHeldOut(const std::string& program) const;
    /// One line for a header, e.g. "model error 4.0 % on unseen regions, 13.5 % on held-out
    /// programs, 4.7 % on 9 never-seen programs"; "model accuracy not recorded" when nothing is
    /// known. Held-out programs were kept out of training but measured while the model was
    /// made; never-seen ones were not used at all.
    std::string summary() const;
    /// The selected program's figure in words, e.g. "gcc: 7.7 % (unseen regions)" or "bzip2:
    /// 13.1 %, never trained on"; empty when unknown.
    std::string programSummary(const std::string& program) const;
    /// One sentence per preset on the never-seen programs, e.g. "big: 4.2 % (min of bounds 4.4
    /// %)"; empty when not recorded.
    std::vector<std::string> neverSeenPresetLines() const;
    /// "4.0 %": a relative error as a percentage with one decimal.
    static std::string percent(double relativeError);
};

} // namespace concorde
