// Mesh files other than OBJ (collision/mesh_file.hpp), read by Assimp (Debian's libassimp-dev).
// Assimp opens every file through BoundedIo, so a glTF's buffers obey the same 64 MiB bound as
// the main file; its logger is never created, so nothing is printed.
#include <cstring>
#include <memory>

#include <assimp/DefaultIOSystem.h>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/core.h>
#include <assimp/Importer.hpp>

#include "pivot/collision/mesh_file.hpp"
#include "pivot/core/error.hpp"

namespace pivot::detail {
namespace {

/// Assimp's file access, each file read whole by read_mesh_text (bounded); a file over the
/// bound is remembered, so that the error names it instead of Assimp's "cannot open"
class BoundedIo : public Assimp::DefaultIOSystem {
 public:
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (mode == nullptr || mode[0] != 'r') return nullptr;  // Pivot never writes
    try {
      const std::string bytes = read_mesh_text(file);
      auto* buffer = new uint8_t[bytes.size() + 1];
      std::memcpy(buffer, bytes.data(), bytes.size());
      return new Assimp::MemoryIOStream(buffer, bytes.size(), /*own=*/true);
    } catch (const Error& e) {
      if (refused_.empty()) refused_ = e.what();
      return nullptr;
    }
  }
  [[nodiscard]] const std::string& refused() const { return refused_; }

 private:
  std::string refused_;
};

using Mat4 = Eigen::Matrix4d;

Mat4 to_matrix(const aiMatrix4x4& m) {
  Mat4 out;
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned c = 0; c < 4; ++c) out(r, c) = static_cast<double>(m[r][c]);
  return out;
}

/// every triangle of the node's meshes and its children's, placed by the composed transforms
/// (X_parent · X_node, Assimp's column-vector convention)
void collect(const aiScene& scene, const aiNode& node, const Mat4& X_parent, TriangleMesh& out,
             const std::string& path) {
  const Mat4 X = X_parent * to_matrix(node.mTransformation);
  for (unsigned k = 0; k < node.mNumMeshes; ++k) {
    if (node.mMeshes[k] >= scene.mNumMeshes)
      throw Error(path, "", "a node names a mesh the file does not have");
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[k]];
    const int first = static_cast<int>(out.vertices.size());
    for (unsigned i = 0; i < mesh.mNumVertices; ++i) {
      const aiVector3D& v = mesh.mVertices[i];
      const Eigen::Vector4d p = X * Eigen::Vector4d(v.x, v.y, v.z, 1.0);
      out.vertices.emplace_back(p.x(), p.y(), p.z());
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices < 3) continue;  // a point or a line: no surface
      // polygons are triangulated by aiProcess_Triangulate; fan any that is left
      for (unsigned c = 1; c + 1 < face.mNumIndices; ++c) {
        std::array<int, 3> t{};
        const unsigned corner[3] = {0, c, c + 1};
        for (int j = 0; j < 3; ++j) {
          const unsigned index = face.mIndices[corner[j]];
          if (index >= mesh.mNumVertices)
            throw Error(path, "",
                        fmt::format("a face's vertex index {} is out of range ({} vertices)", index,
                                    mesh.mNumVertices));
          t[static_cast<std::size_t>(j)] = first + static_cast<int>(index);
        }
        out.triangles.push_back(t);
      }
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    if (node.mChildren[c] != nullptr) collect(scene, *node.mChildren[c], X, out, path);
}

}  // namespace

TriangleMesh read_assimp_file(const std::string& path, const std::string& extension) {
  Assimp::Importer importer;
  auto* io = new BoundedIo;
  importer.SetIOHandler(io);  // the importer owns it
  // no vertex joining (read_mesh_file welds exact duplicates itself, in file order) and no
  // pre-transformed vertices (the node transforms are composed here in double precision)
  const aiScene* scene =
      importer.ReadFile(path, aiProcess_Triangulate | aiProcess_ValidateDataStructure);
  if (scene == nullptr) {
    if (!io->refused().empty()) throw Error(io->refused());
    std::string message = importer.GetErrorString();
    while (!message.empty() &&
           (message.back() == '\n' || message.back() == '\r' || message.back() == ' '))
      message.pop_back();
    throw Error(path, "",
                fmt::format("cannot read the file as {}{}{}", extension.substr(1),
                            message.empty() ? "" : ": ", message));
  }
  TriangleMesh mesh;
  if (scene->mRootNode != nullptr) {
    // Assimp turns a Collada file to +y up (its <up_axis>, with its <unit> in metres); glTF
    // is +y up by definition. Pivot is +z up: (x, y, z) → (x, −z, y).
    Mat4 X_up = Mat4::Identity();
    if (extension == ".dae" || extension == ".gltf" || extension == ".glb")
      X_up.topLeftCorner<3, 3>() << 1, 0, 0, 0, 0, -1, 0, 1, 0;
    collect(*scene, *scene->mRootNode, X_up, mesh, path);
  }
  if (mesh.triangles.empty()) throw Error(path, "", "no triangles in the file");
  return mesh;
}

}  // namespace pivot::detail
