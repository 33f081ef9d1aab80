// libFuzzer harness: preset JSON (Preset::load, and PresetLibrary::loadFrom over a directory
// holding the file, which must skip a malformed preset and name it).

#include "FuzzSupport.h"
#include "params/PresetLibrary.h"

using namespace concorde;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::filesystem::path dir = fuzz::scratchPath("presets");
    std::filesystem::create_directories(dir);
    const std::filesystem::path file = dir / "fuzzed.json";
    fuzz::writeFile(file, {data, size});

    const bool loaded = fuzz::expectOnlyConcordeErrors([&] { (void)Preset::load(file); });
    PresetLibrary library;
    // Loading a directory never throws for one bad file: it is listed in rejected().
    library = PresetLibrary::loadFrom({dir});
    fuzz::require(library.presets().size() + library.rejected().size() == 1,
                  "the file is neither loaded nor rejected");
    fuzz::require(loaded == library.rejected().empty(),
                  "Preset::load and PresetLibrary disagree on the file");
    for (const Preset& preset : library.presets())
        fuzz::expectOnlyConcordeErrors([&] { (void)library.require(preset.name); });
    fuzz::expectOnlyConcordeErrors([&] { (void)library.require("fuzzed"); });
    return 0;
}
