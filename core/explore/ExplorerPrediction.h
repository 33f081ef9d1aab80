#pragma once

#include "explore/ConfigChecker.h"
#include "ml/BandCalibration.h"
#include "ml/ModelAccuracy.h"
#include "params/CoreConfig.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

/// Everything the explorer's live views show for one (target, baseline, program) request, computed
/// in one pass by ExplorerModel::predict(). A value type: the GUI shares it read-only between
/// views (std::shared_ptr<const ExplorerPrediction>), so a snapshot never changes under a view.
struct ExplorerPrediction {
    static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

    /// One region of the selected program.
    struct Region {
        std::uint32_t index = 0;        ///< position in the program's region table
        std::uint64_t instructions = 0; ///< measured instructions (the region's weight)
        std::optional<std::int64_t> phase;
        double targetCpi = 0;
        double baselineCpi = 0;
    };

    CoreConfig target;         ///< as requested
    CoreConfig baseline;       ///< as requested
    CoreConfig targetOnGrid;   ///< what was predicted (ConfigChecker::snap)
    CoreConfig baselineOnGrid; ///< what was predicted for the baseline

    std::vector<std::string> programs; ///< database order
    std::vector<double> targetCpi;     ///< per program, programs' order
    std::vector<double> baselineCpi;   ///< per program
    /// Per program, the ends of the model's band at the target and at the baseline
    /// (instruction-weighted means of the regions' band ends, as DatabasePredictor::programBand;
    /// equal to the CPI for a single model).
    std::vector<double> targetCpiLow, targetCpiHigh;
    std::vector<double> baselineCpiLow, baselineCpiHigh;

    std::string program;             ///< the selected program ("" when none)
    std::size_t programIndex = npos; ///< its index in programs
    std::vector<Region> regions;     ///< the selected program's regions, in execution order

    /// The selected program's band at the target (an ensemble model's; both equal the CPI for
    /// a single model, NaN without a selection).
    double selectedCpiLow = std::numeric_limits<double>::quiet_NaN();
    double selectedCpiHigh = std::numeric_limits<double>::quiet_NaN();
    bool banded = false; ///< the model carries a calibrated band
    /// How far the selected program lies from the training data (above 1: outside; 0 for
    /// models without the statistics).
    double selectedOodScore = 0;

    /// Damaged data (ExplorerModel::damaged()): per program (programs' order), what was
    /// skipped, "" when nothing ("1 of 4 regions damaged and skipped: region 4, series group
    /// rob: ..."); its CPI is from its other regions.
    std::vector<std::string> programDamage;
    /// Programs every region of which is damaged (absent from programs): name and why.
    std::vector<std::pair<std::string, std::string>> lostPrograms;
    /// The whole database's damage in one line (RegionCatalog::damageSummary); "" when intact.
    std::string damageSummary;

    std::vector<ParameterWarning> warnings;         ///< about the target
    std::vector<ParameterWarning> baselineWarnings; ///< about the baseline
    ModelAccuracy accuracy;
    std::string modelName;
    std::uint64_t sequence = 0; ///< request number, increasing (set by the caller)
    /// Every region's baseline CPI and band, in ExplorerModel::predictor().regions() order,
    /// shared between snapshots: the next prediction with the same baseline reuses it, so
    /// dragging a target slider evaluates the target only.
    std::shared_ptr<const std::vector<CpiBand>> baselineRegionBands;

    bool hasProgram() const { return programIndex != npos; }
    /// The selected program's CPI and baseline CPI (NaN without a selection).
    double selectedCpi() const { return hasProgram() ? targetCpi[programIndex] : nan(); }
    double selectedBaselineCpi() const { return hasProgram() ? baselineCpi[programIndex] : nan(); }
    /// Relative change of the selected program's CPI against the baseline: target / baseline - 1
    /// (negative: the target is faster).
    double selectedDelta() const { return selectedCpi() / selectedBaselineCpi() - 1.0; }

private:
    static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
};

} // namespace concorde
