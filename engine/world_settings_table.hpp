#pragma once
// The one description of every World setting: its C++ field, its name (the scene file's key
// in "settings", the Python attribute, the docs' row), unit, range and a one-line doc. The
// default is the field's initializer in WorldSettings (world.hpp). From this table come
//   - the World's validation of its settings (World::World, world.cpp),
//   - the scene file's reader and writer (scenes/format/read_settings.cpp,
//     scenes/format/scene_writer.cpp),
//   - the Python attributes of pivot.WorldSettings (python/src/bind_world.cpp),
// and tools/settings_tables writes from it the settings of the JSON Schema
// (scenes/schema/pivot-scene-1.schema.json), the settings tables of docs/scene-format.md and
// the WorldSettings stub (python/pivot/__init__.pyi); the test `settings: generated files`
// fails when one of them is out of step. Adding a setting is one line here (and its field).
//
// Names: a setting's `key` is its one name. The C++ field has the same name except where the
// entry's `note` says why not. Python mirrors the C++ struct: a top-level field keeps its C++
// name (python_name), a field of a nested struct (which Python does not bind) takes the key.
//
// Not in the table: the two callbacks on_failed_lcp and interrupted (hooks, set with
// World::set_failed_lcp_callback and World::set_interrupt_check), and the solver's own options
// `lemke` (lcp::LemkeOptions, documented in lcp/lemke.hpp).

#include <limits>
#include <string_view>

#include "pivot/engine/world.hpp"

namespace pivot {

/// where a setting is read from besides C++ and Python
enum class SettingScope {
  scene,   ///< a key of the scene file's "settings"
  hybrid,  ///< a key of the scene file's "settings", for the hybrid mode (its own docs table)
  api,     ///< C++ and Python only (a property of a run, not of the scene)
};

/// what a setting's value may be: min (open or closed), max, a multiple of; a number setting
/// is always finite. `null_below_zero`: a negative value means "none" (JSON null)
struct SettingRange {
  double min = -std::numeric_limits<double>::infinity();
  bool min_open = false;  ///< min < x rather than min ≤ x
  double max = std::numeric_limits<double>::infinity();
  int multiple_of = 0;           ///< 0: any
  bool null_below_zero = false;  ///< a negative value stands for null ("the pair's μ")
};

inline constexpr SettingRange kPositive{.min = 0.0, .min_open = true};
inline constexpr SettingRange kNonNegative{.min = 0.0};
inline constexpr SettingRange kAnyValue{};

struct SettingInfo {
  std::string_view key;    ///< the setting's name: scene key, docs row, Python (python_name)
  std::string_view field;  ///< the C++ member of WorldSettings, with its path
  std::string_view unit;   ///< SI unit; "" for a count, a flag, a ratio or a choice
  SettingRange range;
  SettingScope scope = SettingScope::scene;
  std::string_view doc;   ///< one line: what it does
  std::string_view note;  ///< why the field is named apart from the key, if it is
};

/// the Python attribute: the C++ field at the top level, else the key (see above)
[[nodiscard]] constexpr std::string_view python_name(const SettingInfo& s) {
  return s.field.find('.') == std::string_view::npos ? s.field : s.key;
}

/// calls visit(field, info) for every setting of `s` (a WorldSettings or a const one), in the
/// order of the docs and the scene writer. The field's type is double, int, bool, Vec3 or
/// Stabilization
// each entry names only the members it sets (designated initializers): the others keep their
// defaults, which -Wmissing-field-initializers would report for every line of the table
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
template <typename Settings, typename Visit>
void visit_settings(Settings&& s, Visit&& visit) {
  using enum SettingScope;
  // clang-format off
  visit(s.time_step, SettingInfo{.key = "dt", .field = "time_step", .unit = "s", .range = kPositive,
        .doc = "time step h; in a scene at most the duration",
        .note = "the engine's h throughout (StepContext::h, World::set_time_step); dt is the scene file's short key"});
  visit(s.gravity, SettingInfo{.key = "gravity", .field = "gravity", .unit = "m/s²", .range = {.min = -1e9, .max = 1e9},
        .doc = "gravity, world; each component within ±1e9 (docs/limits.md)"});
  visit(s.friction_directions, SettingInfo{.key = "friction_directions", .field = "friction_directions", .unit = "",
        .range = {.min = 2, .max = 64, .multiple_of = 2},
        .doc = "friction directions per contact, each with its negative; 2 in a planar scene (±t in the plane)"});
  visit(s.stabilization, SettingInfo{.key = "stabilization", .field = "stabilization", .unit = "",
        .doc = "position drift correction: post-stabilization LCP (Cline eq. 3.7), Baumgarte (Cline §3.2), none"});
  visit(s.hybrid, SettingInfo{.key = "hybrid", .field = "hybrid", .unit = "",
        .doc = "reduced contact coordinates (Kry & Pai 2002): a free body with a smooth surface resting on one fixed body with a smooth surface, or two free bodies touching only each other, is advanced on its contact manifold instead of by the LCP (docs/hybrid.md \"The World switch\"); none in a planar scene"});
  visit(s.baumgarte_alpha, SettingInfo{.key = "baumgarte_alpha", .field = "baumgarte_alpha", .unit = "1/s", .range = kNonNegative,
        .doc = "α of stabilization \"baumgarte\", J v⁺ = −α g; the step uses min(α, 1/dt) (docs/step.md \"5. Stabilization\")"});
  visit(s.implicit_forces, SettingInfo{.key = "implicit_forces", .field = "implicit_forces", .unit = "",
        .doc = "linearly implicit step for springs (Cline §2.7.4) and the energy-conserving midpoint gyroscopic term; false: both explicit"});
  visit(s.contact_margin, SettingInfo{.key = "contact_margin", .field = "contact_margin", .unit = "m", .range = kNonNegative,
        .doc = "contacts are reported with gap ≤ this (speculative contacts)"});
  visit(s.restitution_threshold, SettingInfo{.key = "restitution_threshold", .field = "restitution_threshold", .unit = "m/s", .range = kNonNegative,
        .doc = "Newton restitution applies to contacts approaching faster than this"});
  visit(s.post_step_cap, SettingInfo{.key = "post_step_cap", .field = "post_step_cap", .unit = "m", .range = kNonNegative,
        .doc = "largest correction per post-step (rad at unit lever); larger errors take repeated post-steps (Cline §5.2.3); 0: no cap"});
  visit(s.max_post_steps, SettingInfo{.key = "max_post_steps", .field = "max_post_steps", .unit = "", .range = {.min = 1, .max = kMaxPostSteps},
        .doc = "post-steps per step at most (with a cap)"});
  visit(s.limit_margin, SettingInfo{.key = "limit_margin", .field = "limit_margin", .unit = "m", .range = kNonNegative,
        .doc = "joint limits enter the LCP within this distance of their bound (rad for angles)"});
  visit(s.hybrid_entry_steps, SettingInfo{.key = "hybrid_entry_steps", .field = "hybrid_entry_steps", .unit = "", .range = kNonNegative, .scope = hybrid,
        .doc = "consecutive LCP steps of one compressive contact before a pair enters reduced mode; 0: at the start of the first step whose contacts qualify, from the state as given"});
  visit(s.hybrid_point_tolerance, SettingInfo{.key = "hybrid_point_tolerance", .field = "hybrid_point_tolerance", .unit = "m", .range = kPositive, .scope = hybrid,
        .doc = "entry: all contact points within this of one point, and the smooth contact's gap at entry below it"});
  visit(s.hybrid_max_normal_speed, SettingInfo{.key = "hybrid_max_normal_speed", .field = "hybrid_max_normal_speed", .unit = "m/s", .range = kNonNegative, .scope = hybrid,
        .doc = "largest relative normal speed the entry projection may drop"});
  visit(s.hybrid_integrator.dt_max, SettingInfo{.key = "hybrid_dt_max", .field = "hybrid_integrator.dt_max", .unit = "s", .range = kPositive, .scope = hybrid,
        .doc = "largest step of the reduced integrator (adaptive RK4; Kry & Pai used 10 ms for the rattleback); at least its smallest step, 1e-7 s",
        .note = "a field of the integrator's settings (ReducedStepSettings), flattened with the prefix hybrid_"});
  visit(s.hybrid_integrator.tolerance, SettingInfo{.key = "hybrid_tolerance", .field = "hybrid_integrator.tolerance", .unit = "", .range = {.min = kMinReducedTolerance}, .scope = hybrid,
        .doc = "the reduced integrator's local error per step, relative to 1 + |component|; smaller than 1e-14 cannot be met in double precision (docs/limits.md)",
        .note = "a field of ReducedStepSettings, flattened with the prefix hybrid_"});
  visit(s.hybrid_friction.mu_static, SettingInfo{.key = "hybrid_mu_static", .field = "hybrid_friction.mu_static", .unit = "",
        .range = {.min = 0.0, .null_below_zero = true}, .scope = hybrid,
        .doc = "no slip holds while |f_t| ≤ μ_static f_n; null: the pair's μ",
        .note = "a field of the friction law (ContactFriction), flattened with the prefix hybrid_; null is −1 in C++"});
  visit(s.hybrid_friction.mu_spin_static, SettingInfo{.key = "hybrid_mu_spin_static", .field = "hybrid_friction.mu_spin_static", .unit = "m", .range = kNonNegative, .scope = hybrid,
        .doc = "no spin holds while |τ_n| ≤ μ_spin_static f_n",
        .note = "a field of ContactFriction, flattened with the prefix hybrid_"});
  visit(s.hybrid_friction.slip_threshold, SettingInfo{.key = "hybrid_slip_threshold", .field = "hybrid_friction.slip_threshold", .unit = "m/s", .range = kNonNegative, .scope = hybrid,
        .doc = "sliding turns to rolling without slip below this slip speed",
        .note = "a field of ContactFriction, flattened with the prefix hybrid_"});
  visit(s.hybrid_friction.spin_threshold, SettingInfo{.key = "hybrid_spin_threshold", .field = "hybrid_friction.spin_threshold", .unit = "rad/s", .range = kNonNegative, .scope = hybrid,
        .doc = "rolling turns to rolling without spin below this relative spin; 0: never",
        .note = "a field of ContactFriction, flattened with the prefix hybrid_"});
  visit(s.hybrid_friction.min_slide_time, SettingInfo{.key = "hybrid_min_slide_time", .field = "hybrid_friction.min_slide_time", .unit = "s", .range = kNonNegative, .scope = hybrid,
        .doc = "hysteresis after no slip turns to sliding",
        .note = "a field of ContactFriction, flattened with the prefix hybrid_"});
  visit(s.hybrid_friction.rolling, SettingInfo{.key = "hybrid_rolling", .field = "hybrid_friction.rolling", .unit = "", .scope = hybrid,
        .doc = "allow the rolling modes; false: sliding only",
        .note = "a field of ContactFriction, flattened with the prefix hybrid_"});
  visit(s.hybrid_friction.slip_regularization, SettingInfo{.key = "hybrid_slip_regularization", .field = "hybrid_friction.slip_regularization", .unit = "m/s", .range = kNonNegative, .scope = hybrid,
        .doc = "sliding friction ramps from 0 to μ f_n over this slip speed; 0: plain Coulomb",
        .note = "a field of ContactFriction, flattened with the prefix hybrid_"});
  visit(s.hybrid_torques.mu_rolling, SettingInfo{.key = "hybrid_mu_rolling", .field = "hybrid_torques.mu_rolling", .unit = "m", .range = kNonNegative, .scope = hybrid,
        .doc = "rolling friction μ_r: a torque −μ_r f_n against the rolling (Kry 2000 eqs. 4.27-4.30); reduced coordinates only, the LCP has none",
        .note = "a field of FrictionTorques, flattened with the prefix hybrid_"});
  visit(s.hybrid_torques.mu_spinning, SettingInfo{.key = "hybrid_mu_spinning", .field = "hybrid_torques.mu_spinning", .unit = "m", .range = kNonNegative, .scope = hybrid,
        .doc = "spinning friction μ_s: a torque −μ_s f_n about the normal against the spin; reduced coordinates only, the LCP has none",
        .note = "a field of FrictionTorques, flattened with the prefix hybrid_"});
  visit(s.hybrid_torques.stick, SettingInfo{.key = "hybrid_rolling_stick", .field = "hybrid_torques.stick", .unit = "", .scope = hybrid,
        .doc = "static rolling friction: a reduced pair rolling without slip below 1 mrad/s stops (the mode stuck) while the contact can hold it, and rolls again when it cannot; needs hybrid_mu_rolling > 0 and a spin limit > 0 (docs/hybrid.md)",
        .note = "a field of FrictionTorques, flattened with the prefix hybrid_ (\"stick\" alone says nothing in a flat list)"});
  visit(s.hybrid_torques.regularization, SettingInfo{.key = "hybrid_torque_regularization", .field = "hybrid_torques.regularization", .unit = "rad/s", .range = kPositive, .scope = api,
        .doc = "below this relative rotation the friction torques fade out linearly (w_reg, Kry 2000 §4.4)",
        .note = "a field of FrictionTorques, flattened with the prefix hybrid_"});
  visit(s.dimension, SettingInfo{.key = "dimension", .field = "dimension", .unit = "", .range = {.min = 2, .max = 3}, .scope = api,
        .doc = "3, or 2 for a planar world in the x–z plane (docs/planar.md); a scene gives it at its top level, beside its shapes"});
  visit(s.friction_direction_offset, SettingInfo{.key = "friction_direction_offset", .field = "friction_direction_offset", .unit = "rad",
        .doc = "the friction directions are turned by this angle about the normal from their default"});
  visit(s.threads, SettingInfo{.key = "threads", .field = "threads", .unit = "", .range = {.min = 0, .max = kMaxThreads}, .scope = api,
        .doc = "threads for independent islands and the narrow phase; 0: every core (the results are the same for any count; pivot run --threads)"});
  visit(s.small_islands, SettingInfo{.key = "small_islands", .field = "small_islands", .unit = "", .scope = api,
        .doc = "islands of a few bodies and rows take the small dense path (docs/step.md §3); false: all the general sparse one"});
  visit(s.record_lcps, SettingInfo{.key = "record_lcps", .field = "record_lcps", .unit = "", .scope = api,
        .doc = "keep a copy of every island's dynamics LCP of the last step (World::recorded_lcps)"});
  visit(s.profile, SettingInfo{.key = "profile", .field = "profile", .unit = "", .scope = api,
        .doc = "time the stages of every step (StepReport::stages)"});
  // clang-format on
}
#pragma GCC diagnostic pop

/// throws pivot::Error naming the first setting out of its range (the table's), or a rule
/// between settings that fails (World::World calls it)
void validate(const WorldSettings& s);

/// "post", "baumgarte", "none" to a Stabilization; false for another name
[[nodiscard]] bool stabilization_from_string(std::string_view name, Stabilization& out);

}  // namespace pivot
