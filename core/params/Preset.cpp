#include "params/Preset.h"

#include "common/AtomicFile.h"
#include "common/ConcordeError.h"
#include "common/JsonFields.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace concorde {

Preset Preset::load(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in)
        throw badInput("cannot open preset file " + file.string());
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json document = JsonFields::parse(text.str(), "preset file " + file.string());
    const JsonFields fields(document, "preset file " + file.string());
    if (!fields.has("parameters"))
        throw badInput("preset file " + file.string() + " has no \"parameters\" object");
    Preset preset;
    preset.name = fields.string("name", file.stem().string());
    if (preset.name.empty())
        throw badInput(fields.where("name") + " is empty");
    preset.description = fields.string("description", "");
    preset.config = CoreConfig::fromJson(fields.value("parameters"), true, file.string());
    if (const auto sources = fields.optionalObject("sources"))
        for (const auto& [key, value] : sources->json().items())
            preset.sources[key] = sources->string(key);
    return preset;
}

void Preset::save(const std::filesystem::path& file) const {
    nlohmann::json document;
    document["name"] = name;
    document["description"] = description;
    document["parameters"] = config.toJson();
    if (!sources.empty())
        document["sources"] = sources;
    const std::string text = document.dump(2) + "\n";
    AtomicFile out(file);
    out.write(text.data(), text.size());
    out.commit();
}

std::string presetNameFor(const std::vector<Preset>& presets, const CoreConfig& config) {
    for (const Preset& preset : presets)
        if (preset.config == config)
            return preset.name;
    return {};
}

} // namespace concorde
