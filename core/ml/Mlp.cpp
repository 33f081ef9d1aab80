#include "ml/Mlp.h"

#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"

#include <cmath>
#include <cstring>
#include <random>

namespace concorde {
namespace {

constexpr std::uint32_t kBlobMagic = 0x4D4C5031; // "1PLM"
constexpr std::uint32_t kBlobVersion = 1;

} // namespace

Mlp::Mlp(std::vector<int> layerSizes, std::uint64_t seed) : sizes_(std::move(layerSizes)) {
    if (sizes_.size() < 2 || sizes_.back() != 1)
        throw usageError("an MLP needs an input size and ends in one output");
    std::mt19937_64 rng(seed);
    for (std::size_t l = 1; l < sizes_.size(); ++l) {
        if (sizes_[l] <= 0 || sizes_[l - 1] <= 0)
            throw usageError("MLP layer sizes must be positive");
        // He initialisation for ReLU layers, drawn with a portable transform of the raw engine.
        const double scale = std::sqrt(2.0 / sizes_[l - 1]);
        Matrix w(sizes_[l], sizes_[l - 1]);
        for (int c = 0; c < w.cols(); ++c)
            for (int r = 0; r < w.rows(); ++r) {
                const double u1 = (double(rng() >> 11) + 0.5) / 9007199254740992.0;
                const double u2 = (double(rng() >> 11) + 0.5) / 9007199254740992.0;
                const double normal =
                    std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
                w(r, c) = static_cast<float>(normal * scale);
            }
        weights_.push_back(std::move(w));
        biases_.push_back(Vector::Zero(sizes_[l]));
    }
}

std::size_t Mlp::parameterCount() const {
    std::size_t count = 0;
    for (std::size_t l = 0; l < weights_.size(); ++l)
        count += static_cast<std::size_t>(weights_[l].size() + biases_[l].size());
    return count;
}

Mlp::Vector Mlp::forward(const Matrix& batch, Activations& act) const {
    act.pre.clear();
    act.post.clear();
    act.post.push_back(batch);
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Matrix z = weights_[l] * act.post.back();
        z.colwise() += biases_[l];
        act.pre.push_back(z);
        if (l + 1 < weights_.size())
            act.post.push_back(z.cwiseMax(0.0f));
        else
            act.post.push_back(z.unaryExpr([](float x) { return softplus(x); }));
    }
    return act.post.back().row(0).transpose();
}

Mlp::Vector Mlp::predict(const Matrix& batch) const {
    Matrix a = batch;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Matrix z = weights_[l] * a;
        z.colwise() += biases_[l];
        a = l + 1 < weights_.size() ? Matrix(z.cwiseMax(0.0f))
                                    : Matrix(z.unaryExpr([](float x) { return softplus(x); }));
    }
    return a.row(0).transpose();
}

double Mlp::predict(const Vector& sample) const {
    return predict(Matrix(sample))(0);
}

Mlp::Gradients Mlp::backward(const Activations& act,
                             const Eigen::RowVectorXf& outputGradient) const {
    Gradients g;
    const std::size_t layers = weights_.size();
    g.weights.resize(layers);
    g.biases.resize(layers);
    // dL/dz for the output layer: dL/dŷ · softplus'(z) = dL/dŷ · sigmoid(z).
    Matrix delta = act.pre.back().unaryExpr([](float z) { return 1.0f / (1.0f + std::exp(-z)); });
    delta.array().rowwise() *= outputGradient.array();
    for (std::size_t l = layers; l-- > 0;) {
        g.weights[l] = delta * act.post[l].transpose();
        g.biases[l] = delta.rowwise().sum();
        if (l == 0)
            break;
        Matrix back = weights_[l].transpose() * delta;
        delta = back.cwiseProduct(
            act.pre[l - 1].unaryExpr([](float z) { return z > 0 ? 1.0f : 0.0f; }));
    }
    return g;
}

std::vector<unsigned char> Mlp::toBlob() const {
    std::vector<unsigned char> blob(16 + 4 * sizes_.size());
    le::store32(blob.data(), kBlobMagic);
    le::store32(blob.data() + 4, kBlobVersion);
    le::store32(blob.data() + 8, static_cast<std::uint32_t>(sizes_.size()));
    for (std::size_t i = 0; i < sizes_.size(); ++i)
        le::store32(blob.data() + 16 + 4 * i, static_cast<std::uint32_t>(sizes_[i]));
    const auto put = [&](const float* data, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            std::uint32_t bits;
            std::memcpy(&bits, data + i, 4);
            unsigned char bytes[4];
            le::store32(bytes, bits);
            blob.insert(blob.end(), bytes, bytes + 4);
        }
    };
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        put(weights_[l].data(), static_cast<std::size_t>(weights_[l].size()));
        put(biases_[l].data(), static_cast<std::size_t>(biases_[l].size()));
    }
    le::store32(blob.data() + 12, crc32(blob.data() + 16, blob.size() - 16));
    return blob;
}

Mlp Mlp::fromBlob(const std::vector<unsigned char>& blob) {
    if (blob.size() < 16 || le::load32(blob.data()) != kBlobMagic)
        throw badInput("model weights: not an MLP blob");
    if (le::load32(blob.data() + 4) != kBlobVersion)
        throw badInput("model weights: unsupported version " +
                       std::to_string(le::load32(blob.data() + 4)));
    const std::uint32_t layers = le::load32(blob.data() + 8);
    if (layers < 2 || layers > 16 || blob.size() < 16 + 4ull * layers)
        throw badInput("model weights: bad layer count");
    if (le::load32(blob.data() + 12) != crc32(blob.data() + 16, blob.size() - 16))
        throw badInput("model weights: checksum mismatch (corrupt blob)");
    Mlp mlp;
    for (std::uint32_t i = 0; i < layers; ++i) {
        const auto size = static_cast<int>(le::load32(blob.data() + 16 + 4 * i));
        if (size <= 0 || size > (1 << 20))
            throw badInput("model weights: bad layer size");
        mlp.sizes_.push_back(size);
    }
    // The layer sizes are checked against the bytes present before any matrix is allocated
    // (two sizes of 2^20 would ask for 4 TB).
    std::uint64_t parameters = 0;
    for (std::size_t l = 1; l < mlp.sizes_.size(); ++l)
        parameters += std::uint64_t(mlp.sizes_[l]) * (std::uint64_t(mlp.sizes_[l - 1]) + 1);
    if (blob.size() != 16 + 4ull * layers + 4 * parameters)
        throw badInput("model weights: the blob is " + std::to_string(blob.size()) +
                       " bytes, its layer sizes need " +
                       std::to_string(16 + 4ull * layers + 4 * parameters));
    std::size_t offset = 16 + 4ull * layers;
    const auto take = [&](float* data, std::size_t count) {
        if (blob.size() < offset + 4 * count)
            throw badInput("model weights: blob shorter than its layer sizes");
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint32_t bits = le::load32(blob.data() + offset + 4 * i);
            std::memcpy(data + i, &bits, 4);
        }
        offset += 4 * count;
    };
    for (std::size_t l = 1; l < mlp.sizes_.size(); ++l) {
        Matrix w(mlp.sizes_[l], mlp.sizes_[l - 1]);
        Vector b(mlp.sizes_[l]);
        take(w.data(), static_cast<std::size_t>(w.size()));
        take(b.data(), static_cast<std::size_t>(b.size()));
        mlp.weights_.push_back(std::move(w));
        mlp.biases_.push_back(std::move(b));
    }
    if (offset != blob.size())
        throw badInput("model weights: trailing bytes");
    if (mlp.sizes_.back() != 1)
        throw badInput("model weights: the last layer must have one output");
    return mlp;
}

} // namespace concorde
