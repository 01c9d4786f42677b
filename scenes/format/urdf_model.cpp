// A URDF robot → the scene format's bodies and joints (urdf.hpp, docs/models.md).
//
// Frames at the zero joint configuration, composed from the root: X_WL = X_W,root ∏ X_PJ (a
// joint's origin is its child link's frame). Links joined by fixed joints form one weld group,
// simulated as one body B whose origin is the group's centre of mass c and whose axes are the
// principal axes of the group's inertia about c:
//   m = Σ m_i,   c = Σ m_i c_i / m,
//   I_c = Σ R_i I_i R_iᵀ + m_i (|d_i|² E − d_i d_iᵀ),  d_i = c_i − c   (parallel axes)
// with R_i the rotation of link i's inertial frame and I_i its tensor there; I_c = V Λ Vᵀ
// (symmetric eigen-decomposition, det V = +1) gives R_WB = R_WG V and inertia_diag = Λ. The
// collision geometry of the group's links becomes the body's shape placed in B (a compound
// when there are several, or one off the body's origin).
#include <console_bridge/console.h>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <urdf_parser/urdf_parser.h>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/urdf.hpp"

namespace pivot {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// a rigid transform X_AB: B's origin and rotation in A
struct Frame {
  Vec3 p = Vec3::Zero();
  Quat q = Quat::Identity();
};

Frame operator*(const Frame& a, const Frame& b) {
  return {a.p + a.q * b.p, a.q * b.q};
}

Frame inverse(const Frame& f) {
  const Quat qi = f.q.conjugate();
  return {-(qi * f.p), qi};
}

json vec_json(const Vec3& v) {
  return json::array({v.x(), v.y(), v.z()});
}
json quat_json(const Quat& q) {
  return json::array({q.w(), q.x(), q.y(), q.z()});
}

std::string link_place(const std::string& name) {
  return "link " + pivot::quoted(name);
}
std::string joint_place(const std::string& name) {
  return "joint " + pivot::quoted(name);
}

// urdfdom reports through console_bridge: its error messages are kept here (the library never
// prints) and become the message of the pivot::Error, the innermost first ("Unable to parse
// component [nan] ...; Malformed parent origin element for joint [j]")
class KeepMessages final : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level < console_bridge::CONSOLE_BRIDGE_LOG_ERROR || text.empty()) return;
    if (errors.find(text) != std::string::npos || errors.size() > 1000) return;
    errors += (errors.empty() ? "" : "; ") + text;
  }
  std::string errors;
};

urdf::ModelInterfaceSharedPtr parse_file(const fs::path& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) throw Error(file.string(), "", "is a folder, not a URDF file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxSceneBytes)
    throw Error(file.string(), "",
                "the file is larger than the limit for a scene (docs/limits.md)");
  KeepMessages messages;
  console_bridge::useOutputHandler(&messages);
  urdf::ModelInterfaceSharedPtr model;
  try {
    model = urdf::parseURDF(text.str());
  } catch (const std::exception& e) {
    messages.errors += (messages.errors.empty() ? "" : "; ") + std::string(e.what());
  }
  console_bridge::restorePreviousOutputHandler();
  // an error urdfdom logged while still returning a model (it drops a <collision> whose
  // geometry it could not read, say) is an error too: nothing is dropped silently
  if (!model || !messages.errors.empty())
    throw Error(file.string(), "urdf",
                messages.errors.empty() ? "not a valid URDF robot" : messages.errors);
  return model;
}

/// the reading of one URDF: the file for messages, the options, and what is built
class Importer {
 public:
  Importer(fs::path file, const UrdfModelOptions& options)
      : file_(std::move(file)), options_(options) {
    if (!options_.name.empty()) prefix_ = options_.name + "/";
  }

  UrdfModel run();

  /// the lowest z of the collision geometry in world: primitives in closed form, meshes by
  /// their vertices (read from their files here, only when asked)
  double lowest_z() const;

 private:
  struct Geometry {
    json shape;
    Frame X_WS;  // the shape's frame in world
  };
  struct PlacedMesh {
    fs::path file;
    Vec3 scale;  // per axis, non-zero (negative mirrors)
    Frame X_WS;
  };
  struct Group {
    std::string root;                 // the link whose name the body takes
    bool fixed = false;               // welded to the world
    std::vector<std::string> links;   // the root first
    std::vector<std::string> movers;  // the joint that moves the group (empty: none)
  };

  [[noreturn]] void fail(const std::string& place, const std::string& what) const {
    throw Error(file_.string(), place, what);
  }
  Frame frame(const urdf::Pose& pose, const std::string& place) const;
  /// `collision`: the geometry counts for the lowest point of the model
  json shape_json(const urdf::Geometry* g, const std::string& place, const Frame& X_WS,
                  bool collision = true);
  json primitive_or_mesh_json(const urdf::Geometry* g, const std::string& place, const Frame& X_WS);
  fs::path mesh_path(const std::string& filename, const std::string& place) const;
  void check_inertial(const urdf::Link& link) const;
  /// the scene name of a group's body: PREFIX/root, or for a root link named "world" in a
  /// model without prefix ("world" is the scene's world) its first welded link's name, or
  /// "world_link"
  std::string body_name(const Group& group) const;
  json body_json(const Group& group);
  json joint_json(const urdf::Joint& joint);

  fs::path file_;
  UrdfModelOptions options_;
  std::string prefix_;
  urdf::ModelInterfaceSharedPtr model_;
  std::map<std::string, Frame> X_WL_;    // every link's frame at zero joints
  std::map<std::string, int> group_of_;  // link → weld group
  std::vector<Group> groups_;
  std::vector<std::string> warnings_;
  double lowest_z_ = INFINITY;                // of the primitives
  std::vector<PlacedMesh> collision_meshes_;  // measured by lowest_z()
};

double Importer::lowest_z() const {
  double z = lowest_z_;
  for (const PlacedMesh& m : collision_meshes_) {
    // the reader scales by |s| (> 0); a negative component mirrors the vertex
    const Vec3 sign = m.scale.cwiseSign();
    for (const Vec3& v : load_mesh_points(m.file.string(), m.scale.cwiseAbs()))
      z = std::min(z, (m.X_WS.p + m.X_WS.q * Vec3(v.cwiseProduct(sign))).z());
  }
  return z;
}

Frame Importer::frame(const urdf::Pose& pose, const std::string& place) const {
  const Vec3 p(pose.position.x, pose.position.y, pose.position.z);
  Quat q(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  if (!p.allFinite())
    fail(place + ": origin: xyz",
         fmt::format("expected 3 finite numbers (got {} {} {})", p.x(), p.y(), p.z()));
  if (!q.coeffs().allFinite() || !(std::abs(q.norm() - 1.0) < 1e-6))
    fail(place + ": origin: rpy", "expected 3 finite angles");
  q.normalize();
  return {p, q};
}

fs::path Importer::mesh_path(const std::string& filename, const std::string& place) const {
  const fs::path dir = file_.has_parent_path() ? file_.parent_path() : fs::path(".");
  std::error_code ec;
  fs::path path;
  constexpr std::string_view package = "package://", file_uri = "file://";
  if (filename.rfind(package, 0) == 0) {
    // package://PKG/rest: the nearest ancestor folder named PKG, or holding a folder PKG
    const std::string rest = filename.substr(package.size());
    const std::size_t slash = rest.find('/');
    const std::string pkg = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    for (fs::path d = fs::absolute(dir, ec).lexically_normal(); !d.empty(); d = d.parent_path()) {
      if (d.filename() == pkg) {
        path = d / inside;
        break;
      }
      if (fs::is_directory(d / pkg, ec)) {
        path = d / pkg / inside;
        break;
      }
      if (d == d.parent_path()) break;
    }
    if (path.empty())
      fail(place + ": filename",
           fmt::format("no folder of package {} above the URDF's folder", pivot::quoted(pkg)));
  } else {
    path = filename.rfind(file_uri, 0) == 0 ? fs::path(filename.substr(file_uri.size()))
                                            : fs::path(filename);
    if (path.is_relative()) path = dir / path;
  }
  const fs::path absolute = fs::absolute(path, ec).lexically_normal();
  if (!fs::is_regular_file(absolute, ec) || !std::ifstream(absolute))
    fail(place + ": filename",
         fmt::format("cannot read the mesh file {}", pivot::quoted(absolute.string(), 256)));
  return absolute;
}

// a URDF geometry as a scene shape; X_WS places it, for the lowest point of the model
json Importer::shape_json(const urdf::Geometry* g, const std::string& place, const Frame& X_WS,
                          bool collision) {
  const double lowest_before = lowest_z_;
  const std::size_t meshes_before = collision_meshes_.size();
  json shape = primitive_or_mesh_json(g, place, X_WS);
  if (!collision) {
    lowest_z_ = lowest_before;
    collision_meshes_.resize(meshes_before);
  }
  return shape;
}

json Importer::primitive_or_mesh_json(const urdf::Geometry* g, const std::string& place,
                                      const Frame& X_WS) {
  if (!g) fail(place, "missing: geometry (a box, cylinder, sphere or mesh)");
  const auto positive = [&](double x, const std::string& what) {
    if (!(std::isfinite(x) && x > 0.0))
      fail(place + ": geometry: " + what, fmt::format("expected a positive number (got {})", x));
    return x;
  };
  const Mat3 R = X_WS.q.toRotationMatrix();
  switch (g->type) {
    case urdf::Geometry::SPHERE: {
      const double r = positive(static_cast<const urdf::Sphere*>(g)->radius, "sphere: radius");
      lowest_z_ = std::min(lowest_z_, X_WS.p.z() - r);
      return {{"type", "sphere"}, {"radius", r}};
    }
    case urdf::Geometry::BOX: {
      const urdf::Vector3& d = static_cast<const urdf::Box*>(g)->dim;
      const Vec3 h(0.5 * positive(d.x, "box: size"), 0.5 * positive(d.y, "box: size"),
                   0.5 * positive(d.z, "box: size"));
      lowest_z_ = std::min(lowest_z_, X_WS.p.z() - R.row(2).cwiseAbs().dot(h));
      return {{"type", "box"}, {"half_extents", vec_json(h)}};
    }
    case urdf::Geometry::CYLINDER: {
      const auto* c = static_cast<const urdf::Cylinder*>(g);
      const double r = positive(c->radius, "cylinder: radius");
      const double h = 0.5 * positive(c->length, "cylinder: length");
      const double cz = std::abs(R(2, 2));
      lowest_z_ =
          std::min(lowest_z_, X_WS.p.z() - h * cz - r * std::sqrt(std::max(0.0, 1 - cz * cz)));
      return {{"type", "cylinder"}, {"radius", r}, {"half_length", h}};
    }
    case urdf::Geometry::MESH: {
      const auto* m = static_cast<const urdf::Mesh*>(g);
      const Vec3 s(m->scale.x, m->scale.y, m->scale.z);
      if (!s.allFinite() || !(s.cwiseAbs().minCoeff() > 0.0))
        fail(place + ": geometry: mesh: scale",
             fmt::format("expected 3 finite non-zero numbers (got {} {} {})", s.x(), s.y(), s.z()));
      const fs::path file = mesh_path(m->filename, place + ": geometry: mesh");
      collision_meshes_.push_back({file, s, X_WS});
      json shape = {{"type", "mesh"}, {"file", file.string()}};
      shape["scale"] = s.x() == s.y() && s.y() == s.z() ? json(s.x()) : vec_json(s);
      return shape;
    }
  }
  fail(place + ": geometry", "unknown geometry type");
}

void Importer::check_inertial(const urdf::Link& link) const {
  const std::string place = link_place(link.name) + ": inertial";
  const urdf::Inertial& in = *link.inertial;
  if (!(std::isfinite(in.mass) && in.mass >= 0.0))
    fail(place + ": mass: value", fmt::format("expected a mass ≥ 0 kg (got {})", in.mass));
  (void)frame(in.origin, place);
  const double I[6] = {in.ixx, in.iyy, in.izz, in.ixy, in.ixz, in.iyz};
  for (const double x : I)
    if (!std::isfinite(x)) fail(place + ": inertia", "expected finite ixx ... izz");
  if (in.mass == 0.0) return;
  Mat3 T;
  T << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  const Vec3 l = Eigen::SelfAdjointEigenSolver<Mat3>(T, Eigen::EigenvaluesOnly).eigenvalues();
  if (!(l.minCoeff() > 0.0))
    fail(place, fmt::format("inertia is not positive definite (principal moments {:g}, {:g}, "
                            "{:g} kg m²)",
                            l.x(), l.y(), l.z()));
  // principal moments of a real body satisfy the triangle inequality (the engine's slack)
  if (l.z() > l.x() + l.y() + 1e-9 * l.sum())
    fail(place, fmt::format("inertia violates the triangle inequality (principal moments {:g}, "
                            "{:g}, {:g} kg m²: the largest exceeds the sum of the others)",
                            l.x(), l.y(), l.z()));
}

std::string Importer::body_name(const Group& group) const {
  if (!prefix_.empty() || group.root != "world") return prefix_ + group.root;
  return group.links.size() > 1 ? group.links[1] : std::string("world_link");
}

json Importer::body_json(const Group& group) {
  const std::string name = body_name(group);
  const std::string place = link_place(group.root);
  const Frame& X_WG = X_WL_.at(group.root);
  // mass properties about the composite centre of mass, world axes (the formula at the top)
  double m = 0.0;
  Vec3 mc = Vec3::Zero();
  for (const std::string& l : group.links) {
    const urdf::Link& link = *model_->getLink(l);
    if (!link.inertial || link.inertial->mass == 0.0) continue;
    const Frame X_WI = X_WL_.at(l) * frame(link.inertial->origin, "");
    m += link.inertial->mass;
    mc += link.inertial->mass * X_WI.p;
  }
  json body = {{"name", name}};
  Frame X_WB = X_WG;
  if (group.fixed) {
    body["fixed"] = true;
  } else {
    if (!(m > 0.0))
      fail(place, group.movers.empty()
                      ? std::string("the model's base has no mass (no <inertial> with a mass > 0 "
                                    "on it or on the links welded to it); give it one or set "
                                    "\"fixed_base\"")
                      : fmt::format("has no mass (no <inertial> with a mass > 0 on it or on the "
                                    "links welded to it) but joint {} moves it",
                                    pivot::quoted(group.movers.front())));
    const Vec3 c = mc / m;
    Mat3 I_c = Mat3::Zero();
    for (const std::string& l : group.links) {
      const urdf::Link& link = *model_->getLink(l);
      if (!link.inertial || link.inertial->mass == 0.0) continue;
      const urdf::Inertial& in = *link.inertial;
      const Frame X_WI = X_WL_.at(l) * frame(in.origin, "");
      Mat3 I_i;
      I_i << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      const Mat3 R = X_WI.q.toRotationMatrix();
      const Vec3 d = X_WI.p - c;
      I_c += R * I_i * R.transpose() +
             in.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    }
    // principal axes, expressed in the group root's frame so that a tensor already diagonal
    // there keeps the link's axes
    const Mat3 R_WG = X_WG.q.toRotationMatrix();
    const Mat3 I_G = R_WG.transpose() * I_c * R_WG;
    Mat3 V = Mat3::Identity();
    Vec3 moments = I_G.diagonal();
    const Mat3 off = I_G - Mat3(I_G.diagonal().asDiagonal());
    if (off.cwiseAbs().maxCoeff() > 1e-15 * I_G.diagonal().cwiseAbs().maxCoeff()) {
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(I_G);
      V = eig.eigenvectors();
      if (V.determinant() < 0.0) V.col(0) = -V.col(0);
      moments = eig.eigenvalues();
    }
    if (!(moments.minCoeff() > 0.0) ||
        moments.maxCoeff() > moments.sum() - moments.maxCoeff() + 1e-9 * moments.sum())
      fail(place, fmt::format("the inertia of the links welded to it ({}) is not that of a rigid "
                              "body (principal moments {:g}, {:g}, {:g} kg m²)",
                              fmt::join(group.links, ", "), moments.x(), moments.y(), moments.z()));
    X_WB = {c, (X_WG.q * Quat(V)).normalized()};
    body["mass"] = m;
    body["inertia_diag"] = vec_json(moments);
  }
  body["position"] = vec_json(X_WB.p);
  body["quat_wxyz"] = quat_json(X_WB.q);
  // the collision geometry of every link of the group, placed in the body's frame
  std::vector<std::pair<json, Frame>> placed;
  const Frame X_BW = inverse(X_WB);
  for (const std::string& l : group.links) {
    const urdf::Link& link = *model_->getLink(l);
    for (std::size_t i = 0; i < link.collision_array.size(); ++i) {
      const urdf::Collision& col = *link.collision_array[i];
      const std::string cplace = fmt::format("{}: collision {}", link_place(l), i);
      const Frame X_WS = X_WL_.at(l) * frame(col.origin, cplace);
      placed.emplace_back(shape_json(col.geometry.get(), cplace, X_WS), X_BW * X_WS);
    }
  }
  const auto at_origin = [](const Frame& X) {
    return X.p.norm() < 1e-12 && X.q.angularDistance(Quat::Identity()) < 1e-12;
  };
  if (placed.size() == 1 && at_origin(placed[0].second)) {
    body["shape"] = placed[0].first;
  } else if (!placed.empty()) {
    json children = json::array();
    for (const auto& [shape, X_BS] : placed)
      children.push_back(
          {{"shape", shape}, {"position", vec_json(X_BS.p)}, {"quat_wxyz", quat_json(X_BS.q)}});
    body["shape"] = {{"type", "compound"}, {"children", children}};
  }
  if (!group.fixed && body.contains("shape")) body["centre_of_mass"] = vec_json(Vec3::Zero());
  // the visual geometry with its material colour, in the same frame (the shape frame: the
  // body's, or the compound's, whose origin is the body's)
  json visuals = json::array();
  for (const std::string& l : group.links) {
    const urdf::Link& link = *model_->getLink(l);
    for (std::size_t i = 0; i < link.visual_array.size(); ++i) {
      const urdf::Visual& vis = *link.visual_array[i];
      const std::string vplace = fmt::format("{}: visual {}", link_place(l), i);
      const Frame X_WV = X_WL_.at(l) * frame(vis.origin, vplace);
      const Frame X_BV = X_BW * X_WV;
      json v = {{"shape", shape_json(vis.geometry.get(), vplace, X_WV, false)},
                {"position", vec_json(X_BV.p)},
                {"quat_wxyz", quat_json(X_BV.q)}};
      if (vis.material) {
        const urdf::Color& c = vis.material->color;
        // urdfdom keeps floats: rounded to 1e-6 so that 0.6 is written 0.6
        const auto unit = [](float x) {
          return std::round(std::clamp(static_cast<double>(x), 0.0, 1.0) * 1e6) / 1e6;
        };
        v["colour"] = json::array({unit(c.r), unit(c.g), unit(c.b), unit(c.a)});
      }
      visuals.push_back(std::move(v));
    }
  }
  if (!visuals.empty()) body["visual"] = std::move(visuals);
  return body;
}

json Importer::joint_json(const urdf::Joint& joint) {
  const std::string place = joint_place(joint.name);
  const Frame X_WJ = X_WL_.at(joint.child_link_name);
  const Vec3 axis(joint.axis.x, joint.axis.y, joint.axis.z);
  if (!axis.allFinite() || !(axis.norm() > 1e-9))
    fail(place + ": axis: xyz", fmt::format("expected a finite non-zero direction (got {} {} {})",
                                            axis.x(), axis.y(), axis.z()));
  if (joint.type == urdf::Joint::PLANAR) {
    // the child moves in the plane through the joint origin normal to the axis (URDF's
    // planar joint; limits and dynamics do not apply to its three coordinates)
    if (joint.dynamics && (joint.dynamics->damping != 0.0 || joint.dynamics->friction != 0.0))
      warnings_.push_back(
          fmt::format("{}: {}: dynamics: not simulated on a planar joint", file_.string(), place));
    return {{"type", "planar"},
            {"name", prefix_ + joint.name},
            {"body_a", body_name(groups_[group_of_.at(joint.parent_link_name)])},
            {"body_b", body_name(groups_[group_of_.at(joint.child_link_name)])},
            {"anchor", vec_json(X_WJ.p)},
            {"normal", vec_json(X_WJ.q * axis.normalized())},
            {"collide", options_.collide_with_parent}};
  }
  // θ of a hinge (s of a slider) is body_b's motion relative to body_a about (along) the axis:
  // the URDF's joint position when body_a is the parent link's body
  const bool slider = joint.type == urdf::Joint::PRISMATIC;
  json j = {{"type", slider ? "slider" : "hinge"},
            {"name", prefix_ + joint.name},
            {"body_a", body_name(groups_[group_of_.at(joint.parent_link_name)])},
            {"body_b", body_name(groups_[group_of_.at(joint.child_link_name)])},
            {"anchor", vec_json(X_WJ.p)},
            {"axis", vec_json(X_WJ.q * axis.normalized())},
            {"collide", options_.collide_with_parent}};
  if (joint.type != urdf::Joint::CONTINUOUS) {
    if (!joint.limits) fail(place, "missing: limit (a revolute or prismatic joint needs one)");
    const urdf::JointLimits& l = *joint.limits;
    if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || l.lower > l.upper)
      fail(place + ": limit: lower",
           fmt::format("expected finite lower ≤ upper (got {}, {})", l.lower, l.upper));
    j["limits"] = json::array({l.lower, l.upper});
  }
  if (joint.limits) {
    // kept for actuators: 0 (urdfdom's default) means not given
    const urdf::JointLimits& l = *joint.limits;
    if (!(std::isfinite(l.effort) && l.effort >= 0.0))
      fail(place + ": limit: effort", fmt::format("expected a number ≥ 0 (got {})", l.effort));
    if (!(std::isfinite(l.velocity) && l.velocity >= 0.0))
      fail(place + ": limit: velocity", fmt::format("expected a number ≥ 0 (got {})", l.velocity));
    if (l.effort > 0.0) j["effort_limit"] = l.effort;
    if (l.velocity > 0.0) j["velocity_limit"] = l.velocity;
  }
  if (joint.dynamics) {
    // damping (implicit) and Coulomb friction of the joint coordinate: rows of the step
    const urdf::JointDynamics& d = *joint.dynamics;
    for (const auto& [key, value] : {std::pair{"damping", d.damping}, {"friction", d.friction}}) {
      if (!(std::isfinite(value) && value >= 0.0))
        fail(place + ": dynamics: " + key, fmt::format("expected a number ≥ 0 (got {})", value));
      if (value > 0.0) j[key] = value;
    }
  }
  return j;
}

UrdfModel Importer::run() {
  model_ = parse_file(file_);
  const urdf::LinkConstSharedPtr root = model_->getRoot();
  if (!root) fail("urdf", "no root link");
  const Frame X_W0{options_.position, options_.orientation.normalized()};
  // depth first from the root: frames, weld groups, the joints between groups
  std::vector<const urdf::Joint*> joints;
  std::vector<std::pair<const urdf::Link*, Frame>> stack = {{root.get(), X_W0}};
  while (!stack.empty()) {
    const auto [link, X_WL] = stack.back();
    stack.pop_back();
    X_WL_[link->name] = X_WL;
    if (link->inertial) check_inertial(*link);
    const urdf::Joint* parent = link->parent_joint.get();
    if (!parent) {
      groups_.push_back(
          {link->name, options_.fixed_base || link->name == "world", {link->name}, {}});
      group_of_[link->name] = 0;
    } else if (parent->type == urdf::Joint::FIXED) {
      const int g = group_of_.at(parent->parent_link_name);
      group_of_[link->name] = g;
      groups_[g].links.push_back(link->name);
    } else {
      const std::string place = joint_place(parent->name) + ": type";
      if (parent->type == urdf::Joint::UNKNOWN) fail(place, "unknown joint type");
      group_of_[link->name] = static_cast<int>(groups_.size());
      groups_.push_back({link->name, false, {link->name}, {parent->name}});
      if (parent->type != urdf::Joint::FLOATING) joints.push_back(parent);
    }
    if (parent && parent->mimic)
      warnings_.push_back(fmt::format("{}: {}: mimic is not simulated (docs/models.md)",
                                      file_.string(), joint_place(parent->name)));
    // children in reverse so that they are visited in the file's joint-name order
    for (auto it = link->child_joints.rbegin(); it != link->child_joints.rend(); ++it) {
      const urdf::Joint& cj = **it;
      const Frame X_PJ = frame(cj.parent_to_joint_origin_transform, joint_place(cj.name));
      stack.emplace_back(model_->getLink(cj.child_link_name).get(), X_WL * X_PJ);
    }
  }
  json out = {{"bodies", json::array()}, {"joints", json::array()}};
  for (const Group& g : groups_) {
    if (prefix_.empty() && g.root == "world" && g.links.size() == 1 &&
        model_->getLink("world_link"))
      fail(link_place(g.root),
           "the root link \"world\" becomes a body \"world_link\" (\"world\" is the scene's), "
           "which is a link's name already");
    out["bodies"].push_back(body_json(g));
  }
  for (const urdf::Joint* jt : joints) out["joints"].push_back(joint_json(*jt));
  return {out.dump(), std::move(warnings_)};
}

}  // namespace

UrdfModel urdf_model(const fs::path& urdf, const UrdfModelOptions& options) {
  return Importer(urdf, options).run();
}

bool is_urdf_path(const fs::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".urdf";
}

std::string urdf_scene_json(const fs::path& urdf, const UrdfSceneOptions& options,
                            std::vector<std::string>* warnings) {
  UrdfModelOptions model_options;
  Importer probe(urdf, model_options);
  UrdfModel model = probe.run();
  if (options.ground && std::isfinite(probe.lowest_z())) {
    // raised so that its lowest collision geometry touches the ground
    model_options.position.z() = -probe.lowest_z();
    model = Importer(urdf, model_options).run();
  }
  json doc = json::parse(model.json);
  json scene = {{"pivot_scene", kSceneFormatVersion},
                {"name", urdf.stem().string()},
                {"description", fmt::format("the URDF robot {}", urdf.filename().string())},
                {"settings", {{"duration", 5.0}}}};
  json bodies = json::array();
  if (options.ground) {
    std::string ground = "ground";
    for (const json& b : doc["bodies"])
      if (b["name"] == ground) ground = "ground_plane";
    bodies.push_back({{"name", ground}, {"fixed", true}, {"shape", {{"type", "plane"}}}});
  }
  for (json& b : doc["bodies"]) bodies.push_back(std::move(b));
  scene["bodies"] = std::move(bodies);
  scene["joints"] = std::move(doc["joints"]);
  if (warnings) warnings->insert(warnings->end(), model.warnings.begin(), model.warnings.end());
  return scene.dump(2);
}

Scene load_urdf_scene(const fs::path& urdf, const UrdfSceneOptions& options) {
  std::vector<std::string> warnings;
  const std::string text = urdf_scene_json(urdf, options, &warnings);
  Scene scene =
      parse_scene(text, urdf.has_parent_path() ? urdf.parent_path() : fs::path("."), urdf.string());
  scene.warnings = std::move(warnings);
  return scene;
}

}  // namespace pivot
