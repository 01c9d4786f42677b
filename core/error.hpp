#pragma once
// The one exception type of Pivot, for every module. Messages name the offending thing, e.g.
// `body "link3": mass must be positive (got -1)`.
//
// An error in an input (a scene file, a problem file) also says where: `source()` names the
// input (a file, or e.g. "<built-in default scene>") and `place()` the place in it (a JSON
// pointer such as "/bodies/2/mass", or "line 3, column 7"); what() then reads
// "SOURCE: PLACE: what". Tools read the two fields instead of parsing the message.

#include <stdexcept>
#include <string>

namespace pivot {

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
