// libFuzzer harness: FeatureVectorCodec::decode, the feature vectors of a database and of a
// dataset file's samples. An input is read as it is, then with its CRC recomputed.

#include "FuzzSupport.h"
#include "features/FeatureVectorCodec.h"

#include <cstring>

using namespace concorde;

namespace {

void decode(const std::vector<std::uint8_t>& blob) {
    fuzz::expectOnlyConcordeErrors([&] {
        const std::vector<float> values = FeatureVectorCodec::decode(blob);
        fuzz::require(blob.size() == FeatureVectorCodec::encodedSize(values.size()),
                      "blob size does not match the decoded count");
        fuzz::require(values.empty() ||
                          std::memcmp(values.data(), blob.data() + FeatureVectorCodec::kHeaderSize,
                                      4 * values.size()) == 0,
                      "floats are not copied bit for bit");
    });
    // A wrong expected count must be refused, never read past the blob.
    fuzz::expectOnlyConcordeErrors([&] { (void)FeatureVectorCodec::decode(blob, 3); });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::uint8_t> blob(data, data + size);
    decode(blob);
    if (fuzz::fixCrc(blob, 12, FeatureVectorCodec::kHeaderSize, blob.size()))
        decode(blob);
    return 0;
}
