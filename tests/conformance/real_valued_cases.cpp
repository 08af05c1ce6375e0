#include "real_valued_cases.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "ops/shared_ops.h"
#include "quant/fixed_point.h"

namespace qnn::conformance {
namespace {

const std::set<std::string> kRealValued = {"NonMaxSuppression", "MultiClassNms",   "DetectionOutput",
                                           "RoiAlign",          "HeatMapMaxKeyPoint", "ExtractGlimpse",
                                           "GroupNorm",         "ImageProjectionTransform", "Lstm",
                                           "GridSample",        "L2Norm",            "Lrn"};

// A UFIXED_POINT_16 encoding covering [lo, hi] (and 0).
QuantInfo coveringU16(float lo, float hi) {
  lo = std::min(lo, 0.f), hi = std::max(hi, 0.f);
  QuantInfo q;
  q.kind = QuantInfo::Kind::kScaleOffset;
  q.scale = hi > lo ? (hi - lo) / 65535.f : 1.f;
  q.offset = int32_t(std::lround(lo / q.scale));
  return q;
}

// The float tensor t as UFIXED_POINT_16 under an encoding covering its values; *real gets the dequantized values.
CaseTensor toUFixed16(const CaseTensor& t, std::vector<float>* real) {
  std::vector<float> v = t.values<float>();
  const auto [lo, hi] = v.empty() ? std::pair<float, float>{0.f, 1.f}
                                  : std::pair<float, float>{*std::min_element(v.begin(), v.end()),
                                                            *std::max_element(v.begin(), v.end())};
  CaseTensor q = t;
  q.dtype = DType::kUFixed16;
  q.quant = coveringU16(lo, hi);
  const auto range = sdk::quant::quantRange(DType::kUFixed16);
  std::vector<uint16_t> stored(v.size());
  real->resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    stored[i] = uint16_t(sdk::quant::quantizeValue(v[i], q.quant.scale, q.quant.offset, range));
    (*real)[i] = sdk::quant::dequantizeValue(stored[i], q.quant.scale, q.quant.offset);
  }
  q.bytes.assign(reinterpret_cast<const uint8_t*>(stored.data()),
                 reinterpret_cast<const uint8_t*>(stored.data()) + stored.size() * 2);
  return q;
}

}  // namespace

bool isRealValuedHtpOp(const std::string& opType) { return kRealValued.count(opType) != 0; }

OpCase quantizedRealValuedCase(const OpCase& c) {
  OpCase q = c;
  std::vector<std::vector<float>> realIn(c.inputs.size());
  std::vector<sdk::TensorView> in, inDesc, out;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const CaseTensor& t = c.inputs[i];
    sdk::TensorView v{nullptr, t.dtype, t.dims, {}};
    if (t.dtype == DType::kFloat32 && !t.isNull) {
      q.inputs[i] = toUFixed16(t, &realIn[i]);
      v.data = realIn[i].data();
    } else if (!t.isNull) {
      v.data = const_cast<uint8_t*>(t.bytes.data());
    }
    inDesc.push_back(sdk::TensorView{t.isStatic ? v.data : nullptr, v.dtype, v.dims, {}});
    in.push_back(v);
  }
  std::vector<std::vector<float>> realOut(c.expected.size());
  std::vector<std::vector<uint8_t>> rawOut(c.expected.size());
  for (size_t i = 0; i < c.expected.size(); ++i) {
    const CaseTensor& t = c.expected[i];
    rawOut[i].assign(t.bytes.size(), 0);
    out.push_back(sdk::TensorView{rawOut[i].data(), t.dtype, t.dims, {}});
  }
  auto kernel = ops::findSharedOp(c.opType)(c.opType);
  sdk::OpParams params;
  for (auto& [name, value] : c.params) params.set(name, value);
  EXPECT_TRUE(kernel->init(params).isOk());
  std::vector<sdk::TensorView> outDesc = out;
  for (auto& d : outDesc) d.data = nullptr;
  EXPECT_TRUE(kernel->prepare(inDesc, outDesc).isOk());
  EXPECT_TRUE(kernel->execute(in, out).isOk());
  for (size_t i = 0; i < c.expected.size(); ++i) {
    if (c.expected[i].dtype != DType::kFloat32) {
      q.expected[i].bytes = rawOut[i];
      continue;
    }
    CaseTensor floatOut = c.expected[i];
    floatOut.bytes = rawOut[i];
    std::vector<float> ignored;
    q.expected[i] = toUFixed16(floatOut, &ignored);
  }
  return q;
}

}  // namespace qnn::conformance
