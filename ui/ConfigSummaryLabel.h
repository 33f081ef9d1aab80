#pragma once

#include "params/Preset.h"

#include <QLabel>
#include <vector>

namespace concorde {
class PresetLibrary;
}

namespace concorde::ui {

class Session;

/// One line for the status bar: the target configuration in brief (named after the preset it
/// equals, if any) and how far the baseline is from it. The tooltip lists both configurations in
/// full as key=value assignments, the form the command line accepts.
class ConfigSummaryLabel : public QLabel {
    Q_OBJECT

public:
    ConfigSummaryLabel(Session& session, const PresetLibrary& presets, QWidget* parent = nullptr);

    /// The key parameters of `config` in a compact form, e.g.
    /// "ROB 128 · LQ/SQ 48/32 · F/D/R/C 4/4/4/4 · issue 3/2/2 · BP tage · L1d/L1i/L2 64/64/1024
    /// kB".
    static QString briefSummary(const CoreConfig& config);

private:
    void refresh();
    /// The name of the first preset equal to `config`, or "custom".
    QString nameOf(const CoreConfig& config) const;

    Session& session_;
    std::vector<Preset> presets_; // a copy, for the same reason as in PresetMenu
};

} // namespace concorde::ui
