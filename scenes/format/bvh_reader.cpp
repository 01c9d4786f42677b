// The strict BVH reader (bvh.hpp): a token stream with line numbers for the hierarchy, then the
// motion section line by line (one frame a line, one number a channel).

#include <fmt/core.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include "pivot/core/bounded_file.hpp"
#include "pivot/core/error.hpp"
#include "pivot/core/number_text.hpp"
#include "pivot/scenes/bvh.hpp"

namespace pivot {
namespace {

struct Token {
  std::string_view text;
  int line = 0;
};

class Reader {
 public:
  Reader(std::string_view text, std::string_view source) : source_(source) {
    std::size_t start = 0;
    int line = 1;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view l = text.substr(start, end - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines_.push_back(l);
      start = end + 1;
      ++line;
    }
  }

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw Error(std::string(source_), "line " + std::to_string(line), what);
  }

  /// the next token of the hierarchy; fails at the end of the text with `expected`
  Token next(const char* expected) {
    while (line_ < static_cast<int>(lines_.size())) {
      std::string_view l = lines_[line_];
      while (col_ < l.size() && is_space(l[col_])) ++col_;
      if (col_ < l.size()) {
        std::size_t end = col_;
        while (end < l.size() && !is_space(l[end])) ++end;
        Token t{l.substr(col_, end - col_), line_ + 1};
        col_ = end;
        return t;
      }
      ++line_;
      col_ = 0;
    }
    fail(static_cast<int>(lines_.size()),
         std::string("unexpected end of file: expected ") + expected);
  }

  void expect(std::string_view word) {
    const Token t = next(std::string(word).c_str());
    if (t.text != word)
      fail(t.line, "expected " + std::string(word) + " (got " + quoted(t.text) + ")");
  }

  double number(const char* what) {
    const Token t = next(what);
    return to_number(t, what);
  }

  double to_number(const Token& t, const char* what) const {
    const std::optional<double> value = read_finite_number(t.text);
    if (!value)
      fail(t.line,
           std::string("expected ") + what + ", a finite number (got " + quoted(t.text) + ")");
    return *value;
  }

  /// the rest of the text after the current token, line by line: (line number, text)
  std::vector<std::pair<int, std::string_view>> remaining_lines() {
    std::vector<std::pair<int, std::string_view>> out;
    if (line_ < static_cast<int>(lines_.size())) {
      out.emplace_back(line_ + 1, lines_[line_].substr(col_));
      for (int i = line_ + 1; i < static_cast<int>(lines_.size()); ++i)
        out.emplace_back(i + 1, lines_[i]);
    }
    return out;
  }

  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
  }

  std::string_view source_;

 private:
  std::vector<std::string_view> lines_;
  int line_ = 0;
  std::size_t col_ = 0;
};

std::optional<BvhChannel> parse_channel(std::string_view s) {
  if (s == "Xposition") return BvhChannel::x_position;
  if (s == "Yposition") return BvhChannel::y_position;
  if (s == "Zposition") return BvhChannel::z_position;
  if (s == "Xrotation") return BvhChannel::x_rotation;
  if (s == "Yrotation") return BvhChannel::y_rotation;
  if (s == "Zrotation") return BvhChannel::z_rotation;
  return std::nullopt;
}

Vec3 read_offset(Reader& r) {
  r.expect("OFFSET");
  Vec3 v;
  for (int i = 0; i < 3; ++i) v[i] = r.number("an OFFSET coordinate");
  return v;
}

// JOINT/ROOT body after its name: { OFFSET CHANNELS (JOINT ... | End Site ...)* }
void read_joint(Reader& r, BvhClip& clip, int parent, const Token& keyword, int& channels) {
  const Token name = r.next("a joint name");
  if (name.text == "{") r.fail(name.line, "expected a joint name before '{'");
  if (clip.find_joint(name.text) >= 0)
    r.fail(name.line, "joint " + quoted(name.text) + " is declared twice");
  if (static_cast<int>(clip.joints.size()) >= kMaxBvhJoints)
    r.fail(name.line, "more than " + std::to_string(kMaxBvhJoints) + " joints");
  BvhJoint j;
  j.name = std::string(name.text);
  j.parent = parent;
  j.line = keyword.line;
  r.expect("{");
  j.offset = read_offset(r);
  r.expect("CHANNELS");
  const Token count = r.next("the channel count");
  const double n = r.to_number(count, "the channel count");
  if (n != std::floor(n) || n < 0 || n > 6)
    r.fail(count.line,
           "the channel count must be an integer 0 to 6 (got " + quoted(count.text) + ")");
  for (int i = 0; i < static_cast<int>(n); ++i) {
    const Token c = r.next("a channel name");
    const auto ch = parse_channel(c.text);
    if (!ch)
      r.fail(c.line,
             "expected a channel (Xposition, Yposition, Zposition, Xrotation, Yrotation, "
             "Zrotation), got " +
                 quoted(c.text));
    for (BvhChannel seen : j.channels)
      if (seen == *ch) r.fail(c.line, "channel " + std::string(c.text) + " appears twice");
    j.channels.push_back(*ch);
  }
  j.first_channel = channels;
  channels += static_cast<int>(j.channels.size());
  const int index = static_cast<int>(clip.joints.size());
  clip.joints.push_back(std::move(j));
  bool has_children = false;
  for (;;) {
    const Token t = r.next("JOINT, End Site or '}'");
    if (t.text == "}") break;
    if (t.text == "JOINT") {
      if (clip.joints[index].end_site)
        r.fail(t.line, "a joint with an End Site has no other children");
      read_joint(r, clip, index, t, channels);
      has_children = true;
    } else if (t.text == "End") {
      r.expect("Site");
      if (has_children || clip.joints[index].end_site)
        r.fail(t.line, "an End Site must be a joint's only child");
      r.expect("{");
      clip.joints[index].end_site = read_offset(r);
      r.expect("}");
    } else {
      r.fail(t.line, "expected JOINT, End Site or '}' (got " + quoted(t.text) + ")");
    }
  }
}

std::vector<Token> split(int line, std::string_view text) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && Reader::is_space(text[i])) ++i;
    std::size_t end = i;
    while (end < text.size() && !Reader::is_space(text[end])) ++end;
    if (end > i) out.push_back({text.substr(i, end - i), line});
    i = end;
  }
  return out;
}

}  // namespace

int BvhClip::find_joint(std::string_view name) const {
  for (std::size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return static_cast<int>(i);
  return -1;
}

BvhClip parse_bvh(std::string_view text, std::string_view source) {
  Reader r(text, source);
  BvhClip clip;
  clip.source = std::string(source);
  r.expect("HIERARCHY");
  const Token root = r.next("ROOT");
  if (root.text != "ROOT") r.fail(root.line, "expected ROOT (got " + quoted(root.text) + ")");
  int channels = 0;
  read_joint(r, clip, -1, root, channels);
  const Token motion = r.next("MOTION");
  if (motion.text == "ROOT") r.fail(motion.line, "a BVH file has one ROOT");
  if (motion.text != "MOTION")
    r.fail(motion.line, "expected MOTION (got " + quoted(motion.text) + ")");
  r.expect("Frames:");
  const Token count = r.next("the frame count");
  const double frames = r.to_number(count, "the frame count");
  if (frames != std::floor(frames) || frames < 1 || frames > static_cast<double>(kMaxBvhFrames))
    r.fail(count.line, "the frame count must be an integer 1 to " + std::to_string(kMaxBvhFrames) +
                           " (got " + quoted(count.text) + ")");
  r.expect("Frame");
  r.expect("Time:");
  const Token ft = r.next("the frame time");
  clip.frame_time = r.to_number(ft, "the frame time");
  if (!(clip.frame_time >= kMinBvhFrameTime && clip.frame_time <= kMaxBvhFrameTime))
    r.fail(ft.line, fmt::format("the frame time must be {:g} to {:g} s (got {})", kMinBvhFrameTime,
                                kMaxBvhFrameTime, quoted(ft.text)));

  // the frames: the rest of the frame time's line must be empty, then one line per frame
  const auto lines = r.remaining_lines();
  const long n = static_cast<long>(frames);
  // no more storage than the file can fill: a frame takes a line of its own
  if (static_cast<std::size_t>(n) > lines.size())
    r.fail(count.line, fmt::format("Frames: {} but only {} lines follow the frame time", n,
                                   lines.empty() ? 0 : lines.size() - 1));
  clip.frames.resize(n, channels);
  long row = 0;
  bool first = true;
  int last_line = ft.line;
  for (const auto& [line, content] : lines) {
    last_line = line;
    const auto tokens = split(line, content);
    if (first) {
      first = false;
      if (!tokens.empty())
        r.fail(line, "unexpected " + quoted(tokens[0].text) + " after the frame time");
      continue;
    }
    if (tokens.empty()) continue;
    if (row >= n) r.fail(line, "more frame lines than Frames: " + std::to_string(n));
    if (static_cast<int>(tokens.size()) != channels)
      r.fail(line, "frame " + std::to_string(row) + " has " + std::to_string(tokens.size()) +
                       " values, the hierarchy declares " + std::to_string(channels) + " channels");
    for (int c = 0; c < channels; ++c)
      clip.frames(row, c) = r.to_number(tokens[c], "a channel value");
    ++row;
  }
  if (row < n)
    r.fail(last_line, "the file ends after " + std::to_string(row) + " frames, Frames: says " +
                          std::to_string(n));
  return clip;
}

BvhClip load_bvh(const std::filesystem::path& file) {
  const std::string name = file.string();
  std::string text;
  switch (detail::read_at_most(file, kMaxBvhBytes, text)) {
    case detail::FileRead::ok:
      return parse_bvh(text, name);
    case detail::FileRead::folder:
      throw Error(name, "", "is a folder, not a BVH file");
    case detail::FileRead::cannot_open:
      throw Error(name, "", "cannot open the file");
    case detail::FileRead::cannot_read:
      throw Error(name, "", "cannot read the file");
    case detail::FileRead::too_large:
      break;
  }
  throw Error(name, "", "larger than " + std::to_string(kMaxBvhBytes) + " bytes");
}

}  // namespace pivot
