// BVH channels, a joint's local transform, and the writer (bvh.hpp).

#include <cstdio>

#include "pivot/scenes/bvh.hpp"

namespace pivot {
namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

void append_number(std::string& out, double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  out += buffer;
}

void write_joint(const BvhClip& clip, int j, int depth, std::string& out) {
  const BvhJoint& joint = clip.joints[j];
  const std::string indent(depth, '\t');
  out += indent + (joint.parent < 0 ? "ROOT " : "JOINT ") + joint.name + "\n" + indent + "{\n";
  out += indent + "\tOFFSET";
  for (int i = 0; i < 3; ++i) {
    out += ' ';
    append_number(out, joint.offset[i]);
  }
  out += "\n" + indent + "\tCHANNELS " + std::to_string(joint.channels.size());
  for (BvhChannel c : joint.channels) out += std::string(" ") + to_string(c);
  out += "\n";
  for (std::size_t k = 0; k < clip.joints.size(); ++k)
    if (clip.joints[k].parent == j) write_joint(clip, static_cast<int>(k), depth + 1, out);
  if (joint.end_site) {
    out += indent + "\tEnd Site\n" + indent + "\t{\n" + indent + "\t\tOFFSET";
    for (int i = 0; i < 3; ++i) {
      out += ' ';
      append_number(out, (*joint.end_site)[i]);
    }
    out += "\n" + indent + "\t}\n";
  }
  out += indent + "}\n";
}

}  // namespace

const char* to_string(BvhChannel c) {
  switch (c) {
    case BvhChannel::x_position: return "Xposition";
    case BvhChannel::y_position: return "Yposition";
    case BvhChannel::z_position: return "Zposition";
    case BvhChannel::x_rotation: return "Xrotation";
    case BvhChannel::y_rotation: return "Yrotation";
    case BvhChannel::z_rotation: return "Zrotation";
  }
  return "?";
}

bool is_rotation(BvhChannel c) {
  return c == BvhChannel::x_rotation || c == BvhChannel::y_rotation || c == BvhChannel::z_rotation;
}

Vec3 channel_axis(BvhChannel c) {
  switch (c) {
    case BvhChannel::x_position:
    case BvhChannel::x_rotation: return Vec3::UnitX();
    case BvhChannel::y_position:
    case BvhChannel::y_rotation: return Vec3::UnitY();
    case BvhChannel::z_position:
    case BvhChannel::z_rotation: return Vec3::UnitZ();
  }
  return Vec3::Zero();
}

// R = R_c1(a1) R_c2(a2) ... in the order written, degrees
Mat3 bvh_local_rotation(const BvhJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& frame) {
  Mat3 R = Mat3::Identity();
  for (std::size_t k = 0; k < joint.channels.size(); ++k) {
    const BvhChannel c = joint.channels[k];
    if (!is_rotation(c)) continue;
    const double angle = frame[joint.first_channel + static_cast<int>(k)] * kDegree;
    R = R * Eigen::AngleAxisd(angle, channel_axis(c)).toRotationMatrix();
  }
  return R;
}

Vec3 bvh_local_position(const BvhJoint& joint, const Eigen::Ref<const Eigen::VectorXd>& frame) {
  Vec3 p = joint.offset;
  for (std::size_t k = 0; k < joint.channels.size(); ++k) {
    const BvhChannel c = joint.channels[k];
    if (is_rotation(c)) continue;
    p += frame[joint.first_channel + static_cast<int>(k)] * channel_axis(c);
  }
  return p;
}

std::string write_bvh(const BvhClip& clip) {
  std::string out = "HIERARCHY\n";
  if (!clip.joints.empty()) write_joint(clip, 0, 0, out);
  out += "MOTION\nFrames: " + std::to_string(clip.frames.rows()) + "\nFrame Time: ";
  append_number(out, clip.frame_time);
  out += "\n";
  for (Eigen::Index f = 0; f < clip.frames.rows(); ++f) {
    for (Eigen::Index c = 0; c < clip.frames.cols(); ++c) {
      if (c > 0) out += ' ';
      append_number(out, clip.frames(f, c));
    }
    out += "\n";
  }
  return out;
}

}  // namespace pivot
