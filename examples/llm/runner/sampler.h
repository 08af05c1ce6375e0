// Next-token choice from a row of logits: greedy (temperature 0), or a draw from
// softmax(logits / temperature) restricted to the top_k most likely tokens (0 = all) and then
// to the smallest set of them whose probability reaches top_p (1 = all), with a seeded
// generator so that a seed repeats a run.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace llm {

struct SamplingOptions {
  float temperature = 0.0f;  // 0: greedy
  int32_t topK = 0;          // 0: no limit
  float topP = 1.0f;         // 1: no limit
  uint64_t seed = 0;
};

class Sampler {
 public:
  explicit Sampler(const SamplingOptions& o) : o_(o), rng_(o.seed) {}

  int32_t next(const std::vector<float>& logits) {
    const auto n = static_cast<int32_t>(logits.size());
    if (o_.temperature <= 0.0f) {  // greedy; the first of equal maxima, as numpy's argmax
      return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    }
    std::vector<int32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    const int32_t k = o_.topK > 0 && o_.topK < n ? o_.topK : n;
    auto byLogit = [&](int32_t a, int32_t b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), byLogit);
    order.resize(static_cast<size_t>(k));
    std::vector<double> p(order.size());
    const double top = logits[order[0]];
    double sum = 0.0;
    for (size_t i = 0; i < order.size(); ++i) sum += p[i] = std::exp((logits[order[i]] - top) / o_.temperature);
    size_t keep = order.size();
    if (o_.topP < 1.0f) {  // nucleus: the most likely tokens until their mass reaches top_p
      double mass = 0.0;
      for (size_t i = 0; i < order.size(); ++i) {
        mass += p[i] / sum;
        if (mass >= o_.topP) {
          keep = i + 1;
          break;
        }
      }
    }
    std::discrete_distribution<size_t> pick(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(keep));
    return order[pick(rng_)];
  }

 private:
  SamplingOptions o_;
  std::mt19937_64 rng_;
};

}  // namespace llm
