// The force gradients' term of the linearly implicit step: see force_gradient.hpp.
#include "pivot/engine/force_gradient.hpp"

#include <algorithm>

namespace pivot::detail {

bool ForceGradient::same_places(const Triplets& dfdp, const Triplets& dfdv) const {
  if (places_.size() != dfdp.size() + dfdv.size()) return false;
  std::size_t k = 0;
  for (const Triplets* list : {&dfdp, &dfdv})
    for (const Eigen::Triplet<double>& t : *list) {
      if (places_[k].row != t.row() || places_[k].col != t.col()) return false;
      ++k;
    }
  return true;
}

// the compressed pattern of every place, and each triplet's index in it: the places sorted by
// column then row, repeats merged, written into matrix_'s own arrays (a force's gradient leaves
// out its zero entries, so the places may change from step to step: this allocates only when a
// buffer must grow)
void ForceGradient::build_pattern(Eigen::Index size, const Triplets& dfdp, const Triplets& dfdv) {
  places_.clear();
  for (const Triplets* list : {&dfdp, &dfdv})
    for (const Eigen::Triplet<double>& t : *list) places_.push_back({t.row(), t.col()});
  // the triplets bucketed by column (a counting sort, stable), then each column's bucket sorted
  // by row by insertion (a column holds a few dozen at most): linear in the triplets
  const auto columns = static_cast<std::size_t>(size);
  column_start_.assign(columns + 1, 0);
  for (const Place& p : places_) ++column_start_[static_cast<std::size_t>(p.col) + 1];
  for (std::size_t c = 0; c < columns; ++c) column_start_[c + 1] += column_start_[c];
  order_.resize(places_.size());
  fill_.assign(column_start_.begin(), column_start_.end() - 1);
  for (std::size_t k = 0; k < places_.size(); ++k)
    order_[static_cast<std::size_t>(fill_[static_cast<std::size_t>(places_[k].col)]++)] =
        static_cast<int>(k);
  const auto row_of = [this](int k) { return places_[static_cast<std::size_t>(k)].row; };
  for (std::size_t c = 0; c < columns; ++c)
    for (int a = column_start_[c] + 1; a < column_start_[c + 1]; ++a) {
      const int k = order_[static_cast<std::size_t>(a)];
      int b = a;
      for (; b > column_start_[c] && row_of(order_[static_cast<std::size_t>(b - 1)]) > row_of(k);
           --b)
        order_[static_cast<std::size_t>(b)] = order_[static_cast<std::size_t>(b - 1)];
      order_[static_cast<std::size_t>(b)] = k;
    }
  slot_.resize(places_.size());
  Eigen::Index count = 0;
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const Place& p = places_[static_cast<std::size_t>(order_[k])];
    const bool repeat = k > 0 && p.col == places_[static_cast<std::size_t>(order_[k - 1])].col &&
                        p.row == places_[static_cast<std::size_t>(order_[k - 1])].row;
    if (!repeat) ++count;
    slot_[static_cast<std::size_t>(order_[k])] = static_cast<int>(count - 1);
  }
  matrix_.resize(size, size);  // the outer index kept when the size is
  matrix_.resizeNonZeros(count);
  int* outer = matrix_.outerIndexPtr();
  int* inner = matrix_.innerIndexPtr();
  std::fill(outer, outer + size + 1, 0);
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const Place& p = places_[static_cast<std::size_t>(order_[k])];
    const int s = slot_[static_cast<std::size_t>(order_[k])];
    if (k > 0 && s == slot_[static_cast<std::size_t>(order_[k - 1])]) continue;
    inner[s] = p.row;
    ++outer[p.col + 1];
  }
  for (Eigen::Index c = 0; c < size; ++c) outer[c + 1] += outer[c];
  entries_.resize(static_cast<std::size_t>(count));
}

void ForceGradient::assemble(Eigen::Index size, double h, const Triplets& dfdp,
                             const Triplets& dfdv) {
  if (dfdp.empty() && dfdv.empty()) {
    matrix_.resize(size, size);  // no entries; the outer index kept when the size is
    places_.clear();
    return;
  }
  if (matrix_.rows() != size || !same_places(dfdp, dfdv)) build_pattern(size, dfdp, dfdv);
  std::fill(entries_.begin(), entries_.end(), Entry{});
  // duplicates summed in triplet order, from the first (as setFromTriplets does)
  std::size_t k = 0;
  for (const Eigen::Triplet<double>& t : dfdp) {
    Entry& e = entries_[static_cast<std::size_t>(slot_[k++])];
    e.dp = e.has_dp ? e.dp + t.value() : t.value();
    e.has_dp = true;
  }
  for (const Eigen::Triplet<double>& t : dfdv) {
    Entry& e = entries_[static_cast<std::size_t>(slot_[k++])];
    e.dv = e.has_dv ? e.dv + t.value() : t.value();
    e.has_dv = true;
  }
  // −h²∇ₚf − h∇ᵥf entry by entry; a place of one gradient alone is that one's term, as the
  // sparse difference of the two matrices gives it (a − 0, 0 − b)
  double* values = matrix_.valuePtr();
  const double a = -(h * h);
  for (std::size_t s = 0; s < entries_.size(); ++s) {
    const Entry& e = entries_[s];
    if (e.has_dp && e.has_dv)
      values[s] = a * e.dp - h * e.dv;
    else if (e.has_dp)
      values[s] = a * e.dp;
    else
      values[s] = 0.0 - h * e.dv;
  }
}

void ForceGradient::subtract_velocity_term(const Eigen::VectorXd& v, Eigen::VectorXd& f) {
  if (places_.empty()) return;
  // ∇ᵥf v column by column (the order of the sparse product), then f − that
  product_.setZero(matrix_.rows());
  const int* outer = matrix_.outerIndexPtr();
  const int* inner = matrix_.innerIndexPtr();
  for (Eigen::Index c = 0; c < matrix_.outerSize(); ++c)
    for (int s = outer[c]; s < outer[c + 1]; ++s) {
      const Entry& e = entries_[static_cast<std::size_t>(s)];
      if (e.has_dv) product_(inner[s]) += e.dv * v(c);
    }
  f -= product_;
}

}  // namespace pivot::detail
