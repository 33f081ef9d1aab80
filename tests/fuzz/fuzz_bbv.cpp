// libFuzzer harness: BasicBlockVectorCodec::decode, a region's basic-block vector as stored in
// `regions.bbv`. An input is read as it is, then with its CRC recomputed.

#include "FuzzSupport.h"
#include "store/BasicBlockVectorCodec.h"

using namespace concorde;

namespace {

void decode(const std::vector<std::uint8_t>& blob) {
    fuzz::expectOnlyConcordeErrors([&] {
        const auto bbv = BasicBlockVectorCodec::decode(blob, "fuzzed bbv");
        fuzz::require(bbv.size() == le::load32(blob.data()), "entry count differs from the header");
        fuzz::require(
            BasicBlockVectorCodec::decode(BasicBlockVectorCodec::encode(bbv), "re-encoded") == bbv,
            "vector does not survive a round trip");
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> blob(data, data + size);
    decode(blob);
    if (fuzz::fixCrc(blob, 4, 8, blob.size()))
        decode(blob);
    return 0;
}
