// Throughput of the HTP simulator's 8-bit integer kernels: the QuantGemm core
// with AVX-512 VNNI vs the portable loop (same exact results), and whole
// quantized Conv2d / FullyConnected kernels as dispatched on this machine.
// Counters: ops/s = 2 * multiply-adds per second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "htp_kernel.h"
#include "quant_gemm.h"

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

void runKernel(benchmark::State& state, const char* op, const qnn::sdk::OpParams& params,
               std::vector<qnn::sdk::TensorView> in, std::vector<qnn::sdk::TensorView> out, double macs) {
  auto kernel = qnn::htp::findKernel(op)(op);
  if (!kernel->init(params).isOk() || !kernel->prepare(in, out).isOk()) {
    state.SkipWithError("prepare failed");
    return;
  }
  for (auto _ : state) {
    if (!kernel->execute(in, out).isOk()) state.SkipWithError("execute failed");
  }
  state.counters["ops/s"] = benchmark::Counter(2.0 * macs, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(qnn::htp::vnniAvailable() ? "vnni" : "portable");
}

void BM_HtpConv2d_u8_3x3(benchmark::State& state) {
  const uint32_t hw = uint32_t(state.range(0)), c = uint32_t(state.range(1));
  std::vector<uint8_t> x = randomBytes(size_t(hw) * hw * c, 3), w = randomBytes(9 * size_t(c) * c, 4);
  std::vector<int32_t> bias(c, 100);
  std::vector<uint8_t> y(size_t(hw) * hw * c);
  qnn::sdk::OpParams p;
  p.set("stride", qnn::sdk::tensorU32({2}, {1, 1}));
  p.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  using qnn::sdk::DType;
  runKernel(state, "Conv2d", p,
            {view(DType::kUFixed8, {1, hw, hw, c}, x.data(), 0.02f, -128),
             view(DType::kSFixed8, {3, 3, c, c}, w.data(), 0.01f, 0),
             view(DType::kSFixed32, {c}, bias.data(), 0.0002f, 0)},
            {view(DType::kUFixed8, {1, hw, hw, c}, y.data(), 0.05f, -100)}, double(hw) * hw * c * c * 9);
}
// Wall time: the kernels split large layers across threads.
BENCHMARK(BM_HtpConv2d_u8_3x3)->Args({56, 64})->Args({14, 256})->UseRealTime();

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

}  // namespace
