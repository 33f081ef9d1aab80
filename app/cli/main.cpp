// concorde: the command-line half of Concorde Explorer. Dispatches to one Command per
// subcommand and maps errors to exit codes (0 ok, 1 runtime failure, 2 usage or bad input,
// 130 cancelled).
#include "CommandLine.h"
#include "CommandTable.h"
#include "common/AllocatorPolicy.h"
#include "common/ConcordeError.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

using concorde::cli::Command;

void printOverview(const std::vector<std::unique_ptr<Command>>& commands, std::ostream& out) {
    out << "concorde — trace programs, simulate cores and build CPI models for Concorde "
           "Explorer\n\n"
           "Usage: concorde SUBCOMMAND [OPTIONS...]\n"
           "       concorde help SUBCOMMAND\n\n"
           "Subcommands:\n";
    for (const auto& command : commands) {
        std::string name = command->name();
        name.resize(std::max<std::size_t>(name.size() + 2, 16), ' ');
        out << "  " << name << command->summary() << "\n";
    }
    out << "\nExit codes: 0 success, 1 runtime failure, 2 usage error or bad input, 130 cancelled\n"
           "(Ctrl-C or SIGTERM stopped a long job).\n";
}

Command* findCommand(const std::vector<std::unique_ptr<Command>>& commands,
                     const std::string& name) {
    for (const auto& command : commands)
        if (command->name() == name)
            return command.get();
    return nullptr;
}

} // namespace

int main(int argc, char** argv) {
    concorde::retainFreedMemory();
    const auto commands = concorde::cli::makeAllCommands();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        printOverview(commands, std::cerr);
        return 2;
    }
    const std::string first = args.front();
    if (first == "--help" || first == "-h") {
        printOverview(commands, std::cout);
        return 0;
    }
    if (first == "help") {
        if (args.size() == 1) {
            printOverview(commands, std::cout);
            return 0;
        }
        if (auto* command = findCommand(commands, args[1])) {
            std::cout << concorde::cli::commandHelp(*command);
            return 0;
        }
        std::cerr << "concorde: unknown subcommand '" << args[1] << "' (see concorde --help)\n";
        return 2;
    }
    auto* command = findCommand(commands, first);
    if (!command) {
        std::cerr << "concorde: unknown subcommand '" << first << "' (see concorde --help)\n";
        return 2;
    }
    args.erase(args.begin());
    if (concorde::cli::asksForHelp(args)) {
        std::cout << concorde::cli::commandHelp(*command);
        return 0;
    }
    try {
        concorde::cli::parseArguments(*command, args);
        return command->run(std::cout, std::cerr);
    } catch (const concorde::ConcordeError& e) {
        std::cerr << "concorde " << first << ": error: " << e.what() << "\n";
        if (e.kind() == concorde::ErrorKind::Usage)
            std::cerr << "(see concorde help " << first << ")\n";
        return e.exitCode();
    } catch (const std::exception& e) {
        std::cerr << "concorde " << first << ": internal error: " << e.what() << "\n";
        return 1;
    }
}
