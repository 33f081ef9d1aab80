#pragma once

#include "ml/CpiModel.h"

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace concorde::cli {

/// `--model-from OTHER.sqlite` and `--model NAME`, shared by predict, evaluate and shapley:
/// which database the CPI model is read from (by default the one being predicted) and which of
/// its models (by default the newest).
struct ModelOption {
    std::optional<std::string> modelFrom;
    std::optional<std::string> name;

    /// Declares --model-from and --model on `app`.
    void addTo(CLI::App& app);
    /// Loads the model; `database` is used unless --model-from was given. A database without
    /// the model is a bad-input error that says how to train one.
    CpiModel load(const std::string& database) const;
};

} // namespace concorde::cli
