// Wavefront OBJ meshes (collision/mesh_file.hpp): Pivot's own reader rather than Assimp's,
// because Debian's Assimp stores coordinates as 32-bit floats and gives one vertex per face
// corner, while an OBJ file is text that may carry every digit of a double (the shipped Loop
// control meshes are written to 17 digits) and numbers its vertices. This reader keeps both:
// each coordinate is the double nearest to its decimal (core/number_text.hpp), and vertex i of
// the mesh is the file's i-th `v` record.
#include <sstream>

#include <fmt/core.h>

#include "pivot/collision/mesh_file.hpp"
#include "pivot/core/error.hpp"
#include "pivot/core/number_text.hpp"

namespace pivot::detail {

TriangleMesh read_obj_text(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  TriangleMesh mesh;
  std::string line;
  int line_no = 0;
  auto fail = [&](const std::string& what) {
    throw Error(fmt::format("{}:{}: {}", path, line_no, what));
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream ls(line);
    std::string key;
    if (!(ls >> key) || key[0] == '#') continue;
    if (key == "v") {
      Vec3 v;
      for (int k = 0; k < 3; ++k) {
        std::string tok;
        if (!(ls >> tok)) fail("a vertex needs 3 coordinates");
        const std::optional<double> x = read_number(tok);
        if (!x) fail(fmt::format("bad vertex coordinate \"{}\"", tok));
        if (!std::isfinite(*x)) fail(fmt::format("vertex coordinate \"{}\" is not finite", tok));
        v[k] = *x;
      }
      mesh.vertices.push_back(v);
    } else if (key == "f") {
      std::vector<int> face;
      std::string tok;
      while (ls >> tok) {
        // i, i/t, i/t/n or i//n: only the vertex index matters
        const std::string idx = tok.substr(0, tok.find('/'));
        long value = 0;
        try {
          std::size_t used = 0;
          value = std::stol(idx, &used);
          if (used != idx.size()) throw std::invalid_argument(idx);
        } catch (const std::exception&) {
          fail(fmt::format("bad face vertex \"{}\"", tok));
        }
        const long count = static_cast<long>(mesh.vertices.size());
        // 1-based; negative counts back from the last vertex read so far
        const long index = value > 0 ? value - 1 : count + value;
        if (value == 0 || index < 0 || index >= count)
          fail(fmt::format("face vertex index {} out of range ({} vertices so far)", value, count));
        face.push_back(static_cast<int>(index));
      }
      if (face.size() < 3)
        fail(fmt::format("a face needs at least 3 vertices (got {})", face.size()));
      for (std::size_t k = 1; k + 1 < face.size(); ++k)  // fan from the first vertex
        mesh.triangles.push_back({face[0], face[k], face[k + 1]});
    }
    // vt, vn, o, g, s, usemtl, mtllib, l, ...: not needed for collision
  }
  if (mesh.triangles.empty()) throw Error(fmt::format("{}: no faces in the file", path));
  return mesh;
}

}  // namespace pivot::detail
