#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace concorde {

/// The CPI model of docs/design.md §8: a multi-layer perceptron with ReLU hidden layers and a
/// softplus output (CPI is positive). Inputs are already-normalised feature vectors
/// (FeatureNormalizer). Inference uses Eigen; a batch is one matrix with one column per sample.
class Mlp {
public:
    using Matrix = Eigen::MatrixXf;
    using Vector = Eigen::VectorXf;

    Mlp() = default;
    /// `layerSizes` = {inputs, hidden..., 1}. Weights are He-initialised from `seed`.
    Mlp(std::vector<int> layerSizes, std::uint64_t seed);

    int inputs() const { return sizes_.empty() ? 0 : sizes_.front(); }
    const std::vector<int>& layerSizes() const { return sizes_; }
    std::size_t parameterCount() const;

    /// Predictions for a batch (inputs × batch) → one CPI per column.
    Vector predict(const Matrix& batch) const;
    double predict(const Vector& sample) const;

    /// What backpropagation needs from a forward pass.
    struct Activations {
        std::vector<Matrix> pre;  ///< z_l = W_l a_{l-1} + b_l
        std::vector<Matrix> post; ///< a_l (a_0 = input)
    };
    Vector forward(const Matrix& batch, Activations& activations) const;

    /// Gradients of Σ_j dLoss/dOutput_j ... for a batch: `outputGradient` holds dL/dŷ per
    /// sample (1 × batch); results have the shapes of the weights and biases.
    struct Gradients {
        std::vector<Matrix> weights;
        std::vector<Vector> biases;
    };
    Gradients backward(const Activations& activations,
                       const Eigen::RowVectorXf& outputGradient) const;

    std::vector<Matrix>& weights() { return weights_; }
    std::vector<Vector>& biases() { return biases_; }
    const std::vector<Matrix>& weights() const { return weights_; }
    const std::vector<Vector>& biases() const { return biases_; }

    /// Little-endian float32 blob with a header and CRC (for the database).
    std::vector<unsigned char> toBlob() const;
    /// Throws a bad-input ConcordeError naming the problem on a malformed blob.
    static Mlp fromBlob(const std::vector<unsigned char>& blob);

    static float softplus(float x) { return x > 20.0f ? x : std::log1p(std::exp(x)); }

private:
    std::vector<int> sizes_;
    std::vector<Matrix> weights_; ///< W_l: sizes[l] × sizes[l-1]
    std::vector<Vector> biases_;
};

} // namespace concorde
