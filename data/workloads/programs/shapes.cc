// A C++17 translation unit for cc1plus: standard-library headers, templates, lambdas, virtual
// dispatch and constexpr evaluation (the front end's template instantiation and the optimiser).
#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

namespace shapes {
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual std::string name() const = 0;
};
template <int Sides> struct Polygon final : Shape {
  double side;
  explicit Polygon(double s) : side(s) {}
  double area() const override { return Sides * side * side / (4.0 * (Sides > 3 ? 1.0 : 1.7)); }
  std::string name() const override { return "polygon" + std::to_string(Sides); }
};
struct Circle final : Shape {
  double r;
  explicit Circle(double radius) : r(radius) {}
  double area() const override { return 3.14159265358979 * r * r; }
  std::string name() const override { return "circle"; }
};
template <typename T, typename F> auto transform_all(const std::vector<T>& in, F f) {
  std::vector<decltype(f(in.front()))> out;
  out.reserve(in.size());
  for (const auto& x : in) out.push_back(f(x));
  return out;
}
template <std::size_t N> constexpr std::size_t fib() {
  if constexpr (N < 2) return N; else return fib<N - 1>() + fib<N - 2>();
}
template <typename K, typename V> std::map<V, std::vector<K>> invert(const std::unordered_map<K, V>& m) {
  std::map<V, std::vector<K>> out;
  for (const auto& [k, v] : m) out[v].push_back(k);
  for (auto& [v, ks] : out) std::sort(ks.begin(), ks.end());
  return out;
}
}  // namespace shapes

#define MAKE_KERNEL(N)                                                                     \
  double kernel##N(const std::vector<double>& v) {                                          \
    std::vector<double> w(v);                                                              \
    std::sort(w.begin(), w.end(), [](double a, double b) { return a * N > b * N; });       \
    auto it = std::partition(w.begin(), w.end(), [](double x) { return x > N / 10.0; });   \
    return std::accumulate(w.begin(), it, 0.0) + std::inner_product(w.begin(), w.end(), v.begin(), 0.0); \
  }
MAKE_KERNEL(1) MAKE_KERNEL(2) MAKE_KERNEL(3) MAKE_KERNEL(4)

int main(int argc, char**) {
  using namespace shapes;
  std::vector<std::unique_ptr<Shape>> all;
  for (int i = 0; i < 100 + argc; ++i) {
    switch (i % 5) {
      case 0: all.push_back(std::make_unique<Polygon<3>>(i)); break;
      case 1: all.push_back(std::make_unique<Polygon<4>>(i)); break;
      case 2: all.push_back(std::make_unique<Polygon<6>>(i)); break;
      case 3: all.push_back(std::make_unique<Polygon<8>>(i)); break;
      default: all.push_back(std::make_unique<Circle>(i));
    }
  }
  auto areas = transform_all(all, [](const auto& s) { return s->area(); });
  std::unordered_map<std::string, int> counts;
  for (const auto& s : all) ++counts[s->name()];
  auto inv = invert(counts);
  std::string os;
  for (const auto& [count, names] : inv) os += std::to_string(count) + names.front();
  double k = kernel1(areas) + kernel2(areas) + kernel3(areas) + kernel4(areas);
  return static_cast<int>(k + fib<30>() + inv.size() + os.size()) & 1;
}
