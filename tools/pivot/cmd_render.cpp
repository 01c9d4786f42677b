// pivot render RUN_DIR [--out FILE] [--png T] [--size WxH] [--fps N] [--quiet]
//
// A video (or one picture) of a run: the replay viewer (docs/viewer.md) rendered by a headless
// chromium driven over the DevTools protocol (headless_chromium.hpp), its frames encoded by
// ffmpeg as H.264 in an MP4. The video plays the run in real time: frames at t0 + k/fps, where
// fps is the run's output rate (at most 60) unless --fps is given; the viewer interpolates
// between recorded frames. Progress on stderr. The file appears whole or not at all.
// Exit codes: 0 written, 1 a failed render, 2 bad input or a missing chromium or ffmpeg.
#include <fcntl.h>
#include <fmt/core.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/core/error.hpp"
#include "replay/headless_chromium.hpp"
#include "replay/replay_html.hpp"

namespace pivot::cli {
namespace {

namespace fs = std::filesystem;

struct RenderArgs {
  std::string run_dir;
  std::string out;
  std::string size = "1280x720";
  double fps = 0.0;
  double png = 0.0;  // --png's value
  const CLI::Option* png_option = nullptr;
  std::optional<double> png_time;  // set from --png when it was given
  bool quiet = false;
};

constexpr double kMaxDefaultFps = 60.0;
constexpr double kPageTimeout = 120.0;  // s: a cold chromium on a loaded machine is slow

fs::path find_ffmpeg() {
  if (const char* given = std::getenv("PIVOT_FFMPEG"); given != nullptr && *given != '\0')
    return ::access(given, X_OK) == 0 ? fs::path(given) : fs::path();
  const fs::path debian = "/usr/bin/ffmpeg";
  return ::access(debian.c_str(), X_OK) == 0 ? debian : fs::path();
}

std::pair<int, int> parse_size(const std::string& text) {
  int w = 0, h = 0;
  char x = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w < 16 ||
      h < 16 || w > 7680 || h > 4320)
    throw Error(fmt::format("--size {}: expected WIDTHxHEIGHT in pixels, 16x16 … 7680x4320", text));
  // H.264 in 4:2:0 needs even sizes
  return {w + (w % 2), h + (h % 2)};
}

/// ffmpeg reading PNG frames on its standard input; its messages go to a file
class Encoder {
 public:
  Encoder(const fs::path& ffmpeg, double fps, const fs::path& out, const fs::path& log) {
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
      throw std::runtime_error(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
    const std::vector<std::string> args = {ffmpeg.string(),
                                           "-hide_banner",
                                           "-loglevel",
                                           "error",
                                           "-y",
                                           "-f",
                                           "image2pipe",
                                           "-framerate",
                                           fmt::format("{}", fps),
                                           "-c:v",
                                           "png",
                                           "-i",
                                           "-",
                                           "-c:v",
                                           "libx264",
                                           "-pix_fmt",
                                           "yuv420p",
                                           "-movflags",
                                           "+faststart",
                                           "-f",
                                           "mp4",
                                           out.string()};
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error(fmt::format("cannot fork: {}", std::strerror(errno)));
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int null = ::open("/dev/null", O_WRONLY);
      if (in[0] == 0) {
        ::fcntl(0, F_SETFD, 0);
      } else if (::dup2(in[0], 0) < 0) {
        ::_exit(127);
      }
      if (null >= 0) ::dup2(null, 1);
      if (err >= 0) ::dup2(err, 2);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    fd_ = in[1];
  }
  ~Encoder() {
    if (fd_ >= 0) ::close(fd_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Encoder(const Encoder&) = delete;
  Encoder& operator=(const Encoder&) = delete;

  /// false when ffmpeg stopped reading
  bool write(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  /// closes the input and waits: ffmpeg's exit code (−1 if it was killed)
  int finish() {
    ::close(fd_);
    fd_ = -1;
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
};

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

void write_file(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(fmt::format("{}: cannot be written", file.string()));
}

/// a temporary folder removed when it goes out of scope
struct TempFolder {
  fs::path path;
  explicit TempFolder(const fs::path& near) {
    std::string tmpl = (near / ".pivot-render-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw std::runtime_error(fmt::format("{}: cannot make a temporary folder there: {}",
                                           near.string(), std::strerror(errno)));
    path = tmpl;
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

int render(const RenderArgs& args) {
  const fs::path run_dir(args.run_dir);
  std::error_code ec;
  if (!fs::is_directory(run_dir, ec))
    throw Error(args.run_dir, "", "not a folder (expected a run folder written by pivot run)");
  const auto [width, height] = parse_size(args.size);
  const bool picture = args.png_time.has_value();
  const fs::path out = args.out.empty()
                           ? run_dir / (picture ? fmt::format("frame-{:g}.png", *args.png_time)
                                                : std::string("run.mp4"))
                           : fs::path(args.out);
  require_viewer();
  const fs::path chromium = find_chromium();
  if (chromium.empty())
    throw Error(
        "pivot render needs chromium to draw the replay, and none was found at "
        "$PIVOT_CHROMIUM or /usr/bin/chromium (Debian: apt-get install chromium, or "
        "tools/setup.sh --viewer-tests)");
  const fs::path ffmpeg = picture ? fs::path() : find_ffmpeg();
  if (!picture && ffmpeg.empty())
    throw Error(
        "pivot render needs ffmpeg to encode the video, and none was found at $PIVOT_FFMPEG or "
        "/usr/bin/ffmpeg (Debian: apt-get install ffmpeg); --png T writes one frame without it");

  const fs::path out_dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  fs::create_directories(out_dir, ec);
  TempFolder temp(out_dir);
  const fs::path page = temp.path / "replay.html";
  (void)write_replay(run_dir, page);

  HeadlessChromium browser(chromium, width, height);
  browser.open("file://" + fs::absolute(page).string(), kPageTimeout);
  const nlohmann::json started = browser.evaluate(
      "new Promise((ok, no) => { const t0 = Date.now(); (function wait() {"
      " if (window.pivotReplay) { pivotReplay.viewOnly(); ok(Array.from(pivotReplay.times)); }"
      " else if (document.getElementById('pivot-error'))"
      " no(new Error(document.getElementById('pivot-error').textContent));"
      " else if (Date.now() - t0 > 60000) no(new Error('the replay did not start'));"
      " else setTimeout(wait, 50); })(); })",
      kPageTimeout);
  const std::vector<double> times = started.get<std::vector<double>>();
  if (times.empty()) throw Error(args.run_dir, "", "the run has no frames");
  const double first = times.front();
  const double last = times.back();

  if (picture) {
    browser.evaluate(fmt::format("pivotReplay.show({})", *args.png_time), kPageTimeout);
    const fs::path partial = temp.path / "frame.png";
    write_file(partial, browser.screenshot_png(kPageTimeout));
    fs::rename(partial, out);
    if (!args.quiet)
      fmt::print("  picture      {} (t = {:g} s, {}x{})\n", out.string(),
                 std::clamp(*args.png_time, first, last), width, height);
    return 0;
  }

  double fps = args.fps;
  if (fps <= 0.0) {
    const double rate =
        times.size() > 1 ? static_cast<double>(times.size() - 1) / (last - first) : kMaxDefaultFps;
    fps = std::min(std::round(rate), kMaxDefaultFps);
    if (!(fps >= 1.0)) fps = 1.0;
  }
  const long count = static_cast<long>(std::floor((last - first) * fps + 1e-9)) + 1;
  const fs::path partial = temp.path / "video.mp4";
  const fs::path log = temp.path / "ffmpeg.log";
  Encoder encoder(ffmpeg, fps, partial, log);
  const auto start = std::chrono::steady_clock::now();
  auto shown = start;
  for (long k = 0; k < count; ++k) {
    const double t = std::min(first + static_cast<double>(k) / fps, last);
    browser.evaluate(fmt::format("pivotReplay.show({:.17g})", t), kPageTimeout);
    if (!encoder.write(browser.screenshot_png(kPageTimeout)))
      throw std::runtime_error(fmt::format("ffmpeg stopped reading frames: {}", read_text(log)));
    const auto now = std::chrono::steady_clock::now();
    if (!args.quiet && (now - shown > std::chrono::seconds(1) || k + 1 == count)) {
      shown = now;
      const double elapsed = std::chrono::duration<double>(now - start).count();
      fmt::print(stderr, "\rrender: frame {} / {} ({:.0f} %), t = {:.3f} s, {:.1f} frames/s   ",
                 k + 1, count, 100.0 * static_cast<double>(k + 1) / static_cast<double>(count), t,
                 static_cast<double>(k + 1) / std::max(elapsed, 1e-9));
      if (k + 1 == count) fmt::print(stderr, "\n");
    }
  }
  if (const int code = encoder.finish(); code != 0)
    throw std::runtime_error(fmt::format("ffmpeg failed (exit code {}): {}", code, read_text(log)));
  fs::rename(partial, out);
  if (!args.quiet)
    fmt::print("  video        {} ({} frames at {:g} fps, {}x{}, {:.2f} s of run)\n", out.string(),
               count, fps, width, height, last - first);
  return 0;
}

}  // namespace

void register_render(CLI::App& app, Registry& registry) {
  auto args = std::make_shared<RenderArgs>();
  auto* sub = app.add_subcommand(
      "render",
      "a video (H.264 MP4) or one picture of a run: the replay drawn by headless chromium, "
      "encoded by ffmpeg (docs/cli.md)");
  sub->add_option("run_dir", args->run_dir, "a folder written by pivot run")->required();
  sub->add_option("--out", args->out,
                  "the file to write (default RUN_DIR/run.mp4, or RUN_DIR/frame-T.png)");
  args->png_option =
      sub->add_option("--png", args->png, "write one PNG picture of the run at this time, s");
  sub->add_option("--size", args->size, "WIDTHxHEIGHT in pixels (default 1280x720)");
  sub->add_option("--fps", args->fps,
                  "frames per second of video (default: the run's output rate, at most 60)")
      ->check(CLI::Range(1.0, 240.0));
  sub->add_flag("--quiet,-q", args->quiet, "no progress and no summary");
  registry.actions.emplace_back(sub, [args] {
    if (args->png_option->count() > 0) {
      if (!std::isfinite(args->png)) throw Error(fmt::format("--png {}: not a time", args->png));
      args->png_time = args->png;
    }
    return render(*args);
  });
}

}  // namespace pivot::cli
