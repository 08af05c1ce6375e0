#include "cpu/kernels/cpu_isa.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace qnn::cpu {
namespace {

#if defined(__x86_64__)
// CPUID leaf 1, ECX bit 29 (clang's __builtin_cpu_supports does not know "f16c").
bool hasF16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) != 0;
}
#endif

Isa detectIsa() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("fma"))
    return Isa::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && hasF16c())
    return Isa::kAvx2;
#endif
  return Isa::kPortable;
}

Isa chooseIsa() {
  const Isa best = detectIsa();
  const char* env = std::getenv("QNN_CPU_ISA");
  if (!env || !*env) return best;
  Isa asked;
  if (!std::strcmp(env, "avx512")) asked = Isa::kAvx512;
  else if (!std::strcmp(env, "avx2")) asked = Isa::kAvx2;
  else if (!std::strcmp(env, "portable") || !std::strcmp(env, "scalar")) asked = Isa::kPortable;
  else return best;  // unknown value: ignored
  return asked < best ? asked : best;
}

}  // namespace

Isa cpuIsa() {
  static const Isa isa = chooseIsa();
  return isa;
}

const char* isaName(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512";
    case Isa::kAvx2: return "avx2";
    default: return "portable";
  }
}

}  // namespace qnn::cpu
