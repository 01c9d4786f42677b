// ForceGradient (engine/force_gradient.hpp): the gradient term −h²∇ₚf − h∇ᵥf and f − ∇ᵥf v from
// the forces' triplets, its pattern kept from step to step, equal bit for bit to the plain
// construction through Eigen's setFromTriplets and sparse arithmetic (the reference here).
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "pivot/engine/force_gradient.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {

// the plain construction, as the step wrote it before the pattern was kept
struct Reference {
  Eigen::SparseMatrix<double> G;
  Eigen::VectorXd f;
};
Reference reference(Eigen::Index size, double h, const Triplets& dfdp, const Triplets& dfdv,
                    const Eigen::VectorXd& v, const Eigen::VectorXd& f) {
  Eigen::SparseMatrix<double> dp(size, size), dv(size, size);
  dp.setFromTriplets(dfdp.begin(), dfdp.end());
  dv.setFromTriplets(dfdv.begin(), dfdv.end());
  Reference r;
  r.G = -(h * h) * dp - h * dv;
  r.f = f;
  r.f -= dv * v;
  return r;
}

// triplets on `places` (duplicates and one-list places included) with random values
Triplets random_values(const std::vector<std::pair<int, int>>& places, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-10.0, 10.0);
  Triplets t;
  for (const auto& [r, c] : places) t.emplace_back(r, c, value(rng));
  return t;
}

bool bitwise_equal(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  const Eigen::MatrixXd da(a), db(b);
  for (Eigen::Index c = 0; c < da.cols(); ++c)
    for (Eigen::Index r = 0; r < da.rows(); ++r)
      if (std::memcmp(&da(r, c), &db(r, c), sizeof(double)) != 0) return false;
  return a.nonZeros() == b.nonZeros();
}

}  // namespace

TEST_CASE("ForceGradient equals the plain construction bit for bit, step after step",
          "[engine][forces]") {
  const Eigen::Index size = 18;
  const double h = 1e-3;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  // ∇ₚf on a spring's 6 × 6 blocks between bodies 0 and 2, a duplicate place; ∇ᵥf on a damper
  // between 0 and 1 and a gyroscopic block on 1: places of ∇ₚf alone, of ∇ᵥf alone, of both
  std::vector<std::pair<int, int>> p_places, v_places;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      p_places.emplace_back(r, 12 + c);
      p_places.emplace_back(12 + r, c);
      p_places.emplace_back(r, c);
      v_places.emplace_back(r, c);
      v_places.emplace_back(r, 6 + c);
      v_places.emplace_back(9 + r, 9 + c);
    }
  p_places.emplace_back(0, 12);  // a duplicate
  v_places.emplace_back(9, 9);   // another
  // the places of steps 0–2 are kept, those of 3–5 change (a zero entry left out, a force
  // added, then the first places again): the plain construction's values every step
  const auto places_of = [&](int step, const std::vector<std::pair<int, int>>& base) {
    std::vector<std::pair<int, int>> places = base;
    if (step == 3) places.erase(places.begin() + 4);
    if (step == 4) places.emplace_back(5, 17);
    return places;
  };
  ForceGradient gradient;
  for (int step = 0; step < 6; ++step) {
    INFO("step " << step);
    const Triplets dfdp = random_values(places_of(step, p_places), rng);
    const Triplets dfdv = random_values(places_of(step, v_places), rng);
    Eigen::VectorXd v(size), f(size);
    for (Eigen::Index i = 0; i < size; ++i) {
      v(i) = unit(rng);
      f(i) = unit(rng);
    }
    const Reference expected = reference(size, h, dfdp, dfdv, v, f);
    gradient.assemble(size, h, dfdp, dfdv);
    gradient.subtract_velocity_term(v, f);
    CHECK(bitwise_equal(gradient.matrix(), expected.G));
    CHECK(std::memcmp(f.data(), expected.f.data(), sizeof(double) * size) == 0);
    if (step == 4) {
      CHECK(gradient.matrix().coeff(5, 17) ==
            Approx(-(h * h) * dfdp.back().value() - h * dfdv.back().value()));
    }
  }
}

TEST_CASE("ForceGradient without triplets is empty and leaves f alone", "[engine][forces]") {
  ForceGradient gradient;
  const Triplets one{{1, 2, 3.0}};
  gradient.assemble(12, 0.01, one, one);
  CHECK(gradient.matrix().nonZeros() == 1);
  gradient.assemble(12, 0.01, {}, {});
  CHECK(gradient.matrix().nonZeros() == 0);
  CHECK(gradient.matrix().rows() == 12);
  Eigen::VectorXd f = Eigen::VectorXd::Ones(12);
  gradient.subtract_velocity_term(Eigen::VectorXd::Ones(12), f);
  CHECK(f == Eigen::VectorXd::Ones(12));
}
