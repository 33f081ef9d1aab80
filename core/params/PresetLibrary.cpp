#include "params/PresetLibrary.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace concorde {
namespace {

std::filesystem::path executableDirectory() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::current_path() : exe.parent_path();
}

} // namespace

std::filesystem::path PresetLibrary::shippedPresetDirectory() {
    if (const char* env = std::getenv("CONCORDE_PRESETS_DIR"); env && *env)
        return env;
    // Beside bin/ first: the build tree and any install prefix, even one off the XDG path.
    const auto besideBinary = executableDirectory().parent_path() / "share" / "concorde" / "presets";
    std::error_code ec;
    if (std::filesystem::is_directory(besideBinary, ec))
        return besideBinary;
    // Then the XDG data directories, where a package puts them (/usr/share by default), so a
    // copied or symlinked binary still finds the installed presets.
    const char* xdg = std::getenv("XDG_DATA_DIRS");
    const std::string dirs = xdg && *xdg ? xdg : "/usr/local/share:/usr/share";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        if (end > start) {
            const auto candidate = std::filesystem::path(dirs.substr(start, end - start)) /
                                   "concorde" / "presets";
            if (std::filesystem::is_directory(candidate, ec))
                return candidate;
        }
        start = end + 1;
    }
    return besideBinary; // named in loadDefault()'s error
}

std::filesystem::path PresetLibrary::userPresetDirectory() {
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".config";
    else
        return {};
    return base / "concorde" / "presets";
}

PresetLibrary PresetLibrary::loadFrom(const std::vector<std::filesystem::path>& directories) {
    PresetLibrary library;
    for (const auto& directory : directories) {
        std::error_code ec;
        if (directory.empty() || !std::filesystem::is_directory(directory, ec))
            continue;
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(directory))
            if (entry.path().extension() == ".json")
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            Preset preset;
            try {
                preset = Preset::load(file);
            } catch (const ConcordeError& e) {
                library.rejected_.push_back({file, e.what()});
                continue;
            }
            auto existing = std::find_if(library.presets_.begin(), library.presets_.end(),
                                         [&](const Preset& p) { return p.name == preset.name; });
            if (existing != library.presets_.end())
                *existing = std::move(preset);
            else
                library.presets_.push_back(std::move(preset));
        }
    }
    return library;
}

PresetLibrary PresetLibrary::loadDefault() {
    const auto shipped = shippedPresetDirectory();
    std::error_code ec;
    if (!std::filesystem::is_directory(shipped, ec))
        throw runtimeFailure("shipped presets not found at " + shipped.string() +
                             " (set CONCORDE_PRESETS_DIR to the resources/presets folder)");
    return loadFrom({shipped, userPresetDirectory()});
}

const Preset* PresetLibrary::find(const std::string& name) const {
    for (const auto& preset : presets_)
        if (preset.name == name)
            return &preset;
    return nullptr;
}

const Preset& PresetLibrary::require(const std::string& name) const {
    if (const auto* preset = find(name))
        return *preset;
    for (const auto& bad : rejected_)
        if (bad.file.stem() == name)
            throw badInput("preset '" + name + "' is unusable: " + bad.message);
    throw badInput("unknown preset '" + name + "'; available: " + nameList());
}

std::string PresetLibrary::nameList() const {
    std::string list;
    for (const auto& preset : presets_)
        list += (list.empty() ? "" : ", ") + preset.name;
    return list;
}

} // namespace concorde
