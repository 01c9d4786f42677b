#pragma once
// Islands: bodies connected through joints, contacts or coupled forces are solved together;
// everything else separately (smaller LCPs, and resting bodies change nothing of the others).
// Fixed bodies and the world never connect islands.

#include <vector>

namespace pivot::detail {

/// union-find over body indices 0 … n−1
class IslandBuilder {
 public:
  explicit IslandBuilder(int bodies);
  /// joins a and b when both are ≥ 0 and not excluded (fixed)
  void connect(int a, int b);
  /// the islands of the bodies not excluded, each sorted ascending, in order of their smallest
  /// body; `excluded[i]` marks fixed bodies
  [[nodiscard]] std::vector<std::vector<int>> islands(const std::vector<bool>& excluded);
  /// the island representative of body i (valid after islands())
  [[nodiscard]] int root(int i);

 private:
  std::vector<int> parent_;
};

}  // namespace pivot::detail
