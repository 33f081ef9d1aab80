#include "ml/Mlp.h"

#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace concorde {
namespace {

constexpr std::uint32_t kBlobMagic = 0x4D4C5031; // "1PLM"
constexpr std::uint32_t kBlobVersion = 1;
/// Version 2 adds a monotone network's input constraints after the layer sizes: one byte per
/// input, padded to 4. Unconstrained networks keep writing version 1.
constexpr std::uint32_t kMonotoneBlobVersion = 2;
/// Version 3: a composed network. After the layer sizes: units and outputs per group, the group
/// count, the group of each input (u16, padded to 4 bytes) and whether each group varies (one
/// byte each, padded to 4). The constraints follow from the composition.
constexpr std::uint32_t kComposedBlobVersion = 3;
constexpr std::uint32_t kEnsembleMagic = 0x31534E45; // "ENS1"
constexpr std::uint32_t kMaxMembers = 64;

/// A composed network's constraints on its groups' outputs (the input columns of layer 2): the
/// prediction may only rise with the outputs of groups that vary, and is free in the others.
std::vector<InputConstraint> outputConstraints(const MlpComposition& composition) {
    std::vector<InputConstraint> constraints;
    for (std::size_t g = 0; g < composition.groups(); ++g)
        constraints.insert(constraints.end(), static_cast<std::size_t>(composition.outputsPerGroup),
                           composition.groupVaries[g] ? InputConstraint::NonDecreasing
                                                      : InputConstraint::Free);
    return constraints;
}

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

void Mlp::makeMonotone(std::vector<InputConstraint> constraints) {
    if (constraints.size() != static_cast<std::size_t>(inputs()))
        throw usageError("a monotone MLP needs one constraint per input (" +
                         std::to_string(inputs()) + "), got " + std::to_string(constraints.size()));
    constraints_ = std::move(constraints);
    // Start from the magnitudes of the initial weights so that projection zeroes none of them.
    for (std::size_t l = 0; l < weights_.size(); ++l)
        weights_[l] = weights_[l].cwiseAbs();
    for (std::size_t i = 0; i < constraints_.size(); ++i)
        if (constraints_[i] == InputConstraint::NonIncreasing)
            weights_[0].col(static_cast<Eigen::Index>(i)) *= -1.0f;
    project();
}

void Mlp::makeComposed(MlpComposition composition) {
    composition.check();
    const auto groups = static_cast<int>(composition.groups());
    if (sizes_.size() < 5 || composition.inputGroup.size() != static_cast<std::size_t>(inputs()) ||
        sizes_[1] != groups * composition.unitsPerGroup ||
        sizes_[2] != groups * composition.outputsPerGroup)
        throw usageError("a composed MLP needs layer sizes {inputs, groups × units, groups × "
                         "outputs, …, 1} matching its composition");
    std::vector<int> fanIn(composition.groups(), 0);
    for (const std::uint16_t g : composition.inputGroup)
        ++fanIn[g];
    // He initialisation assumed every input feeds every unit; a group's units see only its own.
    for (Eigen::Index r = 0; r < weights_[0].rows(); ++r)
        weights_[0].row(r) *= static_cast<float>(std::sqrt(
            double(inputs()) / fanIn[static_cast<std::size_t>(r / composition.unitsPerGroup)]));
    weights_[1] *= static_cast<float>(std::sqrt(double(groups)));
    constraints_ = outputConstraints(composition);
    composition_ = std::move(composition);
    for (std::size_t l = 2; l < weights_.size(); ++l)
        weights_[l] = weights_[l].cwiseAbs();
    project();
}

void Mlp::project() {
    if (!monotone())
        return;
    if (composed()) {
        // Structural zeros: a group's units see only its inputs, its outputs only its units.
        const int units = composition_.unitsPerGroup;
        const int outputs = composition_.outputsPerGroup;
        Matrix& w0 = weights_[0];
        for (Eigen::Index c = 0; c < w0.cols(); ++c)
            for (Eigen::Index r = 0; r < w0.rows(); ++r)
                if (r / units != composition_.inputGroup[static_cast<std::size_t>(c)])
                    w0(r, c) = 0.0f;
        Matrix& w1 = weights_[1];
        for (Eigen::Index c = 0; c < w1.cols(); ++c)
            for (Eigen::Index r = 0; r < w1.rows(); ++r)
                if (r / outputs != c / units)
                    w1(r, c) = 0.0f;
    }
    const std::size_t constrained = constrainedLayer();
    Matrix& first = weights_[constrained];
    for (std::size_t i = 0; i < constraints_.size(); ++i) {
        auto column = first.col(static_cast<Eigen::Index>(i));
        switch (constraints_[i]) {
        case InputConstraint::Free:
            break;
        case InputConstraint::NonIncreasing:
            column = column.cwiseMin(0.0f);
            break;
        case InputConstraint::NonDecreasing:
            column = column.cwiseMax(0.0f);
            break;
        case InputConstraint::Unused:
            column.setZero();
            break;
        }
    }
    for (std::size_t l = constrained + 1; l < weights_.size(); ++l)
        weights_[l] = weights_[l].cwiseMax(0.0f);
}

void Mlp::activateHidden(Matrix& z, bool monotone) {
    if (!monotone) {
        z = z.cwiseMax(0.0f);
        return;
    }
    for (Eigen::Index r = 0; r < z.rows(); ++r) {
        if (r % 2)
            z.row(r) = z.row(r).cwiseMin(0.0f);
        else
            z.row(r) = z.row(r).cwiseMax(0.0f);
    }
}

void Mlp::activateHidden(Eigen::Ref<Vector> z, bool monotone) {
    if (!monotone) {
        z = z.cwiseMax(0.0f);
        return;
    }
    for (Eigen::Index r = 0; r < z.size(); ++r)
        z(r) = r % 2 ? std::min(z(r), 0.0f) : std::max(z(r), 0.0f);
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
        if (l + 1 < weights_.size()) {
            Matrix a = z;
            if (!linearLayer(l))
                activateHidden(a, mixedActivation(l));
            act.post.push_back(std::move(a));
        } else {
            act.post.push_back(z.unaryExpr([](float x) { return softplus(x); }));
        }
    }
    return act.post.back().row(0).transpose();
}

Mlp::Vector Mlp::predict(const Matrix& batch) const {
    Matrix a = batch;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Matrix z = weights_[l] * a;
        z.colwise() += biases_[l];
        if (l + 1 < weights_.size()) {
            if (!linearLayer(l))
                activateHidden(z, mixedActivation(l));
            a = std::move(z);
        } else {
            a = z.unaryExpr([](float x) { return softplus(x); });
        }
    }
    return a.row(0).transpose();
}

double Mlp::predict(const Vector& sample) const {
    return predict(Matrix(sample))(0);
}

Mlp::Gradients Mlp::backward(const Activations& act, const Eigen::RowVectorXf& outputGradient,
                             std::size_t injectAt, const Matrix* injected) const {
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
        if (injected && l == injectAt)
            back += *injected;
        // ReLU passes the gradient where z > 0, its concave mirror where z < 0.
        if (linearLayer(l - 1)) {
            delta = std::move(back);
            continue;
        }
        Matrix slope = act.pre[l - 1].unaryExpr([](float z) { return z > 0 ? 1.0f : 0.0f; });
        if (mixedActivation(l - 1))
            for (Eigen::Index r = 1; r < slope.rows(); r += 2)
                slope.row(r) =
                    act.pre[l - 1].row(r).unaryExpr([](float z) { return z < 0 ? 1.0f : 0.0f; });
        delta = back.cwiseProduct(slope);
    }
    return g;
}

std::vector<unsigned char> Mlp::toBlob() const {
    std::vector<unsigned char> blob(16 + 4 * sizes_.size());
    le::store32(blob.data(), kBlobMagic);
    le::store32(blob.data() + 4, composed()   ? kComposedBlobVersion
                                 : monotone() ? kMonotoneBlobVersion
                                              : kBlobVersion);
    le::store32(blob.data() + 8, static_cast<std::uint32_t>(sizes_.size()));
    for (std::size_t i = 0; i < sizes_.size(); ++i)
        le::store32(blob.data() + 16 + 4 * i, static_cast<std::uint32_t>(sizes_[i]));
    const auto pad = [&blob] { blob.resize((blob.size() + 3) / 4 * 4, 0); };
    if (composed()) {
        unsigned char word[4];
        for (const int v : {composition_.unitsPerGroup, composition_.outputsPerGroup,
                            static_cast<int>(composition_.groups())}) {
            le::store32(word, static_cast<std::uint32_t>(v));
            blob.insert(blob.end(), word, word + 4);
        }
        for (const std::uint16_t g : composition_.inputGroup) {
            blob.push_back(static_cast<unsigned char>(g & 0xFF));
            blob.push_back(static_cast<unsigned char>(g >> 8));
        }
        pad();
        for (const bool varies : composition_.groupVaries)
            blob.push_back(varies ? 1 : 0);
        pad();
    } else if (monotone()) {
        for (const InputConstraint c : constraints_)
            blob.push_back(static_cast<unsigned char>(c));
        blob.resize(blob.size() + (4 - constraints_.size() % 4) % 4, 0);
    }
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
    const std::uint32_t version = le::load32(blob.data() + 4);
    if (version != kBlobVersion && version != kMonotoneBlobVersion &&
        version != kComposedBlobVersion)
        throw badInput("model weights: unsupported version " + std::to_string(version));
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
    std::size_t offset = 16 + 4ull * layers;
    MlpComposition composition;
    std::uint64_t constraintBytes =
        version == kMonotoneBlobVersion ? (std::uint64_t(mlp.sizes_[0]) + 3) / 4 * 4 : 0;
    if (version == kComposedBlobVersion) {
        if (blob.size() - offset < 12)
            throw badInput("model weights: the composition is cut short");
        composition.unitsPerGroup =
            static_cast<int>(std::min<std::uint32_t>(le::load32(blob.data() + offset), 1u << 20));
        composition.outputsPerGroup = static_cast<int>(
            std::min<std::uint32_t>(le::load32(blob.data() + offset + 4), 1u << 20));
        const std::uint32_t groups = le::load32(blob.data() + offset + 8);
        if (groups == 0 || groups > 4096)
            throw badInput("model weights: a composition of " + std::to_string(groups) + " groups");
        offset += 12;
        const std::uint64_t groupBytes = (2ull * std::uint64_t(mlp.sizes_[0]) + 3) / 4 * 4;
        const std::uint64_t variesBytes = (std::uint64_t(groups) + 3) / 4 * 4;
        if (blob.size() - offset < groupBytes + variesBytes)
            throw badInput("model weights: the composition is cut short");
        for (int i = 0; i < mlp.sizes_[0]; ++i)
            composition.inputGroup.push_back(static_cast<std::uint16_t>(
                blob[offset + 2 * std::size_t(i)] | blob[offset + 2 * std::size_t(i) + 1] << 8));
        offset += groupBytes;
        for (std::uint32_t g = 0; g < groups; ++g) {
            if (blob[offset + g] > 1)
                throw badInput("model weights: a group flag of " +
                               std::to_string(blob[offset + g]));
            composition.groupVaries.push_back(blob[offset + g] == 1);
        }
        offset += variesBytes;
        composition.check();
    }
    if (blob.size() != offset + constraintBytes + 4 * parameters)
        throw badInput("model weights: the blob is " + std::to_string(blob.size()) +
                       " bytes, its layer sizes need " +
                       std::to_string(offset + constraintBytes + 4 * parameters));
    std::vector<InputConstraint> constraints;
    for (int i = 0; version == kMonotoneBlobVersion && i < mlp.sizes_[0]; ++i) {
        const unsigned char c = blob[offset + static_cast<std::size_t>(i)];
        if (c > static_cast<unsigned char>(InputConstraint::Unused))
            throw badInput("model weights: unknown input constraint " + std::to_string(c));
        constraints.push_back(static_cast<InputConstraint>(c));
    }
    offset += constraintBytes;
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
    if (!composition.empty()) {
        // The sizes must fit the composition; makeComposed on a copy gives the constraints.
        const auto groups = static_cast<int>(composition.groups());
        if (mlp.sizes_.size() < 5 || mlp.sizes_[1] != groups * composition.unitsPerGroup ||
            mlp.sizes_[2] != groups * composition.outputsPerGroup)
            throw badInput("model weights: the layer sizes do not fit the composition");
        constraints = outputConstraints(composition);
        mlp.composition_ = std::move(composition);
    }
    if (!constraints.empty()) {
        // Stored weights must already satisfy their constraints: projecting must change nothing.
        mlp.constraints_ = std::move(constraints);
        Mlp projected = mlp;
        projected.project();
        for (std::size_t l = 0; l < mlp.weights_.size(); ++l)
            if (!(projected.weights_[l] == mlp.weights_[l]))
                throw badInput("model weights: layer " + std::to_string(l + 1) +
                               " breaks the network's monotonicity or composition constraints");
    }
    return mlp;
}

std::vector<unsigned char> Mlp::ensembleToBlob(const std::vector<Mlp>& members) {
    if (members.empty() || members.size() > kMaxMembers)
        throw usageError("an ensemble holds 1 to " + std::to_string(kMaxMembers) + " members");
    if (members.size() == 1)
        return members.front().toBlob();
    std::vector<unsigned char> blob(8);
    le::store32(blob.data(), kEnsembleMagic);
    le::store32(blob.data() + 4, static_cast<std::uint32_t>(members.size()));
    for (const Mlp& member : members) {
        const std::vector<unsigned char> part = member.toBlob();
        unsigned char size[4];
        le::store32(size, static_cast<std::uint32_t>(part.size()));
        blob.insert(blob.end(), size, size + 4);
        blob.insert(blob.end(), part.begin(), part.end());
    }
    return blob;
}

std::vector<Mlp> Mlp::ensembleFromBlob(const std::vector<unsigned char>& blob) {
    if (blob.size() < 8 || le::load32(blob.data()) != kEnsembleMagic)
        return {fromBlob(blob)};
    const std::uint32_t count = le::load32(blob.data() + 4);
    if (count < 1 || count > kMaxMembers)
        throw badInput("model weights: an ensemble of " + std::to_string(count) + " members");
    std::vector<Mlp> members;
    std::size_t offset = 8;
    for (std::uint32_t m = 0; m < count; ++m) {
        if (blob.size() - offset < 4)
            throw badInput("model weights: the ensemble blob ends inside member " +
                           std::to_string(m));
        const std::uint32_t size = le::load32(blob.data() + offset);
        offset += 4;
        if (blob.size() - offset < size)
            throw badInput("model weights: ensemble member " + std::to_string(m) +
                           " is longer than the blob");
        members.push_back(
            fromBlob(std::vector<unsigned char>(blob.begin() + static_cast<long>(offset),
                                                blob.begin() + static_cast<long>(offset + size))));
        offset += size;
    }
    if (offset != blob.size())
        throw badInput("model weights: trailing bytes after the ensemble");
    return members;
}

} // namespace concorde
