// libFuzzer harness: the stored model weights, Mlp::ensembleFromBlob (one member's plain blob
// or an ensemble of them, `models.weights`). An input is read as it is, then with the checksum
// of its first member recomputed; every model it yields is run once.

#include "FuzzSupport.h"
#include "ml/Mlp.h"

using namespace concorde;

namespace {

void load(const std::vector<unsigned char>& blob) {
    fuzz::expectOnlyConcordeErrors([&] {
        const std::vector<Mlp> members = Mlp::ensembleFromBlob(blob);
        fuzz::require(!members.empty(), "an ensemble without members");
        for (const Mlp& member : members) {
            fuzz::require(!member.weights().empty(), "a member without layers");
            const Mlp::Vector input = Mlp::Vector::Zero(member.weights().front().cols());
            (void)member.predict(input);
        }
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<unsigned char> blob(data, data + size);
    load(blob);
    // A plain blob has its CRC at 12 over the rest; an ensemble's first member starts at 12.
    const bool ensemble = size >= 8 && le::load32(blob.data()) == 0x31534E45;
    const std::size_t member = ensemble ? 12 : 0;
    if (blob.size() >= member + 16) {
        const std::size_t end =
            ensemble ? std::min<std::size_t>(blob.size(), member + le::load32(blob.data() + 8))
                     : blob.size();
        if (end >= member + 16 && fuzz::fixCrc(blob, member + 12, member + 16, end))
            load(blob);
    }
    return 0;
}
