#pragma once
// Sweeps: many runs of one scene with some of its values changed (docs/sweeps.md). A sweep
// file names a base scene, the values to change (JSON pointers into the scene, each with a
// list or a range of values), how to combine them (a grid, or random samples) and which
// outputs to keep. This is the one place that reads sweep files, expands them into variants,
// runs a variant and formats its row of results.csv: `pivot sweep` and Python's pivot.sweep
// both call it, so their tables are the same byte for byte.
//
//   pivot::Sweep sweep = pivot::load_sweep("friction.sweep.json");
//   for (const pivot::SweepVariant& v : pivot::expand_sweep(sweep))
//     std::fputs(pivot::csv_line(pivot::run_sweep_variant(sweep, v)).c_str(), out);
//
// Errors in the sweep file throw pivot::Error naming the file and the JSON pointer, like the
// scene loader's. A variant whose scene is invalid, or whose run fails, is not an exception:
// it is a row whose status says so and whose error column holds the message.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "pivot/core/error.hpp"

namespace pivot {

/// how the values of the parameters are combined ("mode")
enum class SweepMode {
  grid,   ///< every combination; the first parameter varies slowest, the last fastest
  random  ///< "samples" independent draws, each parameter uniform over its values or range
};

/// one parameter: a JSON pointer into the base scene and the values it takes
struct SweepParameter {
  std::string pointer;              ///< RFC 6901, e.g. "/bodies/1/friction"
  std::vector<std::string> values;  ///< the values as JSON text; empty when `continuous`
  /// random mode, a range {"from", "to"} with neither "count" nor "step": uniform in [from, to]
  bool continuous = false;
  double from = 0.0;  ///< continuous: lower end
  double to = 0.0;    ///< continuous: upper end
};

/// the outputs a row keeps besides its index, parameters, status, error and hash ("keep")
struct SweepKeep {
  std::vector<std::string> summary;  ///< run totals, names of sweep_summary_keys()
  std::vector<std::string> metrics;  ///< the last step's metrics, names of sweep_metric_keys()
  bool final_state = false;          ///< every dynamic body's x … wz after the last step
};

/// a sweep file, read and checked
struct Sweep {
  std::string source;                      ///< the sweep file as given, names it in messages
  std::string scene;                       ///< "scene" as written; names variants in their errors
  std::filesystem::path scene_file;        ///< the base scene ("scene", relative to the sweep file)
  std::string scene_text;                  ///< the base scene's JSON text
  std::vector<SweepParameter> parameters;  ///< in the file's order
  SweepMode mode = SweepMode::grid;
  long samples = 0;        ///< random: the number of variants
  std::uint64_t seed = 0;  ///< random: the seed of std::mt19937_64
  SweepKeep keep;
  std::vector<std::string> state_bodies;  ///< the base scene's dynamic bodies (final_state)
};

/// one run of a sweep: its index (0-based) and each parameter's value as JSON text
struct SweepVariant {
  long index = 0;
  std::vector<std::string> values;
};

/// the row's status column
inline constexpr std::string_view kSweepOk = "ok";
inline constexpr std::string_view kSweepInvalid = "invalid";  ///< the variant's scene is rejected
inline constexpr std::string_view kSweepFailed = "failed";    ///< the run failed (non-finite state)
inline constexpr std::string_view kSweepCrashed = "crashed";  ///< the process running it died

/// the most variants a sweep may have
inline constexpr long kMaxSweepVariants = 10'000'000;

/// Reads a sweep file (docs/sweeps.md) and its base scene, which must load. Checks every
/// parameter's pointer against the base scene: it must name an existing value, or a new key of
/// an existing object. Throws pivot::Error: `FILE: /parameters/~1bodies~19~1mass: ...`.
[[nodiscard]] Sweep load_sweep(const std::filesystem::path& file);

/// the number of variants: the product of the value counts (grid), or "samples" (random)
[[nodiscard]] long sweep_size(const Sweep& sweep);

/// Variant `index` (0 ≤ index < sweep_size). Grid: the mixed-radix digits of the index, last
/// parameter fastest. Random: variant i draws one number per parameter, in order, from
/// std::mt19937_64 seeded with seed + i (u = (x >> 11) · 2⁻⁵³ in [0, 1); a range gives
/// from + u (to − from), a list its element ⌊u n⌋), the same on every platform.
[[nodiscard]] SweepVariant sweep_variant(const Sweep& sweep, long index);

/// every variant, in index order
[[nodiscard]] std::vector<SweepVariant> expand_sweep(const Sweep& sweep);

/// the variant's scene as JSON text: the base scene with each parameter's value set at its
/// pointer (an existing value replaced, or a key added to an existing object)
[[nodiscard]] std::string variant_scene_json(const Sweep& sweep, const SweepVariant& variant);

/// the names that "keep": {"summary": [...]} accepts (summary.json's keys, docs/sweeps.md)
[[nodiscard]] const std::vector<std::string>& sweep_summary_keys();
/// the names that "keep": {"metrics": [...]} accepts (metrics.csv's deterministic columns)
[[nodiscard]] const std::vector<std::string>& sweep_metric_keys();

/// the header of results.csv: index, one column per parameter (its pointer), status, error,
/// final_state_hash, then summary.NAME, metrics.NAME and final.BODY.FIELD as kept
[[nodiscard]] std::vector<std::string> sweep_columns(const Sweep& sweep);

/// Runs the variant as `pivot run` runs a scene (the same steps, the same final-state hash;
/// one thread) and returns its row, one cell per column. Never throws for the variant's own
/// faults: an invalid scene gives status "invalid", a non-finite state or another failure of
/// the run "failed", with the message in the error column and the outputs left empty.
[[nodiscard]] std::vector<std::string> run_sweep_variant(const Sweep& sweep,
                                                         const SweepVariant& variant);

/// a row for a variant that has no result of its own (status "crashed": its process died)
[[nodiscard]] std::vector<std::string> sweep_error_row(const Sweep& sweep,
                                                       const SweepVariant& variant,
                                                       std::string_view status,
                                                       std::string_view error);

/// the cells as one CSV line ending in '\n' (RFC 4180 quoting: a cell holding a comma, a
/// quote or a line break is quoted, its quotes doubled; line breaks become spaces)
[[nodiscard]] std::string csv_line(const std::vector<std::string>& cells);

/// The rows of a results.csv to resume from, by index, each as its CSV line. The header must
/// be sweep_columns(sweep) and each row's parameters those of its variant (else the file is
/// from another sweep: pivot::Error naming the line). A last line cut off before its end (a
/// killed sweep) is dropped, as are "crashed" rows (run them again) and a repeated index's
/// later row. A missing file is no rows.
[[nodiscard]] std::map<long, std::string> read_sweep_results(const Sweep& sweep,
                                                             const std::filesystem::path& file);

}  // namespace pivot
