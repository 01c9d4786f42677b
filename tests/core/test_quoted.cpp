// pivot::quoted (core/error.hpp): names in messages are quoted, escaped and bounded (issue #24:
// names with newlines and 1 MB names were echoed raw into errors).
#include <catch2/catch.hpp>

#include <string>

#include "pivot/core/error.hpp"

using pivot::quoted;

TEST_CASE("quoted escapes quotes, backslashes and control characters", "[core][errors]") {
  CHECK(quoted("link3") == "\"link3\"");
  CHECK(quoted("a\nb\tc") == "\"a\\nb\\tc\"");
  CHECK(quoted("say \"hi\" \\o/") == "\"say \\\"hi\\\" \\\\o/\"");
  CHECK(quoted(std::string("nul\0x", 5)) == "\"nul\\x00x\"");
  CHECK(quoted("\x7f") == "\"\\x7f\"");
  CHECK(quoted("größe") == "\"größe\"");  // UTF-8 passes unchanged
}

TEST_CASE("quoted cuts long names and says how long they were", "[core][errors]") {
  const std::string mb(1 << 20, 'x');
  const std::string q = quoted(mb);
  CHECK(q == "\"" + std::string(64, 'x') + "\"... (1048576 bytes)");
  // never inside a UTF-8 sequence: 63 'a' then 'é' (2 bytes) cuts before the 'é'
  const std::string utf = std::string(63, 'a') + "é" + "zz";
  CHECK(quoted(utf) == "\"" + std::string(63, 'a') + "\"... (67 bytes)");
}
