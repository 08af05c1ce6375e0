// Independent reference for the small_cnn test model (model.cpp next to this file):
// the deterministic weights and inputs (same formulas as make_model_bin.py, see
// README.md) and the graph computed with plain loops, in double precision.
// Header-only so other tool tests (qnn-net-run, ...) can reuse it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace small_cnn_ref {

constexpr int kH = 8, kW = 8, kCin = 3, kCout = 4;  // input 1x8x8x3, conv 3x3 -> 4 channels
constexpr int kPH = 4, kPW = 4;                     // after 2x2/2 max pooling
constexpr int kFlat = kPH * kPW * kCout;            // 64
constexpr int kClasses = 10;

inline std::vector<float> weights(int count, int seed) {
  std::vector<float> v(count);
  for (int i = 0; i < count; ++i) v[i] = static_cast<float>(((i * 37 + seed * 11) % 23) - 11) / 32.0f;
  return v;
}
inline std::vector<float> conv1Weight() { return weights(3 * 3 * kCin * kCout, 1); }  // HWIO
inline std::vector<float> conv1Bias() { return weights(kCout, 2); }
inline std::vector<float> fc1Weight() { return weights(kClasses * kFlat, 3); }  // [out][in]
inline std::vector<float> fc1Bias() { return weights(kClasses, 4); }

inline std::vector<float> input() {  // [1,8,8,3]
  std::vector<float> v(kH * kW * kCin);
  for (int i = 0; i < static_cast<int>(v.size()); ++i) v[i] = static_cast<float>(((i * 13 + 5) % 17) - 8) / 16.0f;
  return v;
}
inline std::vector<float> residual() {  // [1,4,4,4]
  std::vector<float> v(kFlat);
  for (int i = 0; i < static_cast<int>(v.size()); ++i) v[i] = static_cast<float>(((i * 7 + 3) % 11) - 5) / 8.0f;
  return v;
}

struct Outputs {
  std::vector<double> logits;  // [1,10]
  std::vector<double> probs;   // [1,10]
};

inline Outputs compute(const std::vector<float>& in, const std::vector<float>& res) {
  const std::vector<float> w = conv1Weight(), b = conv1Bias(), fw = fc1Weight(), fb = fc1Bias();
  // Conv2d 3x3, stride 1, zero padding 1, then Relu.
  std::vector<double> act(kH * kW * kCout);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      for (int co = 0; co < kCout; ++co) {
        double s = b[co];
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            const int iy = y + ky - 1, ix = x + kx - 1;
            if (iy < 0 || iy >= kH || ix < 0 || ix >= kW) continue;
            for (int ci = 0; ci < kCin; ++ci)
              s += double(in[(iy * kW + ix) * kCin + ci]) * w[((ky * 3 + kx) * kCin + ci) * kCout + co];
          }
        act[(y * kW + x) * kCout + co] = std::max(0.0, s);
      }
  // PoolMax2d 2x2 stride 2, + residual; the NHWC order is the Reshape's flat order.
  std::vector<double> flat(kFlat);
  for (int y = 0; y < kPH; ++y)
    for (int x = 0; x < kPW; ++x)
      for (int c = 0; c < kCout; ++c) {
        double m = act[((2 * y) * kW + 2 * x) * kCout + c];
        for (int dy = 0; dy < 2; ++dy)
          for (int dx = 0; dx < 2; ++dx) m = std::max(m, act[((2 * y + dy) * kW + 2 * x + dx) * kCout + c]);
        const int i = (y * kPW + x) * kCout + c;
        flat[i] = m + res[i];
      }
  Outputs out;
  out.logits.resize(kClasses);
  for (int o = 0; o < kClasses; ++o) {
    double s = fb[o];
    for (int k = 0; k < kFlat; ++k) s += flat[k] * fw[o * kFlat + k];
    out.logits[o] = s;
  }
  const double mx = *std::max_element(out.logits.begin(), out.logits.end());
  double sum = 0;
  out.probs.resize(kClasses);
  for (int o = 0; o < kClasses; ++o) sum += out.probs[o] = std::exp(out.logits[o] - mx);
  for (double& p : out.probs) p /= sum;
  return out;
}

}  // namespace small_cnn_ref
