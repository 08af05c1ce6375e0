// Builds, once per test process, a context binary with two graphs through the
// public C API on libQnnCpu.so (and one on libQnnHtp.so), and records what each graph's inputs and outputs
// should look like, so the system library and the utility can be checked
// against what the client actually created:
//   float_graph: out = Relu(x + y)                     (FLOAT_32, [1,4,4,3])
//   quant_graph: y1 = FullyConnected(x, w_static)      (x, y1 UFIXED_POINT_8
//                y2 = FullyConnected(x, w_in)           scale/offset; w_* SFIXED_POINT_8
//                                                       per-axis scale/offset)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "QnnTypes.h"

namespace qnn::test {

struct ExpectedTensor {
  uint32_t id = 0;
  std::string name;
  Qnn_TensorType_t type = QNN_TENSOR_TYPE_UNDEFINED;
  Qnn_DataType_t dtype = QNN_DATATYPE_UNDEFINED;
  std::vector<uint32_t> dims;
  Qnn_QuantizationEncoding_t encoding = QNN_QUANTIZATION_ENCODING_UNDEFINED;  // UNDEFINED: not quantized
  float scale = 0.f;
  int32_t offset = 0;
  int32_t axis = 0;
  std::vector<float> scales;  // per-axis
  std::vector<int32_t> offsets;
};

struct ExpectedGraph {
  std::string name;
  std::vector<ExpectedTensor> inputs, outputs;
};

struct ContextBinaryFixture {
  std::vector<uint8_t> bytes;  // the binary QnnContext_getBinary wrote
  std::vector<ExpectedGraph> graphs;
  uint32_t backendId = 0;
  uint64_t htpSpillFill = 0;  // HTP: the context's QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE
  std::string error;  // non-empty if building failed
};

// Built on first use; owned by the function (lives until exit).
const ContextBinaryFixture& contextBinaryFixture();
// The same two graphs in a context of libQnnHtp.so.
const ContextBinaryFixture& htpContextBinaryFixture();

// A fresh directory under the system temp dir, removed (recursively) when the
// object dies. Tests write binaries, JSON and traces there.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes);
bool fileExists(const std::string& path);

}  // namespace qnn::test
