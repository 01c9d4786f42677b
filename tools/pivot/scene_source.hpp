#pragma once
// Where `pivot run`, `check`, `scenes` and `regress` get a scene from (docs/cli.md): a file
// path, or the name of a shipped scene looked up in the scenes folders (the installed layout
// first, then the source tree the executable was built from), and the `--set` edits applied to
// the scene's JSON before it is read.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "pivot/scenes/urdf.hpp"

namespace pivot {
struct Scene;
}

namespace pivot::cli {

/// one `--set POINTER=VALUE`: a JSON pointer into the scene and its new value
using SceneEdit = std::pair<std::string, nlohmann::json>;

/// "POINTER=VALUE" with VALUE as JSON (a bare word is taken as a string); throws pivot::Error
[[nodiscard]] SceneEdit parse_scene_edit(const std::string& text);

/// the folders that may hold the shipped scenes, in lookup order:
/// <folder of the executable>/../share/pivot/scenes, then the source tree's scenes/
[[nodiscard]] std::vector<std::filesystem::path> shipped_scene_folders();

/// the first of shipped_scene_folders() that exists; empty when none does
[[nodiscard]] std::filesystem::path shipped_scene_folder();

/// `arg` as a scene file: the path itself when it exists; otherwise, when `arg` has no folder
/// part, the shipped scene `arg` or `arg`.json. Throws pivot::Error when neither exists
[[nodiscard]] std::filesystem::path resolve_scene_path(const std::string& arg);

/// reads the scene file strictly (a .urdf file as the scene of that model alone, with `urdf`'s
/// options), then, with edits, applies each (the pointer's parent must
/// exist, or be an object key that is created; array indices must exist) and reads the edited
/// scene again, so its errors still name the file and the place. Throws pivot::Error
[[nodiscard]] Scene load_scene_with_edits(const std::filesystem::path& file,
                                          const std::vector<SceneEdit>& edits,
                                          const UrdfSceneOptions& urdf = {});

/// the scene's warnings (Scene::warnings) on stderr, one line "pivot: warning: ..." each
void print_scene_warnings(const Scene& scene);

/// `scene`, read from `text` (its JSON, with `base_dir` for mesh paths), with `edits` applied
/// to that text and read again; `scene` itself when there are no edits. Throws pivot::Error
[[nodiscard]] Scene edit_scene(const Scene& scene, const std::string& text,
                               const std::filesystem::path& base_dir,
                               const std::vector<SceneEdit>& edits);

}  // namespace pivot::cli
