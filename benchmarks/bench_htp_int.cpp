// Throughput of the HTP simulator's 8-bit integer kernels: the QuantGemm core
// with AVX-512 VNNI vs the portable loop (same exact results), and whole
// quantized Conv2d / FullyConnected kernels as dispatched on this machine, and
// the 8-bit non-GEMM kernels of ResNet-18 (max pool, residual Add (+ fused Relu),
// Relu, global average pool).
// Counters: ops/s = 2 * multiply-adds per second; bytes/s = bytes read + written.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "htp_sim/kernels/htp_kernel.h"
#include "htp_sim/kernels/quant_gemm.h"

namespace {

using qnn::htp::QuantGemm;

std::vector<uint8_t> randomBytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = uint8_t((seed = seed * 1664525u + 1013904223u) >> 24);
  return v;
}

void gemm(benchmark::State& state, bool vnni) {
  const size_t m = size_t(state.range(0)), k = size_t(state.range(1)), n = size_t(state.range(2));
  const std::vector<uint8_t> a = randomBytes(m * k, 1), braw = randomBytes(k * n, 2);
  std::vector<int32_t> b(k * n);
  for (size_t i = 0; i < b.size(); ++i) b[i] = int32_t(int8_t(braw[i]));
  QuantGemm g;
  g.pack(b.data(), k, n, true, vnni);
  if (vnni && !g.usesVnni()) {
    state.SkipWithError("no AVX-512 VNNI on this CPU");
    return;
  }
  std::vector<int32_t> c(m * n);
  for (auto _ : state) {
    g.multiply(a.data(), m, k, c.data());
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["ops/s"] = benchmark::Counter(2.0 * double(m * k * n), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_QuantGemm_Vnni(benchmark::State& s) { gemm(s, true); }
void BM_QuantGemm_Portable(benchmark::State& s) { gemm(s, false); }
// ResNet-18 conv2_x 3x3 (im2col 3136 x 576 x 64), a 1x1 conv, FC 512 -> 1000.
#define GEMM_SHAPES Args({3136, 576, 64})->Args({784, 128, 256})->Args({1, 512, 1000})->Args({64, 512, 1000})
BENCHMARK(BM_QuantGemm_Vnni)->GEMM_SHAPES;
BENCHMARK(BM_QuantGemm_Portable)->GEMM_SHAPES;

// Whole kernels through the htp_kernel.h interface.
qnn::sdk::TensorView view(qnn::sdk::DType t, std::vector<uint32_t> dims, void* data, float scale, int32_t offset) {
  qnn::sdk::TensorView v;
  v.dtype = t;
  v.dims = std::move(dims);
  v.data = data;
  v.quant.kind = qnn::sdk::QuantInfo::Kind::kScaleOffset;
  v.quant.scale = scale;
  v.quant.offset = offset;
  return v;
}

// clamp: a fused activation's real bounds, or null.
std::unique_ptr<qnn::htp::Kernel> preparedKernel(benchmark::State& state, const char* op,
                                                 const qnn::sdk::OpParams& params,
                                                 const std::vector<qnn::sdk::TensorView>& in,
                                                 const std::vector<qnn::sdk::TensorView>& out,
                                                 const double* clamp = nullptr) {
  auto kernel = qnn::htp::findKernel(op)(op);
  if (!kernel->init(params).isOk()) {
    state.SkipWithError("init failed");
    return nullptr;
  }
  if (clamp) {
    const auto e = qnn::sdk::Epilogue::clampTo(float(clamp[0]), float(clamp[1]));
    if (!kernel->supportsEpilogue(e) || !kernel->setEpilogue(e).isOk()) {
      state.SkipWithError("the kernel does not fuse an activation");
      return nullptr;
    }
  }
  if (!kernel->prepare(in, out).isOk()) {
    state.SkipWithError("prepare failed");
    return nullptr;
  }
  return kernel;
}

void runKernel(benchmark::State& state, const char* op, const qnn::sdk::OpParams& params,
               std::vector<qnn::sdk::TensorView> in, std::vector<qnn::sdk::TensorView> out, double macs) {
  auto kernel = preparedKernel(state, op, params, in, out);
  if (!kernel) return;
  for (auto _ : state) {
    if (!kernel->execute(in, out).isOk()) state.SkipWithError("execute failed");
  }
  state.counters["ops/s"] = benchmark::Counter(2.0 * macs, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(qnn::htp::vnniAvailable() ? "vnni" : "portable");
}

// Args: input H=W, channels in, channels out, kernel size, stride, asymmetric
// uint8 weights (1: the converter's default tf encoding; 0: symmetric int8).
void BM_HtpConv2d_u8(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), cin = uint32_t(state.range(1)), cout = uint32_t(state.range(2));
  const uint32_t ks = uint32_t(state.range(3)), stride = uint32_t(state.range(4)), pad = ks / 2;
  const bool asym = state.range(5) != 0;
  const uint32_t out = (hw + 2 * pad - ks) / stride + 1;
  std::vector<uint8_t> x = randomBytes(size_t(hw) * hw * cin, 3), w = randomBytes(size_t(ks) * ks * cin * cout, 4);
  std::vector<int32_t> bias(cout, 100);
  std::vector<uint8_t> y(size_t(out) * out * cout);
  qnn::sdk::OpParams p;
  p.set("stride", qnn::sdk::tensorU32({2}, {stride, stride}));
  p.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {pad, pad, pad, pad}));
  using qnn::sdk::DType;
  runKernel(state, "Conv2d", p,
            {view(DType::kUFixed8, {1, hw, hw, cin}, x.data(), 0.02f, -128),
             asym ? view(DType::kUFixed8, {ks, ks, cin, cout}, w.data(), 0.01f, -117)
                  : view(DType::kSFixed8, {ks, ks, cin, cout}, w.data(), 0.01f, 0),
             view(DType::kSFixed32, {cout}, bias.data(), 0.0002f, 0)},
            {view(DType::kUFixed8, {1, out, out, cout}, y.data(), 0.05f, -100)},
            double(out) * out * cout * cin * ks * ks);
}
// ResNet-18's stem, a 3x3 of each stage, a strided 1x1 downsample; the stem
// again with asymmetric weights. Wall time: the kernels split layers across threads.
BENCHMARK(BM_HtpConv2d_u8)
    ->Args({224, 3, 64, 7, 2, 0})
    ->Args({56, 64, 64, 3, 1, 0})
    ->Args({28, 128, 128, 3, 1, 0})
    ->Args({14, 256, 256, 3, 1, 0})
    ->Args({7, 512, 512, 3, 1, 0})
    ->Args({56, 64, 128, 1, 2, 0})
    ->Args({224, 3, 64, 7, 2, 1})
    ->Args({56, 64, 64, 3, 1, 1})
    ->UseRealTime();

// Args: input H=W, channels, stride (3x3 depthwise, pad 1): MobileNetV2's early and late layers.
void BM_HtpDepthWiseConv2d_u8(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), c = uint32_t(state.range(1)), stride = uint32_t(state.range(2));
  const uint32_t out = (hw + 2 - 3) / stride + 1;
  std::vector<uint8_t> x = randomBytes(size_t(hw) * hw * c, 7), w = randomBytes(9 * size_t(c), 8);
  std::vector<int32_t> bias(c, 100);
  std::vector<uint8_t> y(size_t(out) * out * c);
  qnn::sdk::OpParams p;
  p.set("stride", qnn::sdk::tensorU32({2}, {stride, stride}));
  p.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  using qnn::sdk::DType;
  runKernel(state, "DepthWiseConv2d", p,
            {view(DType::kUFixed8, {1, hw, hw, c}, x.data(), 0.02f, -128),
             view(DType::kSFixed8, {3, 3, 1, c}, w.data(), 0.01f, 0),
             view(DType::kSFixed32, {c}, bias.data(), 0.0002f, 0)},
            {view(DType::kUFixed8, {1, out, out, c}, y.data(), 0.05f, -100)}, double(out) * out * c * 9);
}
BENCHMARK(BM_HtpDepthWiseConv2d_u8)->Args({112, 96, 2})->Args({56, 144, 1})->Args({14, 576, 1})->UseRealTime();

void BM_HtpFullyConnected_u8(benchmark::State& state) {
  const uint32_t rows = uint32_t(state.range(0)), k = 512, n = 1000;
  std::vector<uint8_t> x = randomBytes(size_t(rows) * k, 5), w = randomBytes(size_t(n) * k, 6);
  std::vector<uint8_t> y(size_t(rows) * n);
  using qnn::sdk::DType;
  runKernel(state, "FullyConnected", qnn::sdk::OpParams{},
            {view(DType::kUFixed8, {rows, k}, x.data(), 0.02f, -128), view(DType::kSFixed8, {n, k}, w.data(), 0.01f, 0)},
            {view(DType::kUFixed8, {rows, n}, y.data(), 0.1f, -128)}, double(rows) * k * n);
}
BENCHMARK(BM_HtpFullyConnected_u8)->Arg(1)->Arg(64)->UseRealTime();

// Memory-bound kernels: bytes/s counts every input and output byte once.
void runStreaming(benchmark::State& state, const char* op, const qnn::sdk::OpParams& params,
                  const std::vector<qnn::sdk::TensorView>& in, const std::vector<qnn::sdk::TensorView>& out,
                  const double* clamp = nullptr) {
  auto kernel = preparedKernel(state, op, params, in, out, clamp);
  if (!kernel) return;
  for (auto _ : state) {
    if (!kernel->execute(in, out).isOk()) state.SkipWithError("execute failed");
    benchmark::ClobberMemory();
  }
  double bytes = 0;
  for (const auto& t : in) bytes += double(t.numElements());
  for (const auto& t : out) bytes += double(t.numElements());
  state.counters["bytes/s"] = benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate);
}

// ResNet-18's stem max pool: 3x3, stride 2, pad 1 on 1x112x112x64.
void BM_HtpPoolMax2d_u8(benchmark::State& state) {
  using qnn::sdk::DType;
  std::vector<uint8_t> x = randomBytes(112 * 112 * 64, 7), y(56 * 56 * 64);
  qnn::sdk::OpParams p;
  p.set("filter_size", qnn::sdk::tensorU32({2}, {3, 3}));
  p.set("stride", qnn::sdk::tensorU32({2}, {2, 2}));
  p.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  // range(0) = 1: the output encoding differs from the input's (max, then requantize).
  const float outScale = state.range(0) ? 0.03f : 0.02f;
  runStreaming(state, "PoolMax2d", p, {view(DType::kUFixed8, {1, 112, 112, 64}, x.data(), 0.02f, -10)},
               {view(DType::kUFixed8, {1, 56, 56, 64}, y.data(), outScale, -10)});
}
BENCHMARK(BM_HtpPoolMax2d_u8)->Arg(0)->Arg(1);

// ResNet-18's residual Add on 1x56x56x64; range(0) = 1 fuses the following Relu.
void BM_HtpAdd_u8(benchmark::State& state) {
  using qnn::sdk::DType;
  const uint32_t n = 56 * 56 * 64;
  std::vector<uint8_t> a = randomBytes(n, 8), b = randomBytes(n, 9), y(n);
  const double relu[2] = {0, INFINITY};
  runStreaming(state, "ElementWiseAdd", {},
               {view(DType::kUFixed8, {1, 56, 56, 64}, a.data(), 0.05f, -120),
                view(DType::kUFixed8, {1, 56, 56, 64}, b.data(), 0.03f, -128)},
               {view(DType::kUFixed8, {1, 56, 56, 64}, y.data(), 0.07f, -128)}, state.range(0) ? relu : nullptr);
}
BENCHMARK(BM_HtpAdd_u8)->Arg(0)->Arg(1);

// Add of a per-channel vector [64] (last-axis broadcast).
void BM_HtpAddChannel_u8(benchmark::State& state) {
  using qnn::sdk::DType;
  const uint32_t n = 56 * 56 * 64;
  std::vector<uint8_t> a = randomBytes(n, 8), b = randomBytes(64, 9), y(n);
  runStreaming(state, "ElementWiseAdd", {},
               {view(DType::kUFixed8, {1, 56, 56, 64}, a.data(), 0.05f, -120),
                view(DType::kUFixed8, {64}, b.data(), 0.03f, -128)},
               {view(DType::kUFixed8, {1, 56, 56, 64}, y.data(), 0.07f, -128)});
}
BENCHMARK(BM_HtpAddChannel_u8);

// Relu after the residual Add, equal encodings in and out.
void BM_HtpRelu_u8(benchmark::State& state) {
  using qnn::sdk::DType;
  const uint32_t n = 56 * 56 * 64;
  std::vector<uint8_t> x = randomBytes(n, 10), y(n);
  runStreaming(state, "Relu", {}, {view(DType::kUFixed8, {1, 56, 56, 64}, x.data(), 0.07f, -128)},
               {view(DType::kUFixed8, {1, 56, 56, 64}, y.data(), 0.07f, -128)});
}
BENCHMARK(BM_HtpRelu_u8);

// Global average pool of ResNet-18: ReduceMean over H, W of 1x7x7x512.
void BM_HtpReduceMean_u8(benchmark::State& state) {
  using qnn::sdk::DType;
  std::vector<uint8_t> x = randomBytes(7 * 7 * 512, 11), y(512);
  qnn::sdk::OpParams p;
  p.set("axes", qnn::sdk::tensorU32({2}, {1, 2}));
  p.set("keep_dims", qnn::sdk::scalarBool(true));
  runStreaming(state, "ReduceMean", p, {view(DType::kUFixed8, {1, 7, 7, 512}, x.data(), 0.05f, 0)},
               {view(DType::kUFixed8, {1, 1, 1, 512}, y.data(), 0.02f, 0)});
}
BENCHMARK(BM_HtpReduceMean_u8);

}  // namespace
