#include "CommandLine.h"

#include "common/ConcordeError.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <sstream>

namespace concorde::cli {
namespace {

/// Width of the help text, and at most how wide the column of option names gets (a longer
/// name puts its description on the next line).
constexpr std::size_t kHelpWidth = 100;
constexpr std::size_t kMaxNameWidth = 24;

/// Columns `text` takes on a terminal: help texts hold UTF-8 ("§", "–").
std::size_t displayWidth(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

/// `text` broken at spaces into lines of at most `width` columns.
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
    std::vector<std::string> lines;
    std::istringstream words(text);
    std::string line;
    for (std::string word; words >> word;) {
        if (!line.empty() && displayWidth(line) + 1 + displayWidth(word) > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty())
        lines.push_back(line);
    return lines;
}

/// CLI11 appends the descriptions of an option's checks to its type name ("W:16–1048576"):
/// the part before the first ':' is the value's name, the rest what the checks allow.
std::vector<std::string> typeNameParts(const CLI::Option& option) {
    std::vector<std::string> parts;
    std::istringstream text(option.get_type_name());
    for (std::string part; std::getline(text, part, ':');)
        parts.push_back(part);
    if (parts.empty())
        parts.emplace_back();
    return parts;
}

/// Takes several values after one occurrence ("--traces A B C", or a positional TRACES...).
bool takesSeveral(const CLI::Option& option) {
    return option.get_expected_max() > 1 &&
           (option.get_positional() || option.get_allow_extra_args());
}

/// Takes one value an occurrence and may be given again ("--set a=1 --set b=2").
bool repeatable(const CLI::Option& option) {
    return option.get_expected_max() > 1 && !takesSeveral(option);
}

/// "--window W", "TRACES...": how the usage line shows an option.
std::string synopsis(const CLI::Option& option) {
    std::string text = option.get_name(option.get_positional());
    if (!option.get_positional() && option.get_type_size() != 0)
        text += " " + typeNameParts(option).front();
    return text + (takesSeveral(option) ? "..." : "");
}

/// "-o, --output FILE": every name of an option, then its value.
std::string namesAndValue(const CLI::Option& option) {
    if (option.get_positional())
        return synopsis(option);
    std::string names;
    for (const auto& name : option.get_snames())
        names += (names.empty() ? "-" : ", -") + name;
    for (const auto& name : option.get_lnames())
        names += (names.empty() ? "--" : ", --") + name;
    if (option.get_type_size() != 0)
        names += " " + typeNameParts(option).front() + (takesSeveral(option) ? "..." : "");
    return names;
}

/// The help text of an option with what its declaration adds: whether it is required, its
/// default, what its checks allow, and how it combines with other options.
std::string describe(const CLI::Option& option) {
    std::vector<std::string> notes;
    if (option.get_required() && !option.get_positional())
        notes.push_back("required");
    if (!option.get_default_str().empty())
        notes.push_back("default: " + option.get_default_str());
    const auto parts = typeNameParts(option);
    notes.insert(notes.end(), parts.begin() + 1, parts.end());
    if (repeatable(option))
        notes.push_back("repeatable");
    const auto names = [](const std::set<CLI::Option*>& options) {
        std::vector<std::string> list;
        for (const CLI::Option* other : options)
            list.push_back(other->get_name());
        std::sort(list.begin(), list.end()); // the set is ordered by address
        std::string text;
        for (const auto& name : list)
            text += (text.empty() ? "" : ", ") + name;
        return text;
    };
    if (!option.get_needs().empty())
        notes.push_back("needs " + names(option.get_needs()));
    if (!option.get_excludes().empty())
        notes.push_back("not with " + names(option.get_excludes()));
    std::string text = option.get_description();
    if (notes.empty())
        return text;
    // A help text that ends in parentheses takes the notes inside them: "(a; b)", not "(a) (b)".
    const bool closed = !text.empty() && text.back() == ')';
    if (closed)
        text.pop_back();
    for (std::size_t i = 0; i < notes.size(); ++i)
        text += (i == 0 && !closed ? " (" : "; ") + notes[i];
    return text + ")";
}

/// "Options:" and its entries, names in a column and help texts wrapped beside them.
std::string section(const std::string& title, const std::vector<const CLI::Option*>& options) {
    if (options.empty())
        return {};
    std::size_t nameWidth = 0;
    for (const CLI::Option* option : options)
        nameWidth = std::max(nameWidth, displayWidth(namesAndValue(*option)));
    nameWidth = std::min(nameWidth, kMaxNameWidth);
    const std::string indent(2 + nameWidth + 2, ' ');
    std::string text = "\n" + title + ":\n";
    for (const CLI::Option* option : options) {
        const std::string names = namesAndValue(*option);
        text += "  " + names;
        const std::size_t width = displayWidth(names);
        text += width > nameWidth ? "\n" + indent : std::string(nameWidth + 2 - width, ' ');
        const auto lines = wrap(describe(*option), kHelpWidth - indent.size());
        for (std::size_t i = 0; i < lines.size(); ++i)
            text += (i == 0 ? "" : indent) + lines[i] + "\n";
        if (lines.empty())
            text += "\n";
    }
    return text;
}

/// Lays out a command's help from its CLI11 declarations (CLI11's own layout lists type names
/// and defaults in a form meant for programmers).
class HelpFormatter : public CLI::Formatter {
public:
    explicit HelpFormatter(std::string afterDoubleDash)
        : afterDoubleDash_(std::move(afterDoubleDash)) {}

    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode /*mode*/) const override {
        std::vector<const CLI::Option*> positionals;
        std::vector<const CLI::Option*> options;
        std::string usage = "Usage: " + name;
        for (const CLI::Option* option : app->get_options()) {
            (option->get_positional() ? positionals : options).push_back(option);
            if (!option->get_positional() && option->get_required())
                usage += " " + synopsis(*option);
        }
        usage += " [OPTIONS]";
        for (const CLI::Option* option : positionals)
            usage +=
                " " + (option->get_required() ? synopsis(*option) : "[" + synopsis(*option) + "]");
        if (!afterDoubleDash_.empty())
            usage += " -- " + afterDoubleDash_;
        std::string text = usage + "\n\n" + app->get_description() +
                           section("Arguments", positionals) + section("Options", options);
        if (!app->get_footer().empty())
            text += "\n" + app->get_footer();
        return text;
    }

private:
    std::string afterDoubleDash_;
};

/// The command's options on a CLI11 app, with the help layout above.
std::unique_ptr<CLI::App> makeApp(Command& command) {
    auto app = std::make_unique<CLI::App>(command.description(), "concorde " + command.name());
    app->footer(command.epilogue());
    app->formatter(std::make_shared<HelpFormatter>(command.wordsAfterDoubleDash()));
    // Unknown options and surplus arguments are left over rather than thrown, so that
    // parseArguments can name them in its own words.
    app->allow_extras();
    command.declare(*app);
    app->set_help_flag("-h,--help", "print this help"); // again, to list it last
    return app;
}

} // namespace

std::string commandHelp(Command& command) {
    return makeApp(command)->help();
}

bool asksForHelp(const std::vector<std::string>& args) {
    for (const auto& arg : args) {
        if (arg == "--")
            return false;
        if (arg == "--help" || arg == "-h")
            return true;
    }
    return false;
}

void parseArguments(Command& command, const std::vector<std::string>& args) {
    std::vector<std::string> words = args;
    if (!command.wordsAfterDoubleDash().empty()) {
        // Split off here, because CLI11 rewrites some values ("[a,b]" becomes two).
        const auto dash = std::find(words.begin(), words.end(), "--");
        if (dash != words.end()) {
            command.takeWordsAfterDoubleDash({dash + 1, words.end()});
            words.erase(dash, words.end());
        }
    }
    const auto app = makeApp(command);
    std::reverse(words.begin(), words.end()); // CLI11 takes the arguments last first
    try {
        app->parse(words);
    } catch (const CLI::ParseError& e) {
        throw usageError(e.what());
    }
    for (const std::string& extra : app->remaining()) {
        if (extra == "--")
            continue; // it only ended the options; what follows went to the positionals
        if (extra.size() > 1 && extra.front() == '-')
            throw usageError("unknown option '" + extra + "'");
        const std::string dash = command.wordsAfterDoubleDash();
        throw usageError("unexpected argument '" + extra + "'" +
                         (dash.empty() ? "" : " (" + dash + " go after '--')"));
    }
}

} // namespace concorde::cli
