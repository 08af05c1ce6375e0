// Packed 4-bit static data (sdk/runtime/later_datatypes.cpp, readTensorInfo):
// nibble order and sign extension against hand-written values, and the 8-bit
// container form the runtime makes of a packed tensor.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/later_datatypes.h"
#include "runtime/qnn_convert.h"

namespace qnn::sdk {
namespace {

TEST(Packed4Bit, LowNibbleFirstAndSignExtension) {
  // 0x8F: first value 0xF, second 0x8; 0x70: 0x0 then 0x7; 0x0A: 0xA then (unused) 0x0.
  const uint8_t packed[] = {0x8f, 0x70, 0x0a};
  EXPECT_EQ(unpack4Bit(packed, 5, true), (std::vector<uint8_t>{0xff, 0xf8, 0x00, 0x07, 0xfa}));  // -1 -8 0 7 -6
  EXPECT_EQ(unpack4Bit(packed, 5, false), (std::vector<uint8_t>{15, 8, 0, 7, 10}));
  EXPECT_EQ(packed4BitBytes(5), 3u);
  EXPECT_EQ(packed4BitBytes(6), 3u);
  EXPECT_EQ(packed4BitBytes(1), 1u);
}

TEST(Packed4Bit, DatatypeNames) {
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_SFIXED_POINT_4), "SFIXED_POINT_4");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_UFIXED_POINT_4), "UFIXED_POINT_4");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_BFLOAT_16), "BFLOAT_16");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_FLOAT_64), "FLOAT_64");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_STRING), "STRING");
  EXPECT_EQ(qnnDatatypeName(QNN_DATATYPE_FLOAT_32), "FLOAT_32");
  EXPECT_EQ(qnnDatatypeName(0x0abc), "0x0abc");
  EXPECT_EQ(storageDType(QNN_DATATYPE_SFIXED_POINT_4), DType::kSFixed8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_UFIXED_POINT_4), DType::kUFixed8);
  EXPECT_EQ(storageDType(QNN_DATATYPE_FLOAT_32), DType::kFloat32);
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

}  // namespace
}  // namespace qnn::sdk
