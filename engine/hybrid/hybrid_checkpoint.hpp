#pragma once
// The hybrid switch's state in a World checkpoint (internal; docs/checkpoints.md): the reduced
// pairs (their contact model, contact coordinates and rates, friction mode, the integrator's
// next step size, the next poses), the exit impulses, the per-body counters and the events not
// yet reported, as the bytes of checkpoint_bytes.hpp. A pair's smooth surfaces are not written:
// they are the model's, taken from the restoring World's bodies.

#include "pivot/engine/checkpoint_bytes.hpp"
#include "pivot/engine/hybrid/hybrid_switch.hpp"
#include "pivot/engine/rigid_body_set.hpp"

namespace pivot::detail {

void write_hybrid_state(ByteWriter& w, const HybridSwitch::State& s);

/// reads what write_hybrid_state wrote; throws pivot::Error ("checkpoint: ...") for bytes that
/// run out, a pair whose bodies are out of range or have no smooth surface, a patch out of its
/// surface's range, an unknown friction mode or a non-finite number
[[nodiscard]] HybridSwitch::State read_hybrid_state(ByteReader& r, const RigidBodySet& bodies);

}  // namespace pivot::detail
