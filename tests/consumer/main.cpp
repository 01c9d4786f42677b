// The smallest program a user of the installed library would write.
#include <engine/spatial.hpp>
#include <engine/version.hpp>

#include <cstdio>

int main() {
  const pivot::Quat q = pivot::quat_exp(pivot::Vec3(0.0, 0.0, 0.5));
  std::printf("pivot %s, rotation angle %.3f\n", pivot::kVersion, pivot::quat_log(q).norm());
  return pivot::quat_log(q).norm() > 0.49 ? 0 : 1;
}
