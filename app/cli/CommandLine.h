#pragma once

#include "Command.h"

#include <string>
#include <vector>

namespace concorde::cli {

/// `concorde help NAME` and `concorde NAME --help`: the usage line, description, arguments and
/// options (each with its help text, default, range and constraints) and epilogue, generated
/// from the command's declarations.
std::string commandHelp(Command& command);

/// Whether `args` ask for the command's help: "-h" or "--help" anywhere before "--". Checked
/// before parsing, so that it works next to an incomplete or malformed option too.
bool asksForHelp(const std::vector<std::string>& args);

/// Parses `args` into the values `command` declared; the words after the first "--" go to
/// takeWordsAfterDoubleDash() untouched when the command takes them. Throws a usage error that
/// names the option or argument at fault: unknown option, missing or malformed value, number out
/// of range, option given twice, required option missing, options that exclude each other.
void parseArguments(Command& command, const std::vector<std::string>& args);

} // namespace concorde::cli
