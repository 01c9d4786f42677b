// The variants of a sweep (docs/sweeps.md "Variants"): a grid's combinations in mixed-radix
// order, or random draws that are the same on every compiler and platform, and a variant's
// scene as the base scene with its values set.

#include <fmt/core.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/sweep.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

namespace pivot {
namespace {

/// u in [0, 1) from one output x of std::mt19937_64: its top 53 bits over 2⁵³, exact in a
/// double. std::mt19937_64's output sequence is fixed by the C++ standard; the
/// std::uniform_*_distribution mappings are not (they differ between standard libraries), so
/// this mapping is written out here.
double unit_interval(std::uint64_t x) {
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

}  // namespace

long sweep_size(const Sweep& sweep) {
  if (sweep.mode == SweepMode::random) return sweep.samples;
  long n = 1;
  for (const SweepParameter& p : sweep.parameters) n *= static_cast<long>(p.values.size());
  return n;
}

SweepVariant sweep_variant(const Sweep& sweep, long index) {
  if (index < 0 || index >= sweep_size(sweep))
    throw Error(fmt::format("{}: there is no variant {} (the sweep has {}: 0 to {})", sweep.source,
                            index, sweep_size(sweep), sweep_size(sweep) - 1));
  SweepVariant v;
  v.index = index;
  v.values.resize(sweep.parameters.size());
  if (sweep.mode == SweepMode::grid) {
    // index = Σ d_i Π_{j>i} n_j: the last parameter's digit changes fastest
    long rest = index;
    for (std::size_t i = sweep.parameters.size(); i-- > 0;) {
      const auto n = static_cast<long>(sweep.parameters[i].values.size());
      v.values[i] = sweep.parameters[i].values[static_cast<std::size_t>(rest % n)];
      rest /= n;
    }
    return v;
  }
  // random: variant i has its own generator, seeded with seed + i (mod 2⁶⁴), so any variant is
  // drawn without the ones before it; one draw per parameter, in the file's order
  std::mt19937_64 generator(sweep.seed + static_cast<std::uint64_t>(index));
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
    const SweepParameter& p = sweep.parameters[i];
    const double u = unit_interval(generator());
    if (p.continuous) {
      // from + u (to − from) ∈ [from, to] (rounding can reach `to` when u is close to 1)
      v.values[i] = nlohmann::json(p.from + u * (p.to - p.from)).dump();
    } else {
      // element ⌊u n⌋ of the n values (u n can round up to n when u is within 2⁻⁵³ of 1)
      const std::size_t n = p.values.size();
      v.values[i] = p.values[std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)))];
    }
  }
  return v;
}

std::vector<SweepVariant> expand_sweep(const Sweep& sweep) {
  std::vector<SweepVariant> variants;
  const long n = sweep_size(sweep);
  variants.reserve(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) variants.push_back(sweep_variant(sweep, i));
  return variants;
}

std::string variant_scene_json(const Sweep& sweep, const SweepVariant& variant) {
  detail::ojson doc = detail::ojson::parse(sweep.scene_text);
  for (std::size_t i = 0; i < sweep.parameters.size(); ++i) {
    try {
      detail::pointer_target(doc, sweep.parameters[i].pointer) =
          detail::ojson::parse(variant.values.at(i));
    } catch (const std::invalid_argument& e) {
      // checked by load_sweep on the base scene; an earlier parameter can still remove the
      // path of a later one (e.g. /bodies/0/shape set to a sphere, then
      // /bodies/0/shape/half_extents)
      throw Error(sweep.source,
                  "/parameters/" + detail::escape_pointer_token(sweep.parameters[i].pointer),
                  e.what());
    }
  }
  return doc.dump();
}

}  // namespace pivot
