#pragma once

#include "ml/MlpComposition.h"

#include <Eigen/Dense>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace concorde {

/// How one input may move a monotone network's output (issue 17: growing a resource never
/// raises the predicted CPI).
enum class InputConstraint : std::uint8_t {
    Free = 0,          ///< any sign (inputs that do not change with the configuration)
    NonIncreasing = 1, ///< the output never rises when this input grows
    NonDecreasing = 2, ///< the output never falls when this input grows
    Unused = 3,        ///< weights held at 0 (inputs whose direction is not known)
};

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

    /// Makes this a monotone network by construction: the first layer's weights on each input
    /// take the sign its constraint allows (zero for Unused), every later weight is
    /// non-negative, and hidden units alternate a convex ReLU (even units) with its concave
    /// mirror min(z, 0) (odd units). Both activations are non-decreasing, so the output is
    /// monotone in each constrained input, while the mix keeps the network from being merely
    /// convex. Projects the current weights onto the constraints.
    void makeMonotone(std::vector<InputConstraint> constraints);
    /// Makes this a composed network (MlpComposition): layer 0 connects each group's hidden
    /// units to its inputs only (ReLU), layer 1 each group's outputs to its hidden units only
    /// (linear; both any sign), and from layer 2 on the network is monotone as above,
    /// non-decreasing in the outputs of groups that vary and free in the others. Needs layer sizes
    /// {inputs, groups × units, groups × outputs, hidden…, 1} (at least one hidden layer on top).
    /// Rescales the initial weights to the groups' fan-in and projects them onto the structure.
    void makeComposed(MlpComposition composition);
    bool monotone() const { return !constraints_.empty(); }
    bool composed() const { return !composition_.empty(); }
    const MlpComposition& composition() const { return composition_; }
    /// The layer whose input columns carry the constraints: 0 for a monotone network, 2 for a
    /// composed one (its groups' outputs).
    std::size_t constrainedLayer() const { return composed() ? 2 : 0; }
    /// One constraint per input column of constrainedLayer(); empty when unconstrained.
    const std::vector<InputConstraint>& inputConstraints() const { return constraints_; }
    /// Whether hidden layer `layer` has no activation: a composed network's group outputs
    /// (layer 1), which are centred so that the monotone top's convex and concave units both
    /// start in their active range.
    bool linearLayer(std::size_t layer) const { return composed() && layer == 1; }
    /// Whether hidden layer `layer`'s units use the mixed monotone activation.
    bool mixedActivation(std::size_t layer) const {
        return monotone() && layer >= constrainedLayer();
    }
    /// Puts every weight back inside its constraint (after a gradient step); a no-op for an
    /// unconstrained network.
    void project();
    /// A hidden layer's activation in place (one row per unit): ReLU, or for a monotone network
    /// ReLU on even units and min(z, 0) on odd ones.
    static void activateHidden(Matrix& z, bool monotone);
    static void activateHidden(Eigen::Ref<Vector> z, bool monotone);
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
    /// `injected`, if given, is an extra gradient of the loss with respect to the input of layer
    /// `injectAt` (activations.post[injectAt], 1 ≤ injectAt < layers), e.g. a penalty on a
    /// composed network's group outputs.
    Gradients backward(const Activations& activations, const Eigen::RowVectorXf& outputGradient,
                       std::size_t injectAt = 0, const Matrix* injected = nullptr) const;

    std::vector<Matrix>& weights() { return weights_; }
    std::vector<Vector>& biases() { return biases_; }
    const std::vector<Matrix>& weights() const { return weights_; }
    const std::vector<Vector>& biases() const { return biases_; }

    /// Little-endian float32 blob with a header and CRC (for the database). Version 1: plain;
    /// 2: monotone (the constraints follow the sizes); 3: composed (the composition follows).
    std::vector<unsigned char> toBlob() const;
    /// Throws a bad-input ConcordeError naming the problem on a malformed blob.
    static Mlp fromBlob(const std::vector<unsigned char>& blob);
    /// An ensemble's members in one blob: one member is its plain toBlob() (what models before
    /// ensembles stored), several are a counted list of member blobs.
    static std::vector<unsigned char> ensembleToBlob(const std::vector<Mlp>& members);
    /// Reads either form; a bad-input ConcordeError on a malformed blob.
    static std::vector<Mlp> ensembleFromBlob(const std::vector<unsigned char>& blob);

    static float softplus(float x) { return x > 20.0f ? x : std::log1p(std::exp(x)); }

private:
    std::vector<int> sizes_;
    std::vector<InputConstraint> constraints_; ///< see inputConstraints()
    MlpComposition composition_;               ///< empty unless composed
    std::vector<Matrix> weights_;              ///< W_l: sizes[l] × sizes[l-1]
    std::vector<Vector> biases_;
};

} // namespace concorde
