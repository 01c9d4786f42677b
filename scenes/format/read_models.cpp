// A scene's "models" (docs/scene-format.md, "Models"): each URDF read by the importer
// (urdf.hpp) into bodies and joints in the scene format, read then as the file's own are.
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"
#include "pivot/scenes/urdf.hpp"

namespace pivot::detail {

std::vector<SceneModel> read_models(const Context& ctx, const json& j) {
  if (!j.is_array()) ctx.fail("/models", fmt::format("expected an array (got {})", describe(j)));
  std::vector<SceneModel> models;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string ptr = "/models/" + std::to_string(i);
    std::vector<std::string> keys = {"urdf", "name", "position", "fixed_base",
                                     "collide_with_parent"};
    keys.insert(keys.end(), kOrientationKeys.begin(), kOrientationKeys.end());
    const Object o(ctx, j[i], ptr, keys);
    const std::string file = o.required_string("urdf");
    if (file.empty()) ctx.fail(o.pointer("urdf"), "expected the path of a URDF file (got \"\")");
    fs::path path(file);
    if (path.is_relative()) path = ctx.base_dir / path;
    UrdfModelOptions options;
    options.name = o.required_string("name");
    if (options.name.empty() || options.name.find('/') != std::string::npos)
      ctx.fail(o.pointer("name"),
               "expected a non-empty name without '/' (the prefix of the "
               "model's body and joint names, \"NAME/link\")");
    for (const SceneModel& m : models)
      if (m.name == options.name)
        ctx.fail(o.pointer("name"),
                 fmt::format("duplicate model name {}", pivot::quoted(options.name)));
    options.position = within(ctx, o.pointer("position"),
                              o.vec3("position", Vec3::Zero(), Range::any), kMaxLength, "m");
    options.orientation = o.orientation();
    options.fixed_base = o.boolean("fixed_base", false);
    options.collide_with_parent = o.boolean("collide_with_parent", false);
    UrdfModel model = urdf_model(path.lexically_normal(), options);
    SceneModel m;
    m.name = options.name;
    m.urdf = file;
    m.source = fmt::format("{} {} ({})", ctx.source, ptr, path.lexically_normal().string());
    m.entries = json::parse(model.json);
    m.warnings = std::move(model.warnings);
    models.push_back(std::move(m));
  }
  return models;
}

}  // namespace pivot::detail
