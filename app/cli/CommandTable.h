#pragma once

#include "Command.h"

#include <memory>
#include <vector>

namespace concorde::cli {

/// Every subcommand of `concorde`, in the order `concorde --help` lists them.
std::vector<std::unique_ptr<Command>> makeAllCommands();

} // namespace concorde::cli
