#pragma once
// The page `pivot serve` sends at `/`: the viewer bundle (viewer_bundle.hpp, the same script
// replay.html inlines) with a marker that starts its live mode, which connects to `/ws`.

#include <string>
#include <string_view>

namespace pivot::cli {

/// the HTML page; without the viewer bundle (pivot built without Node.js) a page that says why
[[nodiscard]] std::string live_page(std::string_view scene_name);

}  // namespace pivot::cli
