// libFuzzer harness: explorer session JSON. SessionFile::load parses the file's text and
// SessionFile::apply checks it through SessionFileDocument::read before changing anything; this
// runs the same parse and check (Qt Core only, no GUI: see CMakeLists.txt).

#include "FuzzSupport.h"
#include "SessionFileDocument.h"

using namespace concorde;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(data, data + size);
    } catch (const nlohmann::json::exception&) {
        return 0; // SessionFile::load reports "not JSON"
    }
    QString message;
    const auto read = ui::SessionFileDocument::read(document, "fuzzed.json", CoreConfig{},
                                                    CoreConfig{}, &message);
    fuzz::require(read.has_value() || !message.isEmpty(), "refused without a reason");
    return 0;
}
