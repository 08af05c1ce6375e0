// The instruction set the CPU backend's kernels run on, chosen once at load
// time: the best this CPU supports (CPUID), never what the build machine had.
// QNN_CPU_ISA=avx2 or QNN_CPU_ISA=portable lowers it (to test or compare the
// other paths on an AVX-512 machine); a request above the CPU is ignored.
//
// Kernels with ISA-specific code define one function per path and pick with
// pickForIsa. Loops written for the compiler to vectorize are defined once as
// an always-inline body and wrapped per path in QNN_CPU_TARGET_AVX512 /
// QNN_CPU_TARGET_AVX2 functions (the body is compiled for each wrapper's ISA).
#pragma once

namespace qnn::cpu {

enum class Isa { kPortable = 0, kAvx2 = 1, kAvx512 = 2 };

Isa cpuIsa();
const char* isaName(Isa isa);

template <typename Fn>
Fn pickForIsa(Fn avx512, Fn avx2, Fn portable) {
  switch (cpuIsa()) {
    case Isa::kAvx512: return avx512;
    case Isa::kAvx2: return avx2;
    default: return portable;
  }
}

}  // namespace qnn::cpu

#if defined(__x86_64__)
#define QNN_CPU_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx2,fma,f16c")))
#define QNN_CPU_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
#else
#define QNN_CPU_TARGET_AVX512
#define QNN_CPU_TARGET_AVX2
#endif
#define QNN_CPU_ALWAYS_INLINE inline __attribute__((always_inline))
