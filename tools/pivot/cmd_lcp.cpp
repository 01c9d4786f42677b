#include "tools/pivot/commands.hpp"

namespace pivot::cli {

void register_lcp(CLI::App& /*app*/, Registry& /*registry*/) {}

}  // namespace pivot::cli
