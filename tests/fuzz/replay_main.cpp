// The replay driver of a fuzz target: feeds each file named on the command line (and every
// regular file inside each folder named) to LLVMFuzzerTestOneInput, as libFuzzer would replay
// a crash input. Built with the normal compiler, so the committed regression inputs and the
// small corpus run as CTest tests in every build (tests/fuzz/CMakeLists.txt). A finding
// aborts inside the target; an input that runs through prints nothing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int replay_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", file.string().c_str());
    return 1;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  // a copy in its own allocation, so ASan sees reads past the end as libFuzzer would
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.data(), data.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int inputs = 0;
  int errors = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());  // a fixed order, for reproducible logs
    } else {
      files.push_back(arg);
    }
    for (const auto& file : files) {
      errors += replay_file(file);
      ++inputs;
    }
  }
  std::printf("replayed %d inputs, %d unreadable\n", inputs, errors);
  if (inputs == 0) {
    std::fprintf(stderr, "replay: no inputs found\n");
    return 1;
  }
  return errors == 0 ? 0 : 1;
}
