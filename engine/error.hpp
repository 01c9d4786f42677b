#pragma once
// The one exception type of the engine. Messages name the offending thing, e.g.
// `body "link3": mass must be positive (got -1)`.

#include <stdexcept>

namespace pivot {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pivot
