#pragma once

#include "params/ParameterSpace.h"

#include <QString>
#include <cstdint>

namespace concorde::ui {

/// How the charts write numbers in labels, legends and hover text (one place, so the views and
/// their tests agree).
class ChartFormat {
public:
    /// An IPC value: two decimals ("2.31"), "≥ 64" style values keep two decimals too.
    static QString ipc(double value);
    /// A fraction as a percentage with one decimal: 0.6242 → "62.4 %".
    static QString percent(double fraction);
    /// A CPI: three decimals ("1.234").
    static QString cpi(double value);
    /// A signed CPI change: "+0.123", "−0.045" (with a true minus sign).
    static QString cpiChange(double value);
    /// An instruction count in engineering form: "950", "12.5 k", "152.8 M", "1.20 G".
    static QString instructions(std::uint64_t count);
    /// A parameter value as its spec writes it, with its unit ("256", "64 kB", "5.0 %").
    static QString parameterValue(ParamId id, double value);
};

} // namespace concorde::ui
