#include "pivot/engine/islands.hpp"

#include <numeric>

namespace pivot::detail {

IslandBuilder::IslandBuilder(int bodies) : parent_(bodies) {
  std::iota(parent_.begin(), parent_.end(), 0);
}

int IslandBuilder::root(int i) {
  while (parent_[i] != i) {
    parent_[i] = parent_[parent_[i]];
    i = parent_[i];
  }
  return i;
}

void IslandBuilder::connect(int a, int b) {
  if (a < 0 || b < 0) return;
  const int ra = root(a), rb = root(b);
  if (ra != rb) parent_[std::max(ra, rb)] = std::min(ra, rb);
}

std::vector<std::vector<int>> IslandBuilder::islands(const std::vector<bool>& excluded) {
  const int n = static_cast<int>(parent_.size());
  std::vector<int> slot(n, -1);
  std::vector<std::vector<int>> out;
  for (int i = 0; i < n; ++i) {
    if (excluded[i]) continue;
    const int r = root(i);
    if (slot[r] < 0) {
      slot[r] = static_cast<int>(out.size());
      out.emplace_back();
    }
    out[slot[r]].push_back(i);
  }
  return out;
}

}  // namespace pivot::detail
