// Fuzz target: the scene loader on arbitrary bytes (docs/reliability.md).
//
// Contract (scenes/format/scene.hpp): parse_scene either returns a Scene or throws pivot::Error
// with a non-empty message; a loaded scene builds into a World or build_world throws pivot::Error;
// resolved_scene_json of a loaded scene loads back ("it loads back to the same scene") and
// resolves to the same text. Any other exception, a crash or a sanitizer report is a finding.
// Seeds: the shipped scenes (scenes/*.json, linked into the build's seed folder) and
// tests/fuzz/corpus/scene_loader; dictionary: the schema's keys and enumerations
// (make_scene_dict.py).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"

namespace {

// relative mesh paths resolve here: a folder that does not exist, so a fuzzed "obj" can only
// fail to open (absolute paths are still read, as a user's would be)
constexpr const char* kBaseDir = "/nonexistent/pivot-fuzz";

void require_message(const pivot::Error& e, const char* stage) {
  if (std::string_view(e.what()).empty())
    pivot::fuzz::finding(std::string(stage) + ": pivot::Error with an empty message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pivot::Scene scene;
  try {
    scene = pivot::parse_scene(text, kBaseDir, "<fuzz>");
  } catch (const pivot::Error& e) {
    require_message(e, "parse_scene");
    return 0;
  } catch (const std::exception& e) {
    pivot::fuzz::finding(std::string("parse_scene threw a non-pivot exception: ") + e.what());
  } catch (...) {
    pivot::fuzz::finding("parse_scene threw a non-std exception");
  }

  // a loaded scene builds, or says why not
  try {
    const pivot::World world = pivot::build_world(scene);
    (void)world;
  } catch (const pivot::Error& e) {
    require_message(e, "build_world");
  } catch (const std::exception& e) {
    pivot::fuzz::finding(std::string("build_world threw a non-pivot exception: ") + e.what());
  }

  // the writer's promise: the resolved scene loads back and resolves to the same text
  std::string resolved;
  try {
    resolved = pivot::resolved_scene_json(scene);
    const pivot::Scene again = pivot::parse_scene(resolved, kBaseDir, "<resolved>");
    if (pivot::resolved_scene_json(again) != resolved)
      pivot::fuzz::finding("the resolved scene does not resolve to the same text:\n" + resolved);
  } catch (const pivot::Error& e) {
    pivot::fuzz::finding(std::string("the resolved scene does not load back: ") + e.what() +
                         "\n" + resolved);
  } catch (const std::exception& e) {
    pivot::fuzz::finding(std::string("resolving threw a non-pivot exception: ") + e.what());
  }
  return 0;
}
