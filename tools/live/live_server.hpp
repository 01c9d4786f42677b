#pragma once
// The server of `pivot serve` (docs/cli.md "pivot serve"): HTTP serves the viewer at `/`, and a
// WebSocket at `/ws` streams a LiveSession's frames to every viewer and carries their
// messages; Boost.Beast over Boost.Asio, all on one thread (the session is never shared
// between threads). One viewer drives at a time (the first to connect; see docs/cli.md).

#include <cstddef>
#include <filesystem>
#include <string>

namespace pivot {
struct Scene;
}

namespace pivot::cli {

struct ServeOptions {
  std::string host = "127.0.0.1";  ///< the address to bind (another host must be asked for)
  unsigned short port = 8080;      ///< 0: a free port, chosen by the system
  std::filesystem::path record{};  ///< non-empty: write the recording there on exit
  double display_hz = 30.0;        ///< frames per wall-clock second sent to viewers
  /// messages longer than this are answered with an error (bytes); frames longer than
  /// kMaxFrameBytes close the connection (WebSocket status 1009, "message too big")
  std::size_t max_message = 16 * 1024;
};

/// the hard WebSocket frame limit, bytes
inline constexpr std::size_t kMaxFrameBytes = 1024 * 1024;
/// what may wait to be written to one viewer: frames beyond kMaxQueuedFrames are skipped; more
/// than kMaxQueued messages or kMaxQueuedBytes (a viewer that does not read) disconnect it
inline constexpr std::size_t kMaxQueuedFrames = 4;
inline constexpr std::size_t kMaxQueued = 1024;
inline constexpr std::size_t kMaxQueuedBytes = std::size_t{16} << 20;

/// serves `scene` until SIGINT or SIGTERM, then finishes the recording; prints the address
/// ("pivot serve: http://HOST:PORT/") on stdout first. Returns the exit code.
int serve(const Scene& scene, const ServeOptions& options);

}  // namespace pivot::cli
