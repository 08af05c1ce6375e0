// BinaryInfoStorage: the QnnSystemContext_BinaryInfo_t of one parsed context
// binary, together with every array and string it points to. The C structs
// point only into this object, so the whole tree lives exactly as long as the
// object does (the system context keeps it until QnnSystemContext_free).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "HTP/QnnHtpSystemContext.h"
#include "System/QnnSystemContext.h"
#include "context_binary/context_binary.h"

namespace qnn::system {

// Version of the context-binary format, read from the binary's header.
struct FormatVersion {
  uint32_t major = 0;
  uint32_t minor = 0;
};

class BinaryInfoStorage {
 public:
  // Copies everything it needs out of contents (which may be destroyed
  // afterwards). binarySize is the size of the whole binary in bytes.
  // Throws std::bad_alloc only; the C entry points catch it.
  BinaryInfoStorage(const sdk::ContextBinaryContents& contents, FormatVersion format, uint64_t binarySize);
  BinaryInfoStorage(const BinaryInfoStorage&) = delete;
  BinaryInfoStorage& operator=(const BinaryInfoStorage&) = delete;

  // Owned by this object; valid while it lives.
  const QnnSystemContext_BinaryInfo_t* info() const { return &info_; }
  // Bytes of the returned tree: the structs, arrays and strings it points to.
  uint64_t byteSize() const { return byteSize_; }

 private:
  const char* keepString(const std::string& s);
  Qnn_Tensor_t makeTensor(const sdk::TensorInfo& t);
  Qnn_Tensor_t* keepTensors(const std::vector<const sdk::TensorInfo*>& tensors);
  template <typename Info>
  void fillCommon(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize, Info* v);
  template <typename GraphInfo>
  void fillGraph(const sdk::GraphIR& g, GraphInfo* v);
  void fillV2(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize);
  void fillHtpV3(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize);
  void setQuantization(const sdk::QuantInfo& q, Qnn_QuantizeParams_t* out);

  QnnSystemContext_BinaryInfo_t info_ = QNN_SYSTEM_CONTEXT_BINARYINFO_INIT;
  // deques: appending never moves existing elements, so pointers handed out
  // into them stay valid while the tree is being built.
  std::deque<std::string> strings_;
  std::deque<std::vector<uint32_t>> dims_;
  std::deque<std::vector<Qnn_ScaleOffset_t>> scaleOffsets_;
  std::deque<std::vector<float>> scales_;
  std::deque<std::vector<int32_t>> offsets_;
  std::deque<Qnn_BlockwiseExpansion_t> blockwise_;
  std::deque<std::vector<uint8_t>> blockScales8_;
  std::deque<std::vector<uint16_t>> blockScales16_;
  std::deque<std::vector<Qnn_Tensor_t>> tensorArrays_;
  std::deque<QnnHtpSystemContext_GraphBlobInfo_t> graphBlobs_;
  std::vector<QnnSystemContext_GraphInfo_t> graphs_;
  uint64_t byteSize_ = 0;
};

}  // namespace qnn::system
