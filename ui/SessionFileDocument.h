#pragma once

#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <optional>

namespace concorde::ui {

/// The settings a session file holds (see SessionFile), read and checked from its JSON without
/// touching a Session. Needs only Qt Core and core/params, so that tests/fuzz can build and
/// fuzz it without the GUI.
struct SessionFileDocument {
    CoreConfig config;   ///< the target: the current one with the file's parameters applied
    CoreConfig baseline; ///< the same for the baseline
    std::optional<QString> scheme; ///< theme.scheme as written (SessionFile checks the name)
    std::optional<bool> projector;
    QString program, view, database; ///< empty when absent
    std::optional<ParamId> sweptParameter;

    /// Checks the whole document: format, version, the types of every field, parameter values
    /// and keys. `config` and `baseline` are the configurations the file's parameters apply to.
    /// nullopt with the reason (naming `context` and the field) in `message` when it is unusable;
    /// never throws for any JSON value.
    static std::optional<SessionFileDocument> read(const nlohmann::json& document,
                                                   const QString& context, const CoreConfig& config,
                                                   const CoreConfig& baseline,
                                                   QString* message = nullptr);
};

} // namespace concorde::ui
