// An LLM runtime's use of the API, end to end on both backends: a one-layer
// decoder (vocabulary 32, width 16) as two graphs of one context, "prefill"
// (16 tokens, causal mask) and "decode" (1 token against a KV cache of 32 rows),
// built with the same weights, saved as one binary (the weights stored once),
// loaded back with QnnContext_createFromBinaryListAsync; the KV cache lives in
// buffers of a POPULATE_CLIENT_BUFS execution environment of the decode graph,
// filled from the prefill's keys/values and each decode's new row. Greedy
// decoding of 16 tokens; every step's logits are compared with a plain-loop
// reference of the same decoder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

constexpr uint32_t V = 32, D = 16, S = 16, T = 32;  // vocabulary, width, prompt length, cache rows

using Mat = std::vector<float>;  // row-major

struct Weights {
  Mat embed, pos, wq, wk, wv, wo, w1, w2, lm;  // embed V x D, pos T x D, w* D x D, lm D x V
};

Mat random(size_t n, uint32_t seed, float scale) {
  Mat m(n);
  uint32_t s = seed * 2654435761u + 1;
  for (float& v : m) v = (float((s = s * 1664525u + 1013904223u) >> 8) / float(1 << 24) - 0.5f) * 2.f * scale;
  return m;
}

Weights makeWeights() {
  Weights w{random(V * D, 1, 1.f), random(T * D, 2, 0.5f), random(D * D, 3, 0.4f), random(D * D, 4, 0.4f),
            random(D * D, 5, 0.4f), random(D * D, 6, 0.4f), random(D * D, 7, 0.4f), random(D * D, 8, 0.4f),
            random(D * V, 9, 0.5f)};
  // The attention scale 1/sqrt(D) folded into Wq, as converters do.
  for (float& v : w.wq) v /= std::sqrt(float(D));
  return w;
}

Mat matmul(const Mat& a, const Mat& b, size_t n, size_t k, size_t m) {
  Mat c(n * m, 0.f);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < k; ++j)
      for (size_t o = 0; o < m; ++o) c[i * m + o] += a[i * k + j] * b[j * m + o];
  return c;
}

// The reference decoder: logits of the last position given tokens 0..p and the
// keys/values of the earlier positions (returned extended by this position).
struct Reference {
  const Weights& w;
  Mat keys, values;  // rows of earlier positions
  Mat step(uint32_t token, uint32_t position) {
    Mat h(D);
    for (uint32_t j = 0; j < D; ++j) h[j] = w.embed[token * D + j] + w.pos[position * D + j];
    Mat q = matmul(h, w.wq, 1, D, D), k = matmul(h, w.wk, 1, D, D), v = matmul(h, w.wv, 1, D, D);
    keys.insert(keys.end(), k.begin(), k.end());
    values.insert(values.end(), v.begin(), v.end());
    const size_t n = keys.size() / D;
    Mat scores(n);
    for (size_t r = 0; r < n; ++r) {
      scores[r] = 0.f;
      for (uint32_t j = 0; j < D; ++j) scores[r] += q[j] * keys[r * D + j];
    }
    float mx = *std::max_element(scores.begin(), scores.end()), sum = 0.f;
    for (float& s : scores) sum += (s = std::exp(s - mx));
    Mat a(D, 0.f);
    for (size_t r = 0; r < n; ++r)
      for (uint32_t j = 0; j < D; ++j) a[j] += scores[r] / sum * values[r * D + j];
    Mat o = matmul(a, w.wo, 1, D, D);
    for (uint32_t j = 0; j < D; ++j) o[j] += h[j];
    Mat f = matmul(o, w.w1, 1, D, D);
    for (float& x : f) x = std::max(x, 0.f);
    Mat f2 = matmul(f, w.w2, 1, D, D);
    for (uint32_t j = 0; j < D; ++j) f2[j] += o[j];
    return matmul(f2, w.lm, 1, D, V);
  }
};

uint32_t argmax(const float* logits) { return uint32_t(std::max_element(logits, logits + V) - logits); }

// Builds graphs in a context: tensors by name, nodes by op.
class Builder {
 public:
  Builder(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g) : api_(api), g_(g) {}
  Qnn_Tensor_t tensor(const std::string& name, Qnn_TensorType_t type, std::vector<uint32_t> dims,
                      const Mat* data = nullptr) {
    specs_.emplace_back(name, type, QNN_DATATYPE_FLOAT_32, dims, data ? const_cast<float*>(data->data()) : nullptr,
                        data ? uint32_t(data->size() * 4) : 0u);
    EXPECT_EQ(api_.tensorCreateGraphTensor(g_, &specs_.back().tensor), QNN_SUCCESS) << name;
    return specs_.back().tensor;
  }
  void node(const char* type, std::vector<Qnn_Tensor_t> in, Qnn_Tensor_t out, std::vector<Qnn_Param_t> params = {}) {
    names_.push_back(std::string(type) + std::to_string(names_.size()));
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {names_.back().c_str(), "qti.aisw", type, uint32_t(params.size()), params.data(), uint32_t(in.size()),
             in.data(), 1, &out};
    EXPECT_EQ(api_.graphAddNode(g_, op), QNN_SUCCESS) << type;
  }
  // The decoder from the embedded rows `h` (n x D) and attention keys/values
  // `keys`/`vals` (m x D) with additive `mask` (n x m): logits (n x V).
  void decoder(const Weights& w, Qnn_Tensor_t h, uint32_t n, Qnn_Tensor_t keys, Qnn_Tensor_t vals, uint32_t m,
               Qnn_Tensor_t mask, Qnn_Tensor_t q, Qnn_Tensor_t logits) {
    auto W = [&](const char* name, const Mat& data, uint32_t r, uint32_t c) {
      return tensor(name, QNN_TENSOR_TYPE_STATIC, {r, c}, &data);
    };
    auto native = [&](const char* name, uint32_t r, uint32_t c) { return tensor(name, QNN_TENSOR_TYPE_NATIVE, {r, c}); };
    Qnn_Tensor_t scores = native("scores", n, m), masked = native("masked", n, m), probs = native("probs", n, m);
    node("MatMul", {q, keys}, scores, {boolParam("transpose_in1", true)});
    node("ElementWiseAdd", {scores, mask}, masked);
    node("Softmax", {masked}, probs);
    Qnn_Tensor_t attn = native("attn", n, D), proj = native("proj", n, D), o = native("o", n, D);
    node("MatMul", {probs, vals}, attn);
    node("MatMul", {attn, W("wo", w.wo, D, D)}, proj);
    node("ElementWiseAdd", {proj, h}, o);
    Qnn_Tensor_t f = native("f", n, D), fr = native("fr", n, D), f2 = native("f2", n, D), out = native("out", n, D);
    node("MatMul", {o, W("w1", w.w1, D, D)}, f);
    node("Relu", {f}, fr);
    node("MatMul", {fr, W("w2", w.w2, D, D)}, f2);
    node("ElementWiseAdd", {f2, o}, out);
    node("MatMul", {out, W("lm", w.lm, D, V)}, logits);
  }

 private:
  const QNN_INTERFACE_VER_TYPE& api_;
  Qnn_GraphHandle_t g_;
  std::deque<TensorSpec> specs_;
  std::deque<std::string> names_;
};

class LlmDecode : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS); }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  std::vector<uint8_t> buildBinary(const Weights& w) {
    Qnn_ContextHandle_t ctx = nullptr;
    EXPECT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    Mat causal(S * S);
    for (uint32_t i = 0; i < S; ++i)
      for (uint32_t j = 0; j < S; ++j) causal[i * S + j] = j <= i ? 0.f : -1e9f;
    Mat prefillPos(w.pos.begin(), w.pos.begin() + S * D);
    {  // prefill: one-hot tokens (S x V) -> logits, keys, values
      Qnn_GraphHandle_t g = nullptr;
      EXPECT_EQ(api().graphCreate(ctx, "prefill", nullptr, &g), QNN_SUCCESS);
      Builder b(api(), g);
      Qnn_Tensor_t onehot = b.tensor("tokens", QNN_TENSOR_TYPE_APP_WRITE, {S, V});
      Qnn_Tensor_t e = b.tensor("e", QNN_TENSOR_TYPE_NATIVE, {S, D}), h = b.tensor("h", QNN_TENSOR_TYPE_NATIVE, {S, D});
      b.node("MatMul", {onehot, b.tensor("embed", QNN_TENSOR_TYPE_STATIC, {V, D}, &w.embed)}, e);
      b.node("ElementWiseAdd", {e, b.tensor("pos", QNN_TENSOR_TYPE_STATIC, {S, D}, &prefillPos)}, h);
      Qnn_Tensor_t q = b.tensor("q", QNN_TENSOR_TYPE_NATIVE, {S, D});
      Qnn_Tensor_t k = b.tensor("keys", QNN_TENSOR_TYPE_APP_READ, {S, D});
      Qnn_Tensor_t v = b.tensor("values", QNN_TENSOR_TYPE_APP_READ, {S, D});
      b.node("MatMul", {h, b.tensor("wq", QNN_TENSOR_TYPE_STATIC, {D, D}, &w.wq)}, q);
      b.node("MatMul", {h, b.tensor("wk", QNN_TENSOR_TYPE_STATIC, {D, D}, &w.wk)}, k);
      b.node("MatMul", {h, b.tensor("wv", QNN_TENSOR_TYPE_STATIC, {D, D}, &w.wv)}, v);
      b.decoder(w, h, S, k, v, S, b.tensor("causal", QNN_TENSOR_TYPE_STATIC, {S, S}, &causal), q,
                b.tensor("logits", QNN_TENSOR_TYPE_APP_READ, {S, V}));
      EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    {  // decode: one token at a position, against the cache (T rows) and itself
      Qnn_GraphHandle_t g = nullptr;
      EXPECT_EQ(api().graphCreate(ctx, "decode", nullptr, &g), QNN_SUCCESS);
      Builder b(api(), g);
      Qnn_Tensor_t onehot = b.tensor("token", QNN_TENSOR_TYPE_APP_WRITE, {1, V});
      Qnn_Tensor_t posHot = b.tensor("position", QNN_TENSOR_TYPE_APP_WRITE, {1, T});
      Qnn_Tensor_t kCache = b.tensor("k_cache", QNN_TENSOR_TYPE_APP_WRITE, {T, D});
      Qnn_Tensor_t vCache = b.tensor("v_cache", QNN_TENSOR_TYPE_APP_WRITE, {T, D});
      Qnn_Tensor_t mask = b.tensor("mask", QNN_TENSOR_TYPE_APP_WRITE, {1, T + 1});
      Qnn_Tensor_t e = b.tensor("e", QNN_TENSOR_TYPE_NATIVE, {1, D}), p = b.tensor("p", QNN_TENSOR_TYPE_NATIVE, {1, D});
      Qnn_Tensor_t h = b.tensor("h", QNN_TENSOR_TYPE_NATIVE, {1, D});
      b.node("MatMul", {onehot, b.tensor("embed", QNN_TENSOR_TYPE_STATIC, {V, D}, &w.embed)}, e);
      b.node("MatMul", {posHot, b.tensor("pos", QNN_TENSOR_TYPE_STATIC, {T, D}, &w.pos)}, p);
      b.node("ElementWiseAdd", {e, p}, h);
      Qnn_Tensor_t q = b.tensor("q", QNN_TENSOR_TYPE_NATIVE, {1, D});
      Qnn_Tensor_t k = b.tensor("k_new", QNN_TENSOR_TYPE_APP_READ, {1, D});
      Qnn_Tensor_t v = b.tensor("v_new", QNN_TENSOR_TYPE_APP_READ, {1, D});
      b.node("MatMul", {h, b.tensor("wq", QNN_TENSOR_TYPE_STATIC, {D, D}, &w.wq)}, q);
      b.node("MatMul", {h, b.tensor("wk", QNN_TENSOR_TYPE_STATIC, {D, D}, &w.wk)}, k);
      b.node("MatMul", {h, b.tensor("wv", QNN_TENSOR_TYPE_STATIC, {D, D}, &w.wv)}, v);
      Qnn_Tensor_t keys = b.tensor("keys", QNN_TENSOR_TYPE_NATIVE, {T + 1, D});
      Qnn_Tensor_t vals = b.tensor("vals", QNN_TENSOR_TYPE_NATIVE, {T + 1, D});
      b.node("Concat", {kCache, k}, keys, {u32Param("axis", 0)});
      b.node("Concat", {vCache, v}, vals, {u32Param("axis", 0)});
      b.decoder(w, h, 1, keys, vals, T + 1, mask, q, b.tensor("logits", QNN_TENSOR_TYPE_APP_READ, {1, V}));
      EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    std::vector<uint8_t> bin = contextBinary(api(), ctx);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    return bin;
  }

  LoadedBackend lib{GetParam() ? htpBackendPath() : cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
};

// A tensor of a retrieved graph for execute, by name, over `data`.
Qnn_Tensor_t io(const char* name, std::vector<uint32_t>& dims, float* data, size_t count) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.id = 0xffffffffu;  // found by name
  t.v1.name = name;
  t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  t.v1.rank = uint32_t(dims.size());
  t.v1.dimensions = dims.data();
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf = {data, uint32_t(count * 4)};
  return t;
}

TEST_P(LlmDecode, GreedyDecodingOfSixteenTokensMatchesTheReference) {
  const Weights w = makeWeights();
  std::vector<uint8_t> binary = buildBinary(w);
  std::printf("decoder binary (prefill + decode sharing weights): %zu bytes\n", binary.size());

  // Loaded the way a runtime opening its model files does: asynchronously.
  struct Loaded {
    std::mutex m;
    std::condition_variable cv;
    Qnn_ContextHandle_t ctx = nullptr;
    Qnn_ErrorHandle_t status = 1;
    bool done = false;
  } loaded;
  auto notify = [](Qnn_ContextHandle_t c, Qnn_GraphHandle_t, const char*, QnnContext_createFromBinaryAsyncNotifyType_t t,
                   void* param, Qnn_ErrorHandle_t status) {
    auto* l = static_cast<Loaded*>(param);
    if (t != QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) return;
    std::lock_guard<std::mutex> lock(l->m);
    l->ctx = c;
    l->status = status;
    l->done = true;
    l->cv.notify_all();
  };
  QnnContext_ParamsV1_t v1{nullptr, binary.data(), binary.size(), nullptr, notify, &loaded};
  QnnContext_Params_t params{QNN_CONTEXT_PARAMS_VERSION_1, {v1}};
  const QnnContext_Params_t* list[] = {&params, nullptr};
  ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, nullptr), QNN_SUCCESS);
  {
    std::unique_lock<std::mutex> lock(loaded.m);
    ASSERT_TRUE(loaded.cv.wait_for(lock, std::chrono::seconds(60), [&] { return loaded.done; }));
  }
  ASSERT_EQ(loaded.status, QNN_SUCCESS);
  Qnn_GraphHandle_t prefill = nullptr, decode = nullptr;
  ASSERT_EQ(api().graphRetrieve(loaded.ctx, "prefill", &prefill), QNN_SUCCESS);
  ASSERT_EQ(api().graphRetrieve(loaded.ctx, "decode", &decode), QNN_SUCCESS);

  // The KV cache in the decode graph's own buffers.
  std::vector<uint32_t> cacheDims{T, D};
  Qnn_Tensor_t cache[] = {io("k_cache", cacheDims, nullptr, 0), io("v_cache", cacheDims, nullptr, 0)};
  QnnGraph_ExecuteEnvironment_t env;
  std::memset(&env, 0, sizeof env);
  env.option = QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS;
  env.tensorSet.version = QNN_TENSOR_SET_VERSION_1;
  env.tensorSet.v1 = {2, cache, 0, nullptr};
  QnnGraph_ExecuteEnvironment_t* envs[] = {&env};
  ASSERT_EQ(api().graphPrepareExecutionEnvironment(decode, envs, 1), QNN_SUCCESS);
  auto* kCache = static_cast<float*>(cache[0].v1.clientBuf.data);
  auto* vCache = static_cast<float*>(cache[1].v1.clientBuf.data);
  ASSERT_NE(kCache, nullptr);

  // Prefill.
  std::vector<uint32_t> prompt(S);
  for (uint32_t i = 0; i < S; ++i) prompt[i] = (i * 7 + 3) % V;
  Reference ref{w, {}, {}};
  Mat refLogits;
  for (uint32_t i = 0; i < S; ++i) refLogits = ref.step(prompt[i], i);
  Mat tokens(S * V, 0.f), logits(S * V), keys(S * D), values(S * D);
  for (uint32_t i = 0; i < S; ++i) tokens[i * V + prompt[i]] = 1.f;
  std::vector<uint32_t> sv{S, V}, sd{S, D};
  Qnn_Tensor_t pin[] = {io("tokens", sv, tokens.data(), tokens.size())};
  Qnn_Tensor_t pout[] = {io("logits", sv, logits.data(), logits.size()), io("keys", sd, keys.data(), keys.size()),
                         io("values", sd, values.data(), values.size())};
  ASSERT_EQ(api().graphExecute(prefill, pin, 1, pout, 3, nullptr, nullptr), QNN_SUCCESS);
  for (uint32_t j = 0; j < V; ++j) ASSERT_NEAR(logits[(S - 1) * V + j], refLogits[j], 2e-3f) << "prefill " << j;
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_NEAR(keys[i], ref.keys[i], 2e-3f) << "prefill key " << i;
  std::memcpy(kCache, keys.data(), keys.size() * 4);
  std::memcpy(vCache, values.data(), values.size() * 4);

  // Greedy decoding: 16 tokens, the first from the prefill.
  std::vector<uint32_t> generated{argmax(&logits[(S - 1) * V])}, expected{argmax(refLogits.data())};
  std::vector<uint32_t> v1dims{1, V}, tdims{1, T}, mdims{1, T + 1}, ddims{1, D};
  for (uint32_t p = S; generated.size() < 16; ++p) {
    const uint32_t token = generated.back();
    Mat onehot(V, 0.f), posHot(T, 0.f), mask(T + 1, 0.f), out(V), kNew(D), vNew(D);
    onehot[token] = 1.f;
    posHot[p] = 1.f;
    for (uint32_t r = 0; r < T; ++r) mask[r] = r < p ? 0.f : -1e9f;  // the cache's filled rows, and itself
    Qnn_Tensor_t in[] = {io("token", v1dims, onehot.data(), V), io("position", tdims, posHot.data(), T), cache[0],
                         cache[1], io("mask", mdims, mask.data(), T + 1)};
    Qnn_Tensor_t outs[] = {io("logits", v1dims, out.data(), V), io("k_new", ddims, kNew.data(), D),
                           io("v_new", ddims, vNew.data(), D)};
    ASSERT_EQ(api().graphExecute(decode, in, 5, outs, 3, nullptr, nullptr), QNN_SUCCESS);
    std::memcpy(kCache + p * D, kNew.data(), D * 4);
    std::memcpy(vCache + p * D, vNew.data(), D * 4);
    Mat want = ref.step(expected.back(), p);
    for (uint32_t j = 0; j < V; ++j) ASSERT_NEAR(out[j], want[j], 2e-3f) << "position " << p << " logit " << j;
    generated.push_back(argmax(out.data()));
    expected.push_back(argmax(want.data()));
  }
  EXPECT_EQ(generated, expected);
  std::string text;
  for (uint32_t t : generated) text += std::to_string(t) + " ";
  std::printf("generated: %s\n", text.c_str());
  EXPECT_GT(std::set<uint32_t>(generated.begin(), generated.end()).size(), 3u) << "a degenerate decoder proves little";
  const QnnGraph_ExecuteEnvironment_t* release[] = {&env};
  EXPECT_EQ(api().graphReleaseExecutionEnvironment(decode, release, 1), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(loaded.ctx, nullptr), QNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Backends, LlmDecode, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
