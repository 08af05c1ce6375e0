// Packed 4-bit static data (sdk/adapters/client_datatypes.cpp, readTensorInfo):
// nibble order and sign extension against hand-written values, and the 8-bit
// container form the runtime makes of a packed tensor.
#include <gtest/gtest.h>

#include <vector>

#include "adapters/client_datatypes.h"
#include "runtime/qnn_convert.h"

namespace qnn::sdk {
namespace {

TEST(Packed4Bit, LowNibbleFirstAndSignExtension) {
  // 0x8F: first value 0xF, second 0x8; 0x70: 0x0 then 0x7; 0x0A: 0xA then (unused) 0x0.
  const uint8_t packed[] = {0x8f, 0x70, 0x0a};
  EXPECT_EQ(unpackBits(packed, 5, 4, true), (std::vector<uint8_t>{0xff, 0xf8, 0x00, 0x07, 0xfa}));  // -1 -8 0 7 -6
  EXPECT_EQ(unpackBits(packed, 5, 4, false), (std::vector<uint8_t>{15, 8, 0, 7, 10}));
  EXPECT_EQ(packedBytes(5, 4), 3u);
  EXPECT_EQ(packedBytes(6, 4), 3u);
  EXPECT_EQ(packedBytes(1, 4), 1u);
}

TEST(Packed2Bit, LowestBitsFirstAndSignExtension) {
  // The header's example: [0, 1, 2, 3] is the byte 1110 0100.
  const uint8_t example[] = {0xe4};
  EXPECT_EQ(unpackBits(example, 4, 2, false), (std::vector<uint8_t>{0, 1, 2, 3}));
  EXPECT_EQ(unpackBits(example, 4, 2, true), (std::vector<uint8_t>{0, 1, 0xfe, 0xff}));  // 0 1 -2 -1
  const uint8_t two[] = {0x1b, 0x02};  // 3 2 1 0 | 2
  EXPECT_EQ(unpackBits(two, 5, 2, false), (std::vector<uint8_t>{3, 2, 1, 0, 2}));
  EXPECT_EQ(packedBytes(5, 2), 2u);
  EXPECT_EQ(packedBytes(8, 2), 2u);
  EXPECT_EQ(packedBytes(7, 8), 7u);
  EXPECT_EQ(packedBits(QNN_DATATYPE_INT_2), 2u);
  EXPECT_EQ(packedBits(QNN_DATATYPE_FLOAT_4), 4u);
  EXPECT_EQ(packedBits(QNN_DATATYPE_FLOAT_8), 0u);
  EXPECT_EQ(packedBits(QNN_DATATYPE_UFIXED_POINT_8), 0u);
}

TEST(Packed4Bit, DatatypeNames) {
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_SFIXED_POINT_4), "SFIXED_POINT_4");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_UFIXED_POINT_4), "UFIXED_POINT_4");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_BFLOAT_16), "BFLOAT_16");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_FLOAT_64), "FLOAT_64");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_STRING), "STRING");
  // API 2.39 names (QnnTypes.h values 0x0002 ... 0x0402).
  EXPECT_EQ(qnnDatatypeName(0x0002), "INT_2");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_UINT_4), "UINT_4");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_FLOAT_8), "FLOAT_8");
  EXPECT_EQ(qnnDatatypeName(0x0402), "UFIXED_POINT_2");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_FLOAT_32), "FLOAT_32");
  EXPECT_EQ(qnnDatatypeName(0x0abc), "0x0abc");
  EXPECT_EQ(storageDType(QNN_DATATYPE_SFIXED_POINT_4), DType::kSFixed8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_UFIXED_POINT_4), DType::kUFixed8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_FLOAT_32), DType::kFloat32);
  EXPECT_EQ(storageDType(QNN_DATATYPE_INT_4), DType::kInt8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_UINT_2), DType::kUInt8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_SFIXED_POINT_2), DType::kSFixed8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_FLOAT_8), DType::kFloat32);
}

TEST(Packed4Bit, StaticTensorBecomesEightBitContainer) {
  uint32_t dims[] = {3};
  uint8_t packed[] = {0x9e, 0x03};  // 0xE, 0x9, 0x3
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.name = "w";
  t.v1.type = QNN_TENSOR_TYPE_STATIC;
  t.v1.dataType = QNN_DATATYPE_UFIXED_POINT_4;
  t.v1.rank = 1;
  t.v1.dimensions = dims;
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf = {packed, sizeof packed};
  t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  t.v1.quantizeParams.scaleOffsetEncoding = {0.5f, -8};
  TensorInfo info;
  ASSERT_TRUE(readTensorInfo(t, TensorUse::kCreate, &info).isOk());
  EXPECT_EQ(info.dtype, DType::kUFixed8);
  EXPECT_EQ(info.quant.bitwidth, 4u);  // implied by the datatype
  EXPECT_EQ(info.quant.scale, 0.5f);
  EXPECT_EQ(info.quant.offset, -8);
  EXPECT_EQ(info.staticData, (std::vector<uint8_t>{14, 9, 3}));

  t.v1.dataType = QNN_DATATYPE_SFIXED_POINT_4;
  ASSERT_TRUE(readTensorInfo(t, TensorUse::kCreate, &info).isOk());
  EXPECT_EQ(info.dtype, DType::kSFixed8);
  EXPECT_EQ(info.staticData, (std::vector<uint8_t>{0xfe, 0xf9, 0x03}));  // -2 -7 3

  t.v1.clientBuf.dataSize = 3;
  Status st = readTensorInfo(t, TensorUse::kCreate, &info);
  EXPECT_EQ(st.code(), StatusCode::kInvalidTensor);
  EXPECT_EQ(st.message(), "tensor 'w': static data is 3 bytes, expected 2 (3 4-bit values, two per byte)");
}

// Narrow values in wider containers: the low `bitwidth` bits, stored sign-extended.
// SFIXED_POINT_8 per-tensor BW_SCALE_OFFSET(4): -3 as 0x0D (ONNX Runtime's QNN EP) or
// 0xFD, -8 as 0x08 or 0xF8, 7 as 0x07; SFIXED_POINT_16 with bitwidth 12: -1 as 0x0FFF.
TEST(Packed4Bit, NarrowValuesInContainersAreStoredSignExtended) {
  uint8_t s8[] = {0x0d, 0xfd, 0x08, 0xf8, 0x07, 0x00};
  ASSERT_TRUE(normalizeNarrowValues("w", DType::kSFixed8, 4, s8, sizeof s8).isOk());
  EXPECT_EQ(std::vector<uint8_t>(s8, s8 + 6), (std::vector<uint8_t>{0xfd, 0xfd, 0xf8, 0xf8, 0x07, 0x00}));
  uint8_t u8[] = {0x0f, 0x00, 0x09};
  ASSERT_TRUE(normalizeNarrowValues("w", DType::kUFixed8, 4, u8, sizeof u8).isOk());
  EXPECT_EQ(std::vector<uint8_t>(u8, u8 + 3), (std::vector<uint8_t>{0x0f, 0x00, 0x09}));
  uint8_t s16[] = {0xff, 0x0f, 0x00, 0x08, 0xff, 0x07};  // 0x0FFF, 0x0800, 0x07FF (little-endian)
  ASSERT_TRUE(normalizeNarrowValues("w", DType::kSFixed16, 12, s16, sizeof s16).isOk());
  EXPECT_EQ(std::vector<uint8_t>(s16, s16 + 6), (std::vector<uint8_t>{0xff, 0xff, 0x00, 0xf8, 0xff, 0x07}));
  // Full width or no bitwidth: untouched.
  uint8_t full[] = {0x0d, 0x80};
  ASSERT_TRUE(normalizeNarrowValues("w", DType::kSFixed8, 8, full, sizeof full).isOk());
  ASSERT_TRUE(normalizeNarrowValues("w", DType::kSFixed8, 0, full, sizeof full).isOk());
  EXPECT_EQ(std::vector<uint8_t>(full, full + 2), (std::vector<uint8_t>{0x0d, 0x80}));
  // Neither the value nor its low bits with the upper bits cleared.
  uint8_t bad[] = {0x01, 0xe7};
  Status st = normalizeNarrowValues("tensor 'w'", DType::kSFixed8, 4, bad, sizeof bad);
  EXPECT_EQ(st.code(), StatusCode::kInvalidTensor);
  EXPECT_EQ(st.message(), "tensor 'w': element 1 of the static data (0xe7) is outside the 4-bit range -8..7 of its "
                          "encoding (neither the value nor its low 4 bits with the upper bits cleared)");
  uint8_t badU[] = {0x10};
  EXPECT_EQ(normalizeNarrowValues("w", DType::kUFixed8, 4, badU, 1).code(), StatusCode::kInvalidTensor);
}

// The per-tensor signed form through readTensorInfo, as the EP sends it.
TEST(Packed4Bit, PerTensorSignedContainerFromOnnxRuntime) {
  uint32_t dims[] = {4};
  uint8_t values[] = {0x0d, 0x07, 0x08, 0x00};  // -3 7 -8 0, upper bits cleared
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.name = "w";
  t.v1.type = QNN_TENSOR_TYPE_STATIC;
  t.v1.dataType = QNN_DATATYPE_SFIXED_POINT_8;
  t.v1.rank = 1;
  t.v1.dimensions = dims;
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf = {values, sizeof values};
  t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET;
  t.v1.quantizeParams.bwScaleOffsetEncoding = {4, 0.25f, 0};
  TensorInfo info;
  ASSERT_TRUE(readTensorInfo(t, TensorUse::kCreate, &info).isOk());
  EXPECT_EQ(info.quant.bitwidth, 4u);
  EXPECT_EQ(info.staticData, (std::vector<uint8_t>{0xfd, 0x07, 0xf8, 0x00}));
  EXPECT_EQ(values[0], 0x0d);  // the client's buffer is only read
}

}  // namespace
}  // namespace qnn::sdk
