#include "params/Preset.h"

#include "common/AtomicFile.h"
#include "common/ConcordeError.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace concorde {

Preset Preset::load(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in)
        throw badInput("cannot open preset file " + file.string());
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw badInput("preset file " + file.string() + " is not valid JSON: " + e.what());
    }
    if (!document.is_object() || !document.contains("parameters"))
        throw badInput("preset file " + file.string() + " has no \"parameters\" object");
    Preset preset;
    preset.name = document.value("name", file.stem().string());
    preset.description = document.value("description", "");
    preset.config = CoreConfig::fromJson(document["parameters"], true, file.string());
    if (document.contains("sources") && document["sources"].is_object()) {
        for (const auto& [key, value] : document["sources"].items())
            if (value.is_string())
                preset.sources[key] = value.get<std::string>();
    }
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

} // namespace concorde
