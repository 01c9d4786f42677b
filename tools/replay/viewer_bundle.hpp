#pragma once
// The replay viewer's script (viewer/, bundled by esbuild), embedded into pivot by the build
// (tools/cmake/viewer_bundle.cmake generates the definitions).

#include <string_view>

namespace pivot::cli {

/// the bundled viewer (one script, safe to inline in a <script> element); empty when pivot was
/// built without it
extern const std::string_view kViewerBundle;
/// why kViewerBundle is empty, one sentence; empty when the viewer is there
extern const std::string_view kViewerUnavailable;

}  // namespace pivot::cli
