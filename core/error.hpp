#pragma once
// The one exception type of Pivot, for every module. Messages name the offending thing, e.g.
// `body "link3": mass must be positive (got -1)`.
//
// An error in an input (a scene file, a problem file) also says where: `source()` names the
// input (a file, or e.g. "<built-in default scene>") and `place()` the place in it (a JSON
// pointer such as "/bodies/2/mass", or "line 3, column 7"); what() then reads
// "SOURCE: PLACE: what". Tools read the two fields instead of parsing the message.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pivot {

/// a name from an input as it is shown in a message: in double quotes, with quotes, backslashes
/// and control characters escaped (\n, \t, \xNN), so a name cannot break the message's one
/// line, and cut to its first `max_bytes` bytes with "..." and its full size when longer, so a
/// 1 MB name does not become a 1 MB message
[[nodiscard]] inline std::string quoted(std::string_view text, std::size_t max_bytes = 64) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  std::size_t shown = text.size() > max_bytes ? max_bytes : text.size();
  // not in the middle of a UTF-8 sequence
  while (shown > 0 && shown < text.size() && (static_cast<unsigned char>(text[shown]) & 0xC0) == 0x80)
    --shown;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

class Error : public std::runtime_error {
 public:
  /// an error with no input place: the message is what() as given
  explicit Error(const std::string& message) : std::runtime_error(message) {}

  /// an error in an input: what() is "source: place: what" ("source: what" when place is
  /// empty)
  Error(std::string source, std::string place, const std::string& what)
      : std::runtime_error(source + ": " + (place.empty() ? "" : place + ": ") + what),
        source_(std::move(source)),
        place_(std::move(place)) {}

  /// the input the error is in (a file name); empty for errors that are not about an input
  [[nodiscard]] const std::string& source() const { return source_; }
  /// where in that input: a JSON pointer or a line and column; may be empty
  [[nodiscard]] const std::string& place() const { return place_; }
  /// true for an error that already names its input (callers add no place of their own)
  [[nodiscard]] bool in_input() const { return !source_.empty(); }

 private:
  std::string source_;
  std::string place_;
};

}  // namespace pivot
