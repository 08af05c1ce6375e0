// Micro-benchmarks of the CPU backend's compute core: square GEMMs and the two
// MobileNetV2 building blocks (3x3 depthwise, 1x1 pointwise conv), reported in
// FLOP/s. Thread count follows QNN_CPU_NUM_THREADS like the backend itself.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <vector>

#include "core/large_buffer.h"
#include "core/op_params.h"
#include "cpu/kernels/gemm.h"
#include "cpu/kernels/gemm_amx.h"
#include "cpu/kernels/kernel.h"
#include "cpu/kernels/pointwise_depthwise.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

using qnn::sdk::DType;
using qnn::sdk::TensorView;

// Sets fused work on a prepared kernel as the CPU engine does; false when the kernel declines.
bool fuse(qnn::cpu::Kernel& kernel, const qnn::sdk::Epilogue& epilogue) {
  return kernel.supportsEpilogue(epilogue) && kernel.setEpilogue(epilogue).isOk();
}
qnn::sdk::Epilogue clampTo(float lo, float hi) {
  qnn::sdk::Epilogue e;
  e.clamp = {lo, hi};
  return e;
}

std::vector<float> filled(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int(i * 7919 % 201) - 100) / 100.f;
  return v;
}

#if defined(__x86_64__)
// One core's fp32 FMA peak, the yardstick docs/benchmarks.md holds the models
// to: 16 independent AVX-512 FMA chains (enough to cover the FMA latency on
// both pipes), 16 lanes x 2 FLOP each per instruction.
__attribute__((target("avx512f"))) void BM_FmaPeakAvx512(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx512f")) {
    state.SkipWithError("no AVX-512");
    return;
  }
  constexpr int kChains = 16, kIters = 4096;
  for (auto _ : state) {
    __m512 acc[kChains];
    for (int i = 0; i < kChains; ++i) acc[i] = _mm512_set1_ps(float(i));
    const __m512 m = _mm512_set1_ps(0.999f), a = _mm512_set1_ps(0.001f);
    for (int it = 0; it < kIters; ++it)
      for (int i = 0; i < kChains; ++i) acc[i] = _mm512_fmadd_ps(acc[i], m, a);
    for (int i = 0; i < kChains; ++i) benchmark::DoNotOptimize(acc[i]);
  }
  state.counters["FLOP/s"] = benchmark::Counter(double(kChains) * kIters * 16 * 2 * state.iterations(),
                                                benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FmaPeakAvx512);
#endif

void BM_GemmSquare(benchmark::State& state) {
  const size_t n = size_t(state.range(0));
  std::vector<float> a = filled(n * n), b = filled(n * n), c(n * n);
  std::vector<float> packed(qnn::cpu::gemm::packedBSize(n, n));
  qnn::cpu::gemm::packB(b.data(), n, false, n, n, packed.data());
  for (auto _ : state) {
    qnn::cpu::gemm::multiply(n, n, n, a.data(), n, false, packed.data(), nullptr, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GemmSquare)->Arg(256)->Arg(512)->Arg(768)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond);

// The same products through one level of Strassen (gemm::multiplyStrassen; 7/8 of the multiply-adds,
// FLOP/s counted as for the classic product).
void BM_GemmStrassen(benchmark::State& state) {
  const size_t n = size_t(state.range(0));
  if (!qnn::cpu::gemm::strassenSupported(n, n, n, false)) {
    state.SkipWithError("no AVX-512");
    return;
  }
  std::vector<float> a = filled(n * n), b = filled(n * n), c(n * n);
  std::vector<float> packed(qnn::cpu::gemm::strassenPackedBSize(n, n));
  qnn::cpu::gemm::packBStrassen(b.data(), n, false, n, n, packed.data());
  for (auto _ : state) {
    qnn::cpu::gemm::multiplyStrassen(n, n, n, a.data(), n, packed.data(), nullptr, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GemmStrassen)->Arg(512)->Arg(768)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond);

// The transformer's FullyConnected products (seq 128, hidden 256, FFN 1024): args M, K, N. K = 1024
// (the FFN down projection) has A's rows 4 KiB apart, which the GEMM copies before reading.
void evictCaches(benchmark::State& state);

void BM_GemmTransformer(benchmark::State& state) {
  const size_t m = size_t(state.range(0)), k = size_t(state.range(1)), n = size_t(state.range(2));
  const bool cold = state.range(3) != 0;
  std::vector<float> a = filled(m * k), b = filled(k * n), bias = filled(n), c(m * n);
  std::vector<float> packed(qnn::cpu::gemm::packedBSize(k, n));
  qnn::cpu::gemm::packB(b.data(), n, false, k, n, packed.data());
  for (auto _ : state) {
    if (cold) evictCaches(state);
    qnn::cpu::gemm::multiply(m, n, k, a.data(), k, false, packed.data(), bias.data(), c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GemmTransformer)->Args({128, 256, 256, 0})->Args({128, 256, 1024, 0})->Args({128, 1024, 256, 0})->Args({128, 256, 256, 1})->Args({128, 256, 1024, 1})->Args({128, 1024, 256, 1})->Args({1024, 1024, 1024, 0})->UseRealTime()->Unit(benchmark::kMicrosecond);

// The same products as six bfloat16 products on the AMX tile unit (gemm_amx.h; QNN_CPU_AMX=1).
void BM_GemmAmxTransformer(benchmark::State& state) {
  if (!qnn::cpu::gemm::amxSupported()) {
    state.SkipWithError("no AMX tile unit, or QNN_CPU_AMX is not 1");
    return;
  }
  const size_t m = size_t(state.range(0)), k = size_t(state.range(1)), n = size_t(state.range(2));
  const bool cold = state.range(3) != 0;
  std::vector<float> a = filled(m * k), b = filled(k * n), bias = filled(n), c(m * n);
  qnn::sdk::LargeVector<float> packed(qnn::cpu::gemm::amxPackedBSize(k, n));  // 64-byte aligned, as the kernels' are
  qnn::cpu::gemm::packBAmx(b.data(), n, false, k, n, packed.data());
  for (auto _ : state) {
    if (cold) evictCaches(state);
    qnn::cpu::gemm::multiplyAmx(m, n, k, a.data(), k, packed.data(), bias.data(), c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GemmAmxTransformer)->Args({128, 256, 256, 0})->Args({128, 256, 1024, 0})->Args({128, 1024, 256, 0})->Args({128, 256, 256, 1})->Args({128, 256, 1024, 1})->Args({128, 1024, 256, 1})->Args({1024, 1024, 1024, 0})->UseRealTime()->Unit(benchmark::kMicrosecond);

// Writes 64 MiB (more than the L3) outside the timed region: the next run finds its weights, input,
// output and scratch in memory, as a layer of a whole model does (its weights were last read one
// inference ago; a hot micro-benchmark hid ~100 us per ResNet-18 3x3 layer that the model paid).
// The pause itself is not free: on the Xeon host of docs/benchmarks.md a PauseTiming / ResumeTiming
// pair with nothing between added 70-80 us to the next 128 x 256 x 1024 product, so `/1` figures
// overstate what cold operands cost (timed per call there: +6-13 %).
void evictCaches(benchmark::State& state) {
  static std::vector<float> junk(size_t(16) << 20);
  state.PauseTiming();
  for (size_t i = 0; i < junk.size(); i += 16) junk[i] += 1.f;
  benchmark::DoNotOptimize(junk.data());
  state.ResumeTiming();
}

// Runs one conv-family kernel on NHWC input [1, h, w, cin] with a static filter; `cold` flushes the
// caches before every run.
void runConv(benchmark::State& state, const char* opType, std::vector<uint32_t> inDims,
             std::vector<uint32_t> filterDims, std::vector<uint32_t> outDims, uint32_t stride, uint32_t pad,
             double flops, bool fuseRelu6 = false, bool cold = false) {
  auto factory = qnn::cpu::findKernel(opType);
  if (!factory) {
    state.SkipWithError("no kernel");
    return;
  }
  auto kernel = factory(opType);
  qnn::sdk::OpParams params;
  params.set("stride", qnn::sdk::tensorU32({2}, {stride, stride}));
  params.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {pad, pad, pad, pad}));
  std::vector<float> x = filled(TensorView{nullptr, DType::kFloat32, inDims, {}}.numElements());
  std::vector<float> w = filled(TensorView{nullptr, DType::kFloat32, filterDims, {}}.numElements());
  std::vector<float> bias = filled(filterDims[3]);
  std::vector<float> y(TensorView{nullptr, DType::kFloat32, outDims, {}}.numElements());
  std::vector<TensorView> inDesc{{nullptr, DType::kFloat32, inDims, {}},
                                 {w.data(), DType::kFloat32, filterDims, {}},
                                 {bias.data(), DType::kFloat32, {filterDims[3]}, {}}};
  std::vector<TensorView> outDesc{{nullptr, DType::kFloat32, outDims, {}}};
  if (!kernel->init(params).isOk() || !kernel->prepare(inDesc, outDesc).isOk() ||
      (fuseRelu6 && !fuse(*kernel, clampTo(0.f, 6.f)))) {
    state.SkipWithError("init/prepare/fuse failed");
    return;
  }
  inDesc[0].data = x.data();
  outDesc[0].data = y.data();
  for (auto _ : state) {
    if (cold) evictCaches(state);
    if (!kernel->execute(inDesc, outDesc).isOk()) state.SkipWithError("execute failed");
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

// MobileNetV2 block 2 expansion output: 112x112x96, 3x3 depthwise stride 1.
void BM_DepthwiseConv3x3(benchmark::State& state) {
  runConv(state, "DepthWiseConv2d", {1, 112, 112, 96}, {3, 3, 1, 96}, {1, 112, 112, 96}, 1, 1,
          2.0 * 112 * 112 * 96 * 9);
}
BENCHMARK(BM_DepthwiseConv3x3)->Unit(benchmark::kMillisecond);

// MobileNetV2 pointwise projection: 56x56, 144 -> 24 channels... and a wider 1x1.
void BM_PointwiseConv1x1(benchmark::State& state) {
  runConv(state, "Conv2d", {1, 56, 56, 144}, {1, 1, 144, 32}, {1, 56, 56, 32}, 1, 0, 2.0 * 56 * 56 * 144 * 32);
}
BENCHMARK(BM_PointwiseConv1x1)->Unit(benchmark::kMillisecond);

// The same convs with a ReluMinMax(0, 6) folded into them (the CPU engine's
// activation fusion): the epilogue's cost over the plain kernels above.
void BM_PointwiseConv1x1FusedRelu6(benchmark::State& state) {
  runConv(state, "Conv2d", {1, 56, 56, 144}, {1, 1, 144, 32}, {1, 56, 56, 32}, 1, 0, 2.0 * 56 * 56 * 144 * 32, true);
}
BENCHMARK(BM_PointwiseConv1x1FusedRelu6)->Unit(benchmark::kMillisecond);
void BM_DepthwiseConv3x3FusedRelu6(benchmark::State& state) {
  runConv(state, "DepthWiseConv2d", {1, 112, 112, 96}, {3, 3, 1, 96}, {1, 112, 112, 96}, 1, 1,
          2.0 * 112 * 112 * 96 * 9, true);
}
BENCHMARK(BM_DepthwiseConv3x3FusedRelu6)->Unit(benchmark::kMillisecond);

// MobileNetV2's 1x1 convolutions with their ReLU6 (args: H = W, cin, cout) and its 3x3 depthwise layers
// (args: input H = W, channels, stride), one by one: how close each shape runs to the FMA peak (the
// 1x1 layers) or to the memory it moves (the depthwise layers), and what the model's layers cost alone.
void BM_MobileNetV2Pointwise(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), cin = uint32_t(state.range(1)), cout = uint32_t(state.range(2));
  runConv(state, "Conv2d", {1, hw, hw, cin}, {1, 1, cin, cout}, {1, hw, hw, cout}, 1, 0,
          2.0 * hw * hw * cin * cout, true);
}
BENCHMARK(BM_MobileNetV2Pointwise)
    ->Args({112, 32, 16})
    ->Args({112, 16, 96})
    ->Args({28, 16, 96})
    ->Args({28, 24, 144})
    ->Args({56, 96, 24})
    ->Args({56, 24, 144})
    ->Args({56, 144, 24})
    ->Args({28, 32, 192})
    ->Args({28, 192, 32})
    ->Args({14, 64, 384})
    ->Args({14, 384, 64})
    ->Args({14, 96, 576})
    ->Args({14, 576, 96})
    ->Args({7, 160, 960})
    ->Args({7, 960, 160})
    ->Args({7, 320, 1280})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void BM_MobileNetV2Depthwise(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), c = uint32_t(state.range(1)), stride = uint32_t(state.range(2));
  const uint32_t out = (hw + 2 - 3) / stride + 1;
  runConv(state, "DepthWiseConv2d", {1, hw, hw, c}, {3, 3, 1, c}, {1, out, out, c}, stride, 1,
          2.0 * out * out * c * 9, true);
}
BENCHMARK(BM_MobileNetV2Depthwise)
    ->Args({112, 32, 1})
    ->Args({56, 144, 1})
    ->Args({28, 192, 1})
    ->Args({14, 384, 1})
    ->Args({14, 576, 1})
    ->Args({7, 960, 1})
    ->Args({112, 96, 2})
    ->Args({56, 144, 2})
    ->Args({28, 192, 2})
    ->Args({14, 576, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// ResNet-18 layer2 3x3 conv (im2col path): 28x28x128 -> 128.
void BM_Conv3x3Im2col(benchmark::State& state) {
  runConv(state, "Conv2d", {1, 28, 28, 128}, {3, 3, 128, 128}, {1, 28, 28, 128}, 1, 1,
          2.0 * 28 * 28 * 128 * 128 * 9);
}
BENCHMARK(BM_Conv3x3Im2col)->Unit(benchmark::kMillisecond);

// ResNet-18's Conv2d layers (im2col path unless 1x1): args = input H (= W),
// channel_in, channel_out, kernel, stride; padding kernel / 2. Wall time, so
// QNN_CPU_NUM_THREADS=2 shows the split over threads (7x7 maps: over output
// channels; larger maps: over pixel tiles).
void BM_Conv2dResNet18(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), cin = uint32_t(state.range(1)), cout = uint32_t(state.range(2));
  const uint32_t k = uint32_t(state.range(3)), stride = uint32_t(state.range(4)), pad = k / 2;
  const uint32_t out = (hw + 2 * pad - k) / stride + 1;
  runConv(state, "Conv2d", {1, hw, hw, cin}, {k, k, cin, cout}, {1, out, out, cout}, stride, pad,
          2.0 * out * out * cout * cin * k * k);
}
BENCHMARK(BM_Conv2dResNet18)
    ->Args({224, 3, 64, 7, 2})    // stem
    ->Args({56, 64, 64, 3, 1})    // layer1
    ->Args({56, 64, 128, 3, 2})   // layer2.0.conv1
    ->Args({28, 128, 128, 3, 1})  // layer2
    ->Args({14, 256, 256, 3, 1})  // layer3
    ->Args({7, 512, 512, 3, 1})   // layer4
    ->Args({28, 256, 512, 1, 2})  // layer4 downsample (strided 1x1: im2col)
    ->Args({224, 3, 32, 3, 2})    // MobileNetV2 stem (27-long im2col rows)
    ->Args({112, 16, 96, 1, 1})   // MobileNetV2 block 2 expansion (1x1, K = 16)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ResNet-18's 3x3 layers with the caches flushed before each run (evictCaches): what they cost inside
// the model, where the other layers' weights and activations have pushed theirs out.
void BM_Conv2dResNet18Cold(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), cin = uint32_t(state.range(1)), cout = uint32_t(state.range(2));
  runConv(state, "Conv2d", {1, hw, hw, cin}, {3, 3, cin, cout}, {1, hw, hw, cout}, 1, 1,
          2.0 * hw * hw * cout * cin * 9, false, true);
}
BENCHMARK(BM_Conv2dResNet18Cold)
    ->Args({56, 64, 64})
    ->Args({28, 128, 128})
    ->Args({14, 256, 256})
    ->Args({7, 512, 512})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// MobileNetV2's second block head: 1x1 conv 16 -> 96 on 112x112 with ReLU6,
// then a 3x3 stride-2 depthwise conv with ReLU6 (the 4.8 MB intermediate
// between them). Arg 0: the two kernels one after the other; arg 1: the
// fused band kernel the CPU engine makes of them (pointwise_depthwise.h).
void BM_ExpandDepthwiseBlock(benchmark::State& state) {
  const bool fused = state.range(0) != 0;
  qnn::sdk::OpParams pw, dw;
  pw.set("stride", qnn::sdk::tensorU32({2}, {1, 1}));
  pw.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {0, 0, 0, 0}));
  dw.set("stride", qnn::sdk::tensorU32({2}, {2, 2}));
  dw.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {0, 1, 0, 1}));
  const std::vector<uint32_t> xDims{1, 112, 112, 16}, w1Dims{1, 1, 16, 96}, midDims{1, 112, 112, 96},
      w2Dims{3, 3, 1, 96}, yDims{1, 56, 56, 96};
  std::vector<float> x = filled(112 * 112 * 16), w1 = filled(16 * 96), b1 = filled(96), w2 = filled(9 * 96),
                     b2 = filled(96), mid(112 * 112 * 96), y(56 * 56 * 96);
  std::vector<TensorView> pwIn{{nullptr, DType::kFloat32, xDims, {}},
                               {w1.data(), DType::kFloat32, w1Dims, {}},
                               {b1.data(), DType::kFloat32, {96}, {}}};
  std::vector<TensorView> dwIn{{nullptr, DType::kFloat32, midDims, {}},
                               {w2.data(), DType::kFloat32, w2Dims, {}},
                               {b2.data(), DType::kFloat32, {96}, {}}};
  std::vector<TensorView> midOut{{nullptr, DType::kFloat32, midDims, {}}}, out{{nullptr, DType::kFloat32, yDims, {}}};
  const qnn::cpu::gemm::Clamp relu6{0.f, 6.f};
  std::unique_ptr<qnn::cpu::Kernel> k1, k2, both;
  if (fused) {
    both = qnn::cpu::makePointwiseDepthwise(pw, pwIn, &relu6, dw, dwIn, out[0], &relu6);
    if (!both) return state.SkipWithError("the pair does not qualify");
  } else {
    k1 = qnn::cpu::findKernel("Conv2d")("Conv2d");
    k2 = qnn::cpu::findKernel("DepthWiseConv2d")("DepthWiseConv2d");
    if (!k1->init(pw).isOk() || !k1->prepare(pwIn, midOut).isOk() || !fuse(*k1, clampTo(0.f, 6.f)) ||
        !k2->init(dw).isOk() || !k2->prepare(dwIn, out).isOk() || !fuse(*k2, clampTo(0.f, 6.f)))
      return state.SkipWithError("init/prepare failed");
  }
  pwIn[0].data = x.data(), dwIn[0].data = mid.data(), midOut[0].data = mid.data(), out[0].data = y.data();
  std::vector<TensorView> fusedIn{pwIn[0], pwIn[1], pwIn[2], dwIn[1], dwIn[2]};
  for (auto _ : state) {
    if (fused) {
      if (!both->execute(fusedIn, out).isOk()) state.SkipWithError("execute failed");
    } else if (!k1->execute(pwIn, midOut).isOk() || !k2->execute(dwIn, out).isOk()) {
      state.SkipWithError("execute failed");
    }
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_ExpandDepthwiseBlock)->ArgName("fused")->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// ResNet-18's stem: Conv2d 7x7 stride 2 (3 -> 64, Relu) then PoolMax2d 3x3 stride 2 pad 1. Arg 0: the
// two kernels one after the other (the 112x112x64 convolution output in between); arg 1: the pool
// folded into the convolution (Epilogue::maxPool, row bands in L2).
void BM_StemConvMaxPool(benchmark::State& state) {
  const bool fused = state.range(0) != 0;
  qnn::sdk::OpParams conv, pool;
  conv.set("stride", qnn::sdk::tensorU32({2}, {2, 2}));
  conv.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {3, 3, 3, 3}));
  pool.set("filter_size", qnn::sdk::tensorU32({2}, {3, 3}));
  pool.set("stride", qnn::sdk::tensorU32({2}, {2, 2}));
  pool.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  const std::vector<uint32_t> xDims{1, 224, 224, 3}, wDims{7, 7, 3, 64}, midDims{1, 112, 112, 64}, yDims{1, 56, 56, 64};
  std::vector<float> x = filled(224 * 224 * 3), w = filled(7 * 7 * 3 * 64), b = filled(64), mid(112 * 112 * 64),
                     y(56 * 56 * 64);
  std::vector<TensorView> convIn{{nullptr, DType::kFloat32, xDims, {}},
                                 {w.data(), DType::kFloat32, wDims, {}},
                                 {b.data(), DType::kFloat32, {64}, {}}};
  std::vector<TensorView> midOut{{nullptr, DType::kFloat32, midDims, {}}}, out{{nullptr, DType::kFloat32, yDims, {}}};
  auto k1 = qnn::cpu::findKernel("Conv2d")("Conv2d");
  auto k2 = qnn::cpu::findKernel("PoolMax2d")("PoolMax2d");
  qnn::sdk::Epilogue relu = clampTo(0.f, INFINITY), reluPool = relu;
  reluPool.maxPool = &pool, reluPool.maxPoolOut = out[0];
  if (!k1->init(conv).isOk() || !k1->prepare(convIn, midOut).isOk() || !k2->init(pool).isOk() ||
      !k2->prepare(midOut, out).isOk())
    return state.SkipWithError("init/prepare failed");
  if (!fuse(*k1, fused ? reluPool : relu)) return state.SkipWithError("the pair does not qualify");
  convIn[0].data = x.data(), midOut[0].data = mid.data(), out[0].data = y.data();
  for (auto _ : state) {
    if (fused) {
      if (!k1->execute(convIn, out).isOk()) state.SkipWithError("execute failed");
    } else if (!k1->execute(convIn, midOut).isOk() || !k2->execute(midOut, out).isOk()) {
      state.SkipWithError("execute failed");
    }
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_StemConvMaxPool)->ArgName("fused")->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

// Linked with benchmark::benchmark_main, which provides main().

// MobileNetV2's short products as its layers run them, warm (A, B and C in L2), bias and ReLU6:
// a fused band's expansion (560 x 16 -> 96: five rows of 112 pixels; 336 x 24 -> 144), the
// one-panel projection (32 -> 16), a 28x28 expansion, a band-sized projection to 24 (the
// paired-rows kernel) and a 14x14 projection. Args M, K, N.
void BM_GemmBand(benchmark::State& state) {
  const size_t m = size_t(state.range(0)), k = size_t(state.range(1)), n = size_t(state.range(2));
  std::vector<float> a = filled(m * k), b = filled(k * n), bias = filled(n), c(m * n);
  std::vector<float> packed(qnn::cpu::gemm::packedBSize(k, n));
  qnn::cpu::gemm::packB(b.data(), n, false, k, n, packed.data());
  const qnn::cpu::gemm::Clamp clamp{0.f, 6.f};
  for (auto _ : state) {
    qnn::cpu::gemm::multiply(m, n, k, a.data(), k, false, packed.data(), bias.data(), c.data(), n, false, &clamp);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}
// A residual connection's Add in the product's store (gemm::multiply's residual) against the
// product followed by a separate pass of adds: the transformer's output projection (128 x 256 ->
// 256) and a MobileNetV2 projection (784 x 192 -> 32). Args M, K, N, fused.
void BM_GemmResidual(benchmark::State& state) {
  const size_t m = size_t(state.range(0)), k = size_t(state.range(1)), n = size_t(state.range(2));
  const bool fused = state.range(3) != 0;
  std::vector<float> a = filled(m * k), b = filled(k * n), bias = filled(n), r = filled(m * n), c(m * n);
  std::vector<float> packed(qnn::cpu::gemm::packedBSize(k, n));
  qnn::cpu::gemm::packB(b.data(), n, false, k, n, packed.data());
  for (auto _ : state) {
    if (fused) {
      qnn::cpu::gemm::multiply(m, n, k, a.data(), k, false, packed.data(), bias.data(), c.data(), n, false, nullptr,
                               false, r.data());
    } else {
      qnn::cpu::gemm::multiply(m, n, k, a.data(), k, false, packed.data(), bias.data(), c.data(), n, false);
      for (size_t i = 0; i < m * n; ++i) c[i] += r[i];
    }
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * m * n * k, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_GemmResidual)->Args({128, 256, 256, 0})->Args({128, 256, 256, 1})->Args({784, 192, 32, 0})->Args({784, 192, 32, 1})->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_GemmBand)->Args({560, 16, 96})->Args({336, 24, 144})->Args({1792, 32, 16})->Args({784, 32, 192})->Args({336, 144, 24})->Args({196, 576, 96})->UseRealTime()->Unit(benchmark::kMicrosecond);
