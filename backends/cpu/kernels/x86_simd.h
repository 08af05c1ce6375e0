// <immintrin.h> for the kernels with hand-written AVX2 / AVX-512 paths (each
// picks them at run time, cpu_isa.h). GCC 12 reports the undefined vectors
// inside some intrinsics (_mm512_undefined_ps in max / min, the reductions,
// the unpacks) as (maybe-)uninitialized: false positives of the intrinsics
// header, silenced here once for every kernel.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif
