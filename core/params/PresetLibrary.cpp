#include "params/PresetLibrary.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <cstdlib>

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
    return executableDirectory().parent_path() / "share" / "concorde" / "presets";
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
