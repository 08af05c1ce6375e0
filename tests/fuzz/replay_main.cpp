// Drives a fuzz harness without libFuzzer (linked into the harnesses of the regular and sanitizer
// builds): every file named, or every file of every directory named, goes through
// LLVMFuzzerTestOneInput once. The ctests replay the committed corpora, regression inputs included,
// under ASan/UBSan in the sanitizer build. With --mutate SECONDS the harness then keeps running inputs
// made by mutating the corpus (bit flips, byte changes, interesting values, truncation, insertions,
// duplicated spans, splices of two inputs) for that long: a bounded, not coverage-guided, fuzzing run
// that needs no clang (CI runs it under the sanitizers). Before each mutated input runs it is written
// to <harness>.last-input, so an input that crashes the process is kept; the seed is printed and
// --seed N repeats a run. Coverage-guided fuzzing is scripts/fuzz.sh (clang, libFuzzer).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

Bytes mutate(const std::vector<Bytes>& corpus, std::mt19937_64& rng) {
  auto below = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  Bytes b = corpus[below(corpus.size())];
  static const uint8_t kInteresting[] = {0, 1, 0x7f, 0x80, 0xff, 0x10, 0x20, 0x40};
  for (size_t k = 0, n = 1 + below(4); k < n; ++k) {
    switch (below(8)) {
      case 0:
        if (!b.empty()) b[below(b.size())] ^= uint8_t(1u << below(8));
        break;
      case 1:
        if (!b.empty()) b[below(b.size())] = uint8_t(rng());
        break;
      case 2:
        if (!b.empty()) b[below(b.size())] = kInteresting[below(sizeof kInteresting)];
        break;
      case 3:
        if (b.size() >= 4) {  // a little-endian 32-bit field to an extreme
          const size_t at = below(b.size() - 3);
          const uint32_t v = below(2) ? 0xffffffffu : 0x7fffffffu >> below(31);
          std::memcpy(&b[at], &v, 4);
        }
        break;
      case 4:
        b.resize(below(b.size() + 1));
        break;
      case 5:
        b.insert(b.begin() + ptrdiff_t(below(b.size() + 1)), uint8_t(rng()));
        break;
      case 6:
        if (!b.empty() && b.size() < (1u << 20)) {  // duplicate a span
          const size_t from = below(b.size()), len = 1 + below(std::min<size_t>(64, b.size() - from));
          Bytes span(b.begin() + ptrdiff_t(from), b.begin() + ptrdiff_t(from + len));
          b.insert(b.begin() + ptrdiff_t(below(b.size() + 1)), span.begin(), span.end());
        }
        break;
      default: {  // splice: this input's head, another input's tail
        const Bytes& other = corpus[below(corpus.size())];
        const size_t head = below(b.size() + 1), tail = below(other.size() + 1);
        b.resize(head);
        b.insert(b.end(), other.begin() + ptrdiff_t(tail), other.end());
        break;
      }
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  double seconds = 0;
  uint64_t seed = std::random_device{}();
  std::vector<Bytes> corpus;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mutate") && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
      continue;
    }
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    std::vector<fs::path> paths;
    if (fs::is_directory(argv[i])) {
      for (const auto& e : fs::directory_iterator(argv[i]))
        if (e.is_regular_file()) paths.push_back(e.path());
    } else {
      paths.push_back(argv[i]);
    }
    for (const auto& p : paths) {
      std::ifstream in(p, std::ios::binary);
      corpus.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      LLVMFuzzerTestOneInput(corpus.back().data(), corpus.back().size());
    }
  }
  std::printf("replayed %zu inputs\n", corpus.size());
  if (corpus.empty()) return 1;
  if (seconds <= 0) return 0;
  const std::string last = fs::path(argv[0]).filename().string() + ".last-input";
  std::printf("mutating for %g s, seed %llu (a crashing input is left in %s)\n", seconds,
              static_cast<unsigned long long>(seed), last.c_str());
  std::fflush(stdout);
  std::mt19937_64 rng(seed);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t runs = 0;
  while (std::chrono::steady_clock::now() < end) {
    const Bytes input = mutate(corpus, rng);
    if (FILE* f = std::fopen(last.c_str(), "wb")) {
      std::fwrite(input.data(), 1, input.size(), f);
      std::fclose(f);
    }
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ++runs;
  }
  std::remove(last.c_str());
  std::printf("ran %zu mutated inputs\n", runs);
  return 0;
}
