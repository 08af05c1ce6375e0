// API 2.39's narrow datatypes and encodings through the C API (docs/cpu-ops.md,
// docs/htp-simulator.md): on libQnnCpu.so a graph whose static weight is given in each
// type (INT_2, INT_4, UINT_2, UINT_4, SFIXED/UFIXED_POINT_2/4, FLOAT_8 as MXFP8 E4M3 and
// E5M2, FLOAT_4 plain and as MXFP4 E2M1, MX block scales in E8M0 and FLOAT_32, an
// ARRAY_OF encoding) computes y = x + dequantize(w) equal to a reference computed here
// by an independent decoder (the formats' definitions written out in double); on
// libQnnHtp.so 4-bit weights run with 16-bit activations against a float64 reference and
// the other types are refused with QNN_COMMON_ERROR_NOT_SUPPORTED and a line naming them.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "tests/htp/weight_test_support.h"

namespace qnn::test {

std::mutex LogCapture::mutex;
std::string LogCapture::text;

namespace {

// ---- The independent decoders (the formats' definitions, in double) ----

// Two's complement value of the low `bits` bits of `v`.
int signedOf(uint32_t v, unsigned bits) {
  v &= (1u << bits) - 1;
  return (v >> (bits - 1)) ? int(v) - (1 << bits) : int(v);
}

// OCP FP8 E4M3: bias 7, subnormals at exponent field 0, no infinities, S.1111.111 NaN.
double refE4M3(uint8_t c) {
  const double sign = (c & 0x80) ? -1.0 : 1.0;
  const int e = (c >> 3) & 0xf, m = c & 0x7;
  if (e == 15 && m == 7) return std::nan("");
  if (e == 0) return sign * (m / 8.0) * std::pow(2.0, -6);
  return sign * (1.0 + m / 8.0) * std::pow(2.0, e - 7);
}

// OCP FP8 E5M2 (IEEE 754 binary8-like): bias 15, exponent 31 infinity (m = 0) or NaN.
double refE5M2(uint8_t c) {
  const double sign = (c & 0x80) ? -1.0 : 1.0;
  const int e = (c >> 2) & 0x1f, m = c & 0x3;
  if (e == 31) return m == 0 ? sign * std::numeric_limits<double>::infinity() : std::nan("");
  if (e == 0) return sign * (m / 4.0) * std::pow(2.0, -14);
  return sign * (1.0 + m / 4.0) * std::pow(2.0, e - 15);
}

// OCP FP4 E2M1: the eight magnitudes the OCP MX specification tabulates.
double refE2M1(uint8_t c) {
  static const double kMagnitude[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  return ((c & 0x8) ? -1.0 : 1.0) * kMagnitude[c & 0x7];
}

// The OCP MX shared scale E8M0: 2^(e - 127), 0xFF NaN.
double refE8M0(uint8_t e) { return e == 0xff ? std::nan("") : std::pow(2.0, int(e) - 127); }

TEST(LaterDatatypesReference, DecodersMatchTheSpecificationsConstants) {
  EXPECT_EQ(refE4M3(0x7e), 448.0);                  // largest E4M3
  EXPECT_EQ(refE4M3(0x08), std::pow(2.0, -6));      // smallest normal
  EXPECT_EQ(refE4M3(0x01), std::pow(2.0, -9));      // smallest subnormal
  EXPECT_TRUE(std::isnan(refE4M3(0x7f)) && std::isnan(refE4M3(0xff)));
  EXPECT_EQ(refE5M2(0x7b), 57344.0);                // largest E5M2
  EXPECT_EQ(refE5M2(0x01), std::pow(2.0, -16));
  EXPECT_EQ(refE5M2(0xfc), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(refE2M1(0x7), 6.0);
  EXPECT_EQ(refE2M1(0xb), -1.5);
  EXPECT_EQ(refE8M0(127), 1.0);
  EXPECT_EQ(signedOf(0x2, 2), -2);
  EXPECT_EQ(signedOf(0x9, 4), -7);
}

// ---- Graphs ----

// The weight of every case: [kRows, kCols] elements.
constexpr uint32_t kRows = 4, kCols = 64;
constexpr size_t kN = size_t(kRows) * kCols;

// Values packed `bits` bits each, element 0 in the lowest bits of byte 0 (the header's order).
std::vector<uint8_t> packBits(const std::vector<uint8_t>& codes, unsigned bits) {
  const size_t perByte = 8 / bits;
  std::vector<uint8_t> out((codes.size() + perByte - 1) / perByte, 0);
  for (size_t i = 0; i < codes.size(); ++i)
    out[i / perByte] |= uint8_t((codes[i] & ((1u << bits) - 1)) << ((i % perByte) * bits));
  return out;
}

// A static weight in some datatype and encoding, the codes it holds and their
// reference values. Owns everything its tensor points to.
struct Weight {
  std::string label;
  TensorSpec spec{"w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UNDEFINED, {kRows, kCols}};
  std::vector<uint8_t> bytes;
  std::vector<double> ref;   // the value of each element
  bool integer = false;      // INT_* / UINT_*: Cast to float; fixed point: Dequantize; float: as is
  bool fixedPoint = false;
  // Encoding storage.
  Qnn_MicroscalingEncoding_t mx = QNN_MICROSCALING_ENCODING_INIT;
  uint32_t blockDims[2] = {1, 32};
  std::vector<uint8_t> scales8;
  std::vector<float> scalesF;
  Qnn_ArrayOf_t arrayOf = QNN_ARRAYOF_INIT;
  std::vector<Qnn_QuantizeParams_t> candidates;
  std::vector<Qnn_QuantizeParams_t*> candidatePtrs;
  uint32_t indexValue = 0, indexDims[1] = {1};
  Qnn_Tensor_t indexTensor = QNN_TENSOR_INIT;

  Weight() = default;
  Weight(const Weight&) = delete;
  Weight& operator=(const Weight&) = delete;
  void setData(Qnn_DataType_t dt, std::vector<uint8_t> b) {
    bytes = std::move(b);
    spec.tensor.v1.dataType = dt;
    spec.tensor.v1.clientBuf = {bytes.data(), uint32_t(bytes.size())};
  }
  void scaleOffset(float scale, int32_t offset) {
    auto& q = spec.tensor.v1.quantizeParams;
    q.encodingDefinition = QNN_DEFINITION_DEFINED;
    q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
    q.scaleOffsetEncoding = {scale, offset};
  }
  // MX blocks of [1, 32] (OCP MX's k = 32 along the rows); E8M0 scales, or FLOAT_32 ones.
  void microscaling(Qnn_FloatEncoding_t enc, bool e8m0, std::mt19937& rng) {
    mx.valueEncoding = enc;
    mx.blockRank = 2;
    mx.blockDimensions = blockDims;
    mx.blockCount = kRows * (kCols / 32);
    if (e8m0) {
      mx.scaleDataType = QNN_DATATYPE_FLOAT_8;
      for (uint32_t b = 0; b < mx.blockCount; ++b) scales8.push_back(uint8_t(120 + rng() % 15));  // 2^-7 .. 2^7
      mx.blockScales8 = scales8.data();
    } else {
      mx.scaleDataType = QNN_DATATYPE_FLOAT_32;
      for (uint32_t b = 0; b < mx.blockCount; ++b) scalesF.push_back(0.25f * float(1 + rng() % 9));
      mx.blockScalesFloat = scalesF.data();
    }
    auto& q = spec.tensor.v1.quantizeParams;
    q.encodingDefinition = QNN_DEFINITION_DEFINED;
    q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_MICROSCALING;
    q.microScalingEncoding = &mx;
  }
  double blockScale(size_t i) const {
    const size_t block = (i / kCols) * (kCols / 32) + (i % kCols) / 32;
    return scales8.empty() ? double(scalesF[block]) : refE8M0(scales8[block]);
  }
};

std::unique_ptr<Weight> packedInteger(Qnn_DataType_t dt, unsigned bits, bool isSigned, std::mt19937& rng) {
  auto w = std::make_unique<Weight>();
  std::vector<uint8_t> codes(kN);
  for (auto& c : codes) c = uint8_t(rng() % (1u << bits));
  for (uint8_t c : codes) w->ref.push_back(isSigned ? signedOf(c, bits) : int(c));
  w->setData(dt, packBits(codes, bits));
  w->integer = true;
  return w;
}

std::unique_ptr<Weight> packedFixed(Qnn_DataType_t dt, unsigned bits, bool isSigned, float scale, int32_t offset,
                                    std::mt19937& rng) {
  auto w = std::make_unique<Weight>();
  std::vector<uint8_t> codes(kN);
  for (auto& c : codes) c = uint8_t(rng() % (1u << bits));
  // float = (q + offset) * scale, in double from the float32 scale the tensor states, then rounded to
  // the FLOAT_32 the Dequantize output holds.
  for (uint8_t c : codes)
    w->ref.push_back(float((double(isSigned ? signedOf(c, bits) : int(c)) + offset) * double(scale)));
  w->setData(dt, packBits(codes, bits));
  w->scaleOffset(scale, offset);
  w->fixedPoint = true;
  return w;
}

// FLOAT_8 holding every one of the 256 codes (then random ones), MX-scaled.
std::unique_ptr<Weight> fp8(Qnn_FloatEncoding_t enc, bool e8m0, std::mt19937& rng) {
  auto w = std::make_unique<Weight>();
  std::vector<uint8_t> codes(kN);
  for (size_t i = 0; i < kN; ++i) codes[i] = i < 256 ? uint8_t(i) : uint8_t(rng());
  w->microscaling(enc, e8m0, rng);
  for (size_t i = 0; i < kN; ++i)
    w->ref.push_back((enc == QNN_FLOAT_ENCODING_MXFP8_E4M3 ? refE4M3(codes[i]) : refE5M2(codes[i])) * w->blockScale(i));
  w->setData(QNN_DATATYPE_FLOAT_8, codes);
  return w;
}

// FLOAT_4 (E2M1, two per byte) holding all 16 codes, then random ones; plain or MXFP4.
std::unique_ptr<Weight> fp4(bool mx, std::mt19937& rng) {
  auto w = std::make_unique<Weight>();
  std::vector<uint8_t> codes(kN);
  for (size_t i = 0; i < kN; ++i) codes[i] = i < 16 ? uint8_t(i) : uint8_t(rng() % 16);
  if (mx) w->microscaling(QNN_FLOAT_ENCODING_MXFP4_E2M1, true, rng);
  for (size_t i = 0; i < kN; ++i) w->ref.push_back(refE2M1(codes[i]) * (mx ? w->blockScale(i) : 1.0));
  w->setData(QNN_DATATYPE_FLOAT_4, packBits(codes, 4));
  return w;
}

// SFIXED_POINT_4 with an ARRAY_OF three SCALE_OFFSET encodings; a static index tensor selects `index`.
std::unique_ptr<Weight> arrayOf(uint32_t index, std::mt19937& rng) {
  auto w = std::make_unique<Weight>();
  std::vector<uint8_t> codes(kN);
  for (auto& c : codes) c = uint8_t(rng() % 16);
  const Qnn_ScaleOffset_t options[3] = {{0.5f, 0}, {0.125f, -3}, {0.0625f, 5}};
  for (const auto& o : options) {
    Qnn_QuantizeParams_t q = QNN_QUANTIZE_PARAMS_INIT;
    q.encodingDefinition = QNN_DEFINITION_DEFINED;
    q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
    q.scaleOffsetEncoding = o;
    w->candidates.push_back(q);
  }
  for (auto& q : w->candidates) w->candidatePtrs.push_back(&q);
  w->indexValue = index;
  w->indexTensor.version = QNN_TENSOR_VERSION_1;
  w->indexTensor.v1.name = "w_index";
  w->indexTensor.v1.type = QNN_TENSOR_TYPE_STATIC;
  w->indexTensor.v1.dataType = QNN_DATATYPE_UINT_32;
  w->indexTensor.v1.rank = 1;
  w->indexTensor.v1.dimensions = w->indexDims;
  w->indexTensor.v1.memType = QNN_TENSORMEMTYPE_RAW;
  w->indexTensor.v1.clientBuf = {&w->indexValue, 4};
  w->arrayOf = {QNN_QUANTIZATION_ENCODING_SCALE_OFFSET, 3, &w->indexTensor, w->candidatePtrs.data()};
  auto& q = w->spec.tensor.v1.quantizeParams;
  q.encodingDefinition = QNN_DEFINITION_DEFINED;
  q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_ARRAY_OF;
  q.arrayOfEncoding = &w->arrayOf;
  const Qnn_ScaleOffset_t& o = options[index];
  for (uint8_t c : codes) w->ref.push_back(float((double(signedOf(c, 4)) + o.offset) * double(o.scale)));
  w->setData(QNN_DATATYPE_SFIXED_POINT_4, packBits(codes, 4));
  w->fixedPoint = true;
  return w;
}

struct Case {
  const char* name;
  std::unique_ptr<Weight> (*make)(std::mt19937&);
};

const Case kCpuCases[] = {
    {"Int2", [](std::mt19937& r) { return packedInteger(QNN_DATATYPE_INT_2, 2, true, r); }},
    {"Int4", [](std::mt19937& r) { return packedInteger(QNN_DATATYPE_INT_4, 4, true, r); }},
    {"UInt2", [](std::mt19937& r) { return packedInteger(QNN_DATATYPE_UINT_2, 2, false, r); }},
    {"UInt4", [](std::mt19937& r) { return packedInteger(QNN_DATATYPE_UINT_4, 4, false, r); }},
    {"SFixed2", [](std::mt19937& r) { return packedFixed(QNN_DATATYPE_SFIXED_POINT_2, 2, true, 0.375f, 1, r); }},
    {"SFixed4", [](std::mt19937& r) { return packedFixed(QNN_DATATYPE_SFIXED_POINT_4, 4, true, 0.05f, 0, r); }},
    {"UFixed2", [](std::mt19937& r) { return packedFixed(QNN_DATATYPE_UFIXED_POINT_2, 2, false, 0.7f, -2, r); }},
    {"UFixed4", [](std::mt19937& r) { return packedFixed(QNN_DATATYPE_UFIXED_POINT_4, 4, false, 0.03f, -8, r); }},
    {"Mxfp8E4M3", [](std::mt19937& r) { return fp8(QNN_FLOAT_ENCODING_MXFP8_E4M3, true, r); }},
    {"Mxfp8E5M2", [](std::mt19937& r) { return fp8(QNN_FLOAT_ENCODING_MXFP8_E5M2, true, r); }},
    {"Fp8E4M3Float32Scales", [](std::mt19937& r) { return fp8(QNN_FLOAT_ENCODING_MXFP8_E4M3, false, r); }},
    {"Fp4E2M1", [](std::mt19937& r) { return fp4(false, r); }},
    {"Mxfp4E2M1", [](std::mt19937& r) { return fp4(true, r); }},
    {"ArrayOfIndex0", [](std::mt19937& r) { return arrayOf(0, r); }},
    {"ArrayOfIndex2", [](std::mt19937& r) { return arrayOf(2, r); }},
};

// x [kRows, kCols] float input; w static; y = x + float(w) where float(w) is w itself
// (FLOAT_8/FLOAT_4, decoded), Cast(w) (integers) or Dequantize(w) (fixed point).
struct Ids {
  uint32_t x = 0, y = 0;
};

Qnn_ErrorHandle_t buildAdd(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Weight& w,
                           Qnn_GraphHandle_t* g, Ids* ids) {
  Qnn_ErrorHandle_t rc = api.graphCreate(ctx, "later", nullptr, g);
  if (rc != QNN_SUCCESS) return rc;
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
  TensorSpec wf("wf", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
  const bool convert = w.integer || w.fixedPoint;
  for (TensorSpec* t : {&x, &w.spec, &y})
    if ((rc = api.tensorCreateGraphTensor(*g, &t->tensor)) != QNN_SUCCESS) return rc;
  ids->x = x.tensor.v1.id;
  ids->y = y.tensor.v1.id;
  if (convert) {
    if ((rc = api.tensorCreateGraphTensor(*g, &wf.tensor)) != QNN_SUCCESS) return rc;
    Qnn_OpConfig_t conv = QNN_OPCONFIG_INIT;
    conv.v1 = {"to_float", "qti.aisw", w.integer ? "Cast" : "Dequantize", 0, nullptr, 1, &w.spec.tensor, 1, &wf.tensor};
    if ((rc = api.graphAddNode(*g, conv)) != QNN_SUCCESS) return rc;
  }
  Qnn_Tensor_t ins[2] = {x.tensor, convert ? wf.tensor : w.spec.tensor};
  Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
  add.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &y.tensor};
  if ((rc = api.graphAddNode(*g, add)) != QNN_SUCCESS) return rc;
  return api.graphFinalize(*g, nullptr, nullptr);
}

Qnn_ErrorHandle_t runAdd(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, const Ids& ids,
                         const std::vector<float>& x, std::vector<float>* y) {
  y->assign(kN, 0.f);
  std::vector<float> xin = x;
  TensorSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {kRows, kCols}, xin.data(), uint32_t(kN * 4));
  TensorSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {kRows, kCols}, y->data(), uint32_t(kN * 4));
  xs.tensor.v1.id = ids.x;
  ys.tensor.v1.id = ids.y;
  return api.graphExecute(g, &xs.tensor, 1, &ys.tensor, 1, nullptr, nullptr);
}

class CpuLaterDatatypes : public ::testing::TestWithParam<Case> {};

// Every output equals float32(x + reference(w)) exactly (NaN where the reference is
// NaN, the same infinity where it is infinite); the graph survives a context binary.
TEST_P(CpuLaterDatatypes, DequantizedExactlyPerTheDefinition) {
  std::mt19937 rng(7);
  std::unique_ptr<Weight> w = GetParam().make(rng);
  ASSERT_EQ(w->ref.size(), kN);
  std::vector<float> x(kN);
  for (auto& v : x) v = float(int(rng() % 9) - 4) * 0.5f;
  Session s(cpuLib());
  std::vector<uint8_t> binary;
  Ids ids;
  auto build = [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t* g) {
    return buildAdd(api, ctx, *w, g, &ids);
  };
  std::vector<float> y;
  auto run = [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) {
    Qnn_ErrorHandle_t rc = runAdd(api, g, ids, x, &y);
    out->assign(reinterpret_cast<const uint8_t*>(y.data()), reinterpret_cast<const uint8_t*>(y.data() + y.size()));
    return rc;
  };
  std::vector<uint8_t> bytes = s.buildAndRun(build, run, &binary);
  ASSERT_EQ(bytes.size(), kN * 4);
  size_t bad = 0, distinct = 0;
  std::set<float> seen;
  for (size_t i = 0; i < kN; ++i) {
    float got;
    std::memcpy(&got, bytes.data() + i * 4, 4);
    const double want = double(x[i]) + w->ref[i];
    const bool ok = std::isnan(want) ? std::isnan(got) : got == float(want);
    if (!ok && bad++ < 5) ADD_FAILURE() << "element " << i << ": " << got << ", the reference " << want;
    if (std::isfinite(got)) seen.insert(got);
  }
  distinct = seen.size();
  EXPECT_EQ(bad, 0u);
  EXPECT_GE(distinct, 8u) << "outputs barely vary";
  EXPECT_EQ(s.runFromBinary("later", run, binary), bytes);
}

INSTANTIATE_TEST_SUITE_P(All, CpuLaterDatatypes, ::testing::ValuesIn(kCpuCases),
                         [](const auto& info) { return std::string(info.param.name); });

// An UPDATEABLE_STATIC packed weight takes new data in its own packed type (and in the
// container form): the outputs follow the new values. FLOAT_8 / MX tensors are decoded at
// creation, so new data for them is refused as not supported.
TEST(CpuLaterDatatypesUpdate, PackedWeightTakesPackedUpdates) {
  Session s(cpuLib());
  const auto& api = s.api();
  for (const Case& c : {kCpuCases[4], kCpuCases[3], kCpuCases[8]}) {  // SFixed2, UInt4, Mxfp8E4M3
    SCOPED_TRACE(c.name);
    std::mt19937 rng(21);
    std::unique_ptr<Weight> w = c.make(rng);
    w->spec.tensor.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    std::vector<float> x(kN, 0.5f), y;
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api.contextCreate(s.backend(), nullptr, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    Ids ids;
    ASSERT_EQ(buildAdd(api, ctx, *w, &g, &ids), QNN_SUCCESS) << LogCapture::take();
    std::unique_ptr<Weight> next = c.make(rng);  // same type and encoding, other values
    if (next->spec.tensor.v1.dataType != QNN_DATATYPE_FLOAT_8) { ASSERT_NE(next->bytes, w->bytes); }
    next->spec.tensor.v1.id = w->spec.tensor.v1.id;
    next->spec.tensor.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    next->spec.tensor.v1.quantizeParams = QNN_QUANTIZE_PARAMS_INIT;  // data only
    const Qnn_Tensor_t* list[] = {&next->spec.tensor};
    const Qnn_ErrorHandle_t rc = api.tensorUpdateGraphTensors(g, list, 1);
    const std::string log = LogCapture::take();
    if (next->spec.tensor.v1.dataType == QNN_DATATYPE_FLOAT_8) {
      EXPECT_EQ(rc, QNN_COMMON_ERROR_NOT_SUPPORTED);
      EXPECT_NE(log.find("updates of FLOAT_8 / MICROSCALING tensors are not supported"), std::string::npos) << log;
    } else {
      ASSERT_EQ(rc, QNN_SUCCESS) << log;
      ASSERT_EQ(api.graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();  // applies updates
      ASSERT_EQ(runAdd(api, g, ids, x, &y), QNN_SUCCESS) << LogCapture::take();
      size_t bad = 0;
      for (size_t i = 0; i < kN; ++i) bad += y[i] != float(0.5 + next->ref[i]);
      EXPECT_EQ(bad, 0u);
      // A packed buffer of the wrong size is refused as an incompatible update.
      next->spec.tensor.v1.clientBuf.dataSize -= 1;
      EXPECT_EQ(api.tensorUpdateGraphTensors(g, list, 1), QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
      EXPECT_NE(LogCapture::take().find("(packed)"), std::string::npos);
    }
    EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
  }
}

// Recorded through the Saver (pass-through to the CPU backend): an MXFP8 weight (its microscaling
// encoding with E8M0 scales), an MXFP4 one with FLOAT_32 scales, and a packed SFIXED_POINT_2 one;
// replayed by qnn-trace-replay with the recorded outputs compared, and the Saver's C program
// (Qnn_MicroscalingEncoding_t built in C) compiled strictly and run, giving the recorded output.
TEST(LaterDatatypesSaver, RecordingReplaysOnTheCpu) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("later_datatypes_saver_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::mt19937 rng(9);
  std::vector<std::unique_ptr<Weight>> weights;
  weights.push_back(fp8(QNN_FLOAT_ENCODING_MXFP8_E5M2, true, rng));
  weights.push_back(fp4(true, rng));
  for (size_t i = 0; i < kN; ++i)  // MXFP4 with FLOAT_32 scales (the E8M0 ones are powers of two: exact)
    weights.back()->ref[i] = weights.back()->ref[i] / weights.back()->blockScale(i) * 0.75;
  weights.back()->scales8.clear();
  weights.back()->scalesF.assign(8, 0.75f);
  weights.back()->mx.scaleDataType = QNN_DATATYPE_FLOAT_32;
  weights.back()->mx.blockScalesFloat = weights.back()->scalesF.data();
  weights.push_back(packedFixed(QNN_DATATYPE_SFIXED_POINT_2, 2, true, 0.375f, 1, rng));
  // One graph: y = ((x + w0) + w1) + Dequantize(w2) (one execute: the Saver regenerates its C
  // program at resting points, at most so often).
  std::vector<float> x(kN, 0.25f);
  auto record = [&](Session& s) {
    Ids ids;
    std::vector<float> y;
    return s.buildAndRun(
        [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t* g) {
          Qnn_ErrorHandle_t rc = api.graphCreate(ctx, "later", nullptr, g);
          if (rc != QNN_SUCCESS) return rc;
          TensorSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
          TensorSpec t0("t0", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
          TensorSpec t1("t1", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
          TensorSpec w2f("w2f", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
          TensorSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
          weights[0]->spec.name = "w0", weights[1]->spec.name = "w1", weights[2]->spec.name = "w2";
          for (auto& w : weights) w->spec.tensor.v1.name = w->spec.name.c_str();
          for (TensorSpec* t : {&xs, &weights[0]->spec, &weights[1]->spec, &weights[2]->spec, &t0, &t1, &w2f, &ys})
            if ((rc = api.tensorCreateGraphTensor(*g, &t->tensor)) != QNN_SUCCESS) return rc;
          ids.x = xs.tensor.v1.id;
          ids.y = ys.tensor.v1.id;
          Qnn_Tensor_t a0[2] = {xs.tensor, weights[0]->spec.tensor}, a1[2] = {t0.tensor, weights[1]->spec.tensor},
                       a2[2] = {t1.tensor, w2f.tensor};
          Qnn_OpConfig_t ops[4] = {QNN_OPCONFIG_INIT, QNN_OPCONFIG_INIT, QNN_OPCONFIG_INIT, QNN_OPCONFIG_INIT};
          ops[0].v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, a0, 1, &t0.tensor};
          ops[1].v1 = {"add1", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, a1, 1, &t1.tensor};
          ops[2].v1 = {"deq", "qti.aisw", "Dequantize", 0, nullptr, 1, &weights[2]->spec.tensor, 1, &w2f.tensor};
          ops[3].v1 = {"add2", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, a2, 1, &ys.tensor};
          for (const auto& op : ops)
            if ((rc = api.graphAddNode(*g, op)) != QNN_SUCCESS) return rc;
          return api.graphFinalize(*g, nullptr, nullptr);
        },
        [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) {
          Qnn_ErrorHandle_t rc = runAdd(api, g, ids, x, &y);
          out->assign(reinterpret_cast<uint8_t*>(y.data()), reinterpret_cast<uint8_t*>(y.data() + y.size()));
          return rc;
        });
  };
  std::vector<uint8_t> direct;
  {
    Session cpu(cpuLib());
    direct = record(cpu);
  }
  // The reference of the three decoders (a NaN anywhere stays NaN).
  size_t bad = 0;
  for (size_t i = 0; i < kN; ++i) {
    float got;
    std::memcpy(&got, direct.data() + 4 * i, 4);
    const float want = float(float(float(0.25 + weights[0]->ref[i]) + weights[1]->ref[i]) + weights[2]->ref[i]);
    bad += std::isnan(want) ? !std::isnan(got) : got != want;
  }
  EXPECT_EQ(bad, 0u);
  setenv("QNN_SAVER_BACKEND", QNN_TEST_CPU_BACKEND_PATH, 1);
  LoadedBackend saver(QNN_TEST_SAVER_PATH);
  ASSERT_EQ(startSaver(saver, dir), "");
  {
    Session recorded(saver);
    EXPECT_EQ(record(recorded), direct);
  }
  auto [status, text] = replayRecording(dir, QNN_TEST_CPU_BACKEND_PATH);
  EXPECT_EQ(status, 0) << text;
  EXPECT_NE(text.find("compared 1 outputs"), std::string::npos) << text;
  std::vector<uint8_t> bytes;
  ASSERT_EQ(runSaverProgram(dir, QNN_TEST_CPU_BACKEND_PATH, "y", &bytes), "");
  EXPECT_EQ(bytes, direct);
  if (!HasFailure()) fs::remove_all(dir);  // kept for a look when something failed
}

// ---- Refusals ----

// QnnBackend_validateOpConfig judges a FLOAT_8 weight by its encoding with or without data: MXFP8
// passes on the CPU, MXFP6 and FLOAT_8 without MICROSCALING are refused.
TEST(CpuLaterDatatypesValidation, ValidateOpConfigJudgesTheFloatEncoding) {
  Session s(cpuLib());
  std::mt19937 rng(17);
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {kRows, kCols});
  for (bool withData : {true, false}) {
    auto w = fp8(QNN_FLOAT_ENCODING_MXFP8_E4M3, true, rng);
    if (!withData) w->spec.tensor.v1.clientBuf = {nullptr, 0};
    Qnn_Tensor_t ins[2] = {x.tensor, w->spec.tensor};
    Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
    add.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &y.tensor};
    EXPECT_EQ(s.api().backendValidateOpConfig(s.backend(), add), QNN_SUCCESS) << withData << LogCapture::take();
    w->mx.valueEncoding = QNN_FLOAT_ENCODING_MXFP6_E2M3;
    EXPECT_NE(s.api().backendValidateOpConfig(s.backend(), add), QNN_SUCCESS) << withData;
    EXPECT_NE(LogCapture::take().find("MXFP6 (E3M2/E2M3) elements are not supported"), std::string::npos);
    ins[1].v1.quantizeParams = QNN_QUANTIZE_PARAMS_INIT;
    EXPECT_NE(s.api().backendValidateOpConfig(s.backend(), add), QNN_SUCCESS) << withData;
    EXPECT_NE(LogCapture::take().find("FLOAT_8 without a MICROSCALING encoding"), std::string::npos);
  }
}

class LaterDatatypesRefusal : public ::testing::TestWithParam<BackendCase> {};

// On both backends: what no backend here computes on is refused with NOT_SUPPORTED
// and a line naming it; malformed encodings with INVALID_TENSOR_PARAM.
TEST_P(LaterDatatypesRefusal, UnsupportedAndMalformedAreRefused) {
  Session s(GetParam().lib());
  std::mt19937 rng(3);
  auto expect = [&](const Qnn_Tensor_t& t, Qnn_ErrorHandle_t code, const std::string& message) {
    auto [rc, log] = s.create(t);
    EXPECT_EQ(rc, code) << message << "\n" << log;
    EXPECT_NE(log.find(message), std::string::npos) << log;
  };
  // Graph inputs/outputs of a packed type.
  TensorSpec in("x2", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_2, {8});
  expect(in.tensor, QNN_COMMON_ERROR_NOT_SUPPORTED, "tensor 'x2': datatype INT_2 is supported only for STATIC tensors");
  TensorSpec out("y8", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_8, {8});
  expect(out.tensor, QNN_COMMON_ERROR_NOT_SUPPORTED, "tensor 'y8': datatype FLOAT_8 is supported only for STATIC");
  // FLOAT_8 without an encoding: E4M3 or E5M2 is not said.
  {
    auto w = fp8(QNN_FLOAT_ENCODING_MXFP8_E4M3, true, rng);
    w->spec.tensor.v1.quantizeParams = QNN_QUANTIZE_PARAMS_INIT;
    expect(w->spec.tensor, QNN_COMMON_ERROR_NOT_SUPPORTED,
           "tensor 'w': datatype FLOAT_8 without a MICROSCALING encoding is not supported");
  }
  // MXFP6: no storage defined.
  {
    auto w = fp8(QNN_FLOAT_ENCODING_MXFP8_E4M3, true, rng);
    w->mx.valueEncoding = QNN_FLOAT_ENCODING_MXFP6_E3M2;
    expect(w->spec.tensor, QNN_COMMON_ERROR_NOT_SUPPORTED, "MXFP6 (E3M2/E2M3) elements are not supported");
  }
  // Malformed microscaling: a block count the blocks do not cut, MXFP4 on FLOAT_8.
  {
    auto w = fp8(QNN_FLOAT_ENCODING_MXFP8_E5M2, true, rng);
    w->mx.blockCount = 3;
    expect(w->spec.tensor, QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM, "microscaling blockCount 3, the blocks cut 8");
    w->mx.blockCount = 8;
    w->mx.valueEncoding = QNN_FLOAT_ENCODING_MXFP4_E2M1;
    expect(w->spec.tensor, QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM, "MXFP4_E2M1 does not match datatype FLOAT_8");
  }
  // ARRAY_OF: index out of range; an index the client writes at execution.
  {
    auto w = arrayOf(1, rng);
    w->indexValue = 3;
    expect(w->spec.tensor, QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM, "ARRAY_OF quantization: index 3 is outside 0..2");
    w->indexValue = 1;
    w->indexTensor.v1.type = QNN_TENSOR_TYPE_APP_WRITE;
    expect(w->spec.tensor, QNN_COMMON_ERROR_NOT_SUPPORTED, "ARRAY_OF index tensor 'w_index' is not STATIC");
  }
  // A packed buffer of the wrong size (2-bit: four per byte).
  {
    auto w = packedFixed(QNN_DATATYPE_SFIXED_POINT_2, 2, true, 0.5f, 0, rng);
    w->spec.tensor.v1.clientBuf.dataSize = 128;
    expect(w->spec.tensor, QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM,
           "tensor 'w': static data is 128 bytes, expected 64 (256 2-bit values, four per byte)");
  }
}

INSTANTIATE_TEST_SUITE_P(All, LaterDatatypesRefusal, ::testing::ValuesIn(kWeightTestBackends),
                         [](const auto& info) { return std::string(info.param.name); });

// The HTP takes the 4-bit weight types only: every other narrow type and the
// MICROSCALING / ARRAY_OF encodings are refused at creation, naming them; the CPU
// backend accepts the same tensors.
TEST(HtpLaterDatatypes, OnlyFourBitWeightTypesAreAccepted) {
  Session htp(htpLib()), cpu(cpuLib());
  EXPECT_EQ(htp.api().propertyHasCapability(QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_MICROSCALING),
            QNN_PROPERTY_NOT_SUPPORTED);
  EXPECT_EQ(cpu.api().propertyHasCapability(QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_MICROSCALING),
            QNN_PROPERTY_SUPPORTED);
  std::mt19937 rng(5);
  struct Refused {
    std::unique_ptr<Weight> w;
    std::string message;
  };
  std::vector<Refused> refused;
  refused.push_back({packedInteger(QNN_DATATYPE_INT_2, 2, true, rng), "datatype INT_2 is not supported by the HTP"});
  refused.push_back({packedInteger(QNN_DATATYPE_UINT_2, 2, false, rng), "datatype UINT_2 is not supported by the HTP"});
  refused.push_back({packedInteger(QNN_DATATYPE_UINT_4, 4, false, rng), "datatype UINT_4 is not supported by the HTP"});
  refused.push_back({packedFixed(QNN_DATATYPE_SFIXED_POINT_2, 2, true, 0.5f, 0, rng),
                     "datatype SFIXED_POINT_2 is not supported by the HTP"});
  refused.push_back({packedFixed(QNN_DATATYPE_UFIXED_POINT_2, 2, false, 0.5f, 0, rng),
                     "datatype UFIXED_POINT_2 is not supported by the HTP"});
  refused.push_back({fp8(QNN_FLOAT_ENCODING_MXFP8_E4M3, true, rng), "quantization encoding MICROSCALING is not supported by the HTP"});
  refused.push_back({fp4(false, rng), "datatype FLOAT_4 is not supported by the HTP"});
  refused.push_back({arrayOf(1, rng), "quantization encoding ARRAY_OF is not supported by the HTP"});
  for (const Refused& r : refused) {
    auto [rc, log] = htp.create(r.w->spec.tensor);
    EXPECT_EQ(rc, QNN_COMMON_ERROR_NOT_SUPPORTED) << r.message;
    EXPECT_NE(log.find("tensor 'w': " + r.message), std::string::npos) << log;
    EXPECT_EQ(cpu.create(r.w->spec.tensor).first, QNN_SUCCESS) << r.message;
  }
  for (auto make : {+[](std::mt19937& g) { return packedInteger(QNN_DATATYPE_INT_4, 4, true, g); },
                    +[](std::mt19937& g) { return packedFixed(QNN_DATATYPE_SFIXED_POINT_4, 4, true, 0.5f, 0, g); },
                    +[](std::mt19937& g) { return packedFixed(QNN_DATATYPE_UFIXED_POINT_4, 4, false, 0.5f, -8, g); }}) {
    auto w = make(rng);
    auto [rc, log] = htp.create(w->spec.tensor);
    EXPECT_EQ(rc, QNN_SUCCESS) << log;
  }
  // INT_4 is kept as INT_8, which no HTP op takes: a node refuses it naming both.
  auto w = packedInteger(QNN_DATATYPE_INT_4, 4, true, rng);
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {kRows, kCols});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_32, {kRows, kCols});
  Qnn_Tensor_t ins[2] = {x.tensor, w->spec.tensor};
  Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
  add.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &y.tensor};
  LogCapture::take();
  EXPECT_NE(htp.api().backendValidateOpConfig(htp.backend(), add), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("input 1 'w' has datatype INT_4 (as INT_8), which the HTP does not support"),
            std::string::npos);
}

// 4-bit weights with 16-bit activations on the HTP (and the CPU backend): FullyConnected,
// x and y UFIXED_POINT_16, w SFIXED_POINT_4 per channel or UFIXED_POINT_4 per tensor,
// against the float64 reference of the encodings' definitions (within one output step).
constexpr uint32_t kBatch = 3, kIn = 19, kOut = 6;
constexpr float kSx = 0.0005f, kSy = 0.002f, kSb = 0.00001f;
constexpr int32_t kOffX = -30000, kOffY = -32768;

class A16W4 : public ::testing::TestWithParam<std::tuple<BackendCase, bool>> {};

TEST_P(A16W4, FullyConnectedMatchesTheReference) {
  const auto& [backendCase, perChannel] = GetParam();
  Session s(backendCase.lib());
  std::mt19937 rng(perChannel ? 11 : 13);
  std::vector<uint16_t> x(kBatch * kIn);
  for (auto& v : x) v = uint16_t(rng() % 65536);
  std::vector<uint8_t> codes(kOut * kIn);
  for (auto& c : codes) c = uint8_t(rng() % 16);
  std::vector<int32_t> bias(kOut);
  for (auto& b : bias) b = int32_t(rng() % 200001) - 100000;
  float wScales[kOut];
  for (uint32_t o = 0; o < kOut; ++o) wScales[o] = 0.01f * float(1 + o);
  const float uScale = 0.02f;
  const int32_t uOffset = -8;
  auto wRef = [&](uint32_t o, uint32_t i) {
    const uint8_t c = codes[o * kIn + i];
    return perChannel ? double(wScales[o]) * signedOf(c, 4) : double(uScale) * (double(c) + uOffset);
  };
  std::vector<int> want(kBatch * kOut);
  for (uint32_t n = 0; n < kBatch; ++n)
    for (uint32_t o = 0; o < kOut; ++o) {
      double acc = double(kSb) * bias[o];
      for (uint32_t i = 0; i < kIn; ++i) acc += double(kSx) * (double(x[n * kIn + i]) + kOffX) * wRef(o, i);
      want[n * kOut + o] = int(std::clamp(std::nearbyint(acc / kSy) - kOffY, 0.0, 65535.0));
    }

  std::vector<uint8_t> packed = packBits(codes, 4);
  std::vector<Qnn_ScaleOffset_t> channels;
  for (float sc : wScales) channels.push_back({sc, 0});
  std::vector<uint16_t> y(kBatch * kOut);
  Ids ids;
  auto build = [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t* g) {
    Qnn_ErrorHandle_t rc = api.graphCreate(ctx, "a16w4", nullptr, g);
    if (rc != QNN_SUCCESS) return rc;
    QuantSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {kBatch, kIn}, kSx, kOffX);
    QuantSpec ws("w", QNN_TENSOR_TYPE_STATIC,
                 perChannel ? QNN_DATATYPE_SFIXED_POINT_4 : QNN_DATATYPE_UFIXED_POINT_4, {kOut, kIn}, uScale, uOffset,
                 packed.data(), uint32_t(packed.size()));
    if (perChannel) {
      ws.tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
      ws.tensor.v1.quantizeParams.axisScaleOffsetEncoding = {0, kOut, channels.data()};
    }
    QuantSpec bs("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {kOut}, kSb, 0, bias.data(),
                 uint32_t(bias.size() * 4));
    QuantSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, {kBatch, kOut}, kSy, kOffY);
    for (TensorSpec* t : {(TensorSpec*)&xs, (TensorSpec*)&ws, (TensorSpec*)&bs, (TensorSpec*)&ys})
      if ((rc = api.tensorCreateGraphTensor(*g, &t->tensor)) != QNN_SUCCESS) return rc;
    ids.x = xs.tensor.v1.id;
    ids.y = ys.tensor.v1.id;
    Qnn_Tensor_t ins[3] = {xs.tensor, ws.tensor, bs.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"fc", "qti.aisw", "FullyConnected", 0, nullptr, 3, ins, 1, &ys.tensor};
    if ((rc = api.graphAddNode(*g, op)) != QNN_SUCCESS) return rc;
    return api.graphFinalize(*g, nullptr, nullptr);
  };
  auto run = [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) {
    QuantSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {kBatch, kIn}, kSx, kOffX, x.data(),
                 uint32_t(x.size() * 2));
    QuantSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, {kBatch, kOut}, kSy, kOffY, y.data(),
                 uint32_t(y.size() * 2));
    xs.tensor.v1.id = ids.x;
    ys.tensor.v1.id = ids.y;
    Qnn_ErrorHandle_t rc = api.graphExecute(g, &xs.tensor, 1, &ys.tensor, 1, nullptr, nullptr);
    out->assign(reinterpret_cast<uint8_t*>(y.data()), reinterpret_cast<uint8_t*>(y.data() + y.size()));
    return rc;
  };
  std::vector<uint8_t> bytes = s.buildAndRun(build, run);
  ASSERT_EQ(bytes.size(), y.size() * 2);
  size_t off = 0;
  std::set<int> distinct;
  for (size_t i = 0; i < want.size(); ++i) {
    uint16_t got;
    std::memcpy(&got, bytes.data() + i * 2, 2);
    distinct.insert(got);
    if (std::abs(int(got) - want[i]) > 1 && off++ < 5)
      ADD_FAILURE() << "output " << i << ": " << got << ", the reference " << want[i];
  }
  EXPECT_EQ(off, 0u);
  EXPECT_GE(distinct.size(), want.size() / 2) << "outputs barely vary";
}

INSTANTIATE_TEST_SUITE_P(All, A16W4, ::testing::Combine(::testing::ValuesIn(kWeightTestBackends), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) ? "S4PerChannel" : "U4PerTensor");
                         });

}  // namespace
}  // namespace qnn::test
