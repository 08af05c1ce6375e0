// Deterministic test values for the kernel-level tests (kernel_*_test.cpp): n floats in [-1, 1] in
// steps of 1/1000 from a linear congruential sequence, the same for the same seed on every host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qnn::cpu::test {

inline std::vector<float> kernelTestValues(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = float(int(s >> 9) % 2001 - 1000) / 1000.f;
  }
  return v;
}

}  // namespace qnn::cpu::test
