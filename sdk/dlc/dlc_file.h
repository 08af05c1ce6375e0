// Reading an OpenQNN DLC (docs/dlc-format.md): the preamble and the
// compressed JSON header are checked (magic, version, CRCs, every offset and
// size against the file) and parsed into plain values; the file is mapped
// read-only, and static tensors point into the mapping — weights are never
// copied. Every problem is a Status naming the file and what is wrong; no
// exception leaves open().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "QnnTypes.h"
#include "core/status.h"

namespace qnn::dlc {

struct QuantParams {
  bool defined = false;
  uint32_t bitwidth = 0;
  int32_t axis = -1;  // >= 0: per-axis (one scale/offset per slice of that axis)
  std::vector<float> scales;
  std::vector<int32_t> offsets;
  // Blockwise expansion (docs/dlc-format.md "blockwise_expansion"): channels x numBlocks multipliers.
  bool blockwise = false;
  uint32_t numBlocks = 0, blockScaleBitwidth = 0;
  std::vector<uint16_t> blockScales;
};

struct Tensor {
  std::string name;
  Qnn_TensorType_t type = QNN_TENSOR_TYPE_NATIVE;
  Qnn_DataType_t dataType = QNN_DATATYPE_UNDEFINED;
  std::vector<uint32_t> dims;
  QuantParams quant;
  std::string axisFormat;         // the layout of a graph input/output's raw data ("NCHW", ...), may be empty
  std::string sourceName;         // the source model's name for it, where the converter renamed it (may be empty)
  const uint8_t* data = nullptr;  // static tensors: into the file mapping (owned by the DlcFile)
  uint64_t size = 0;
};

struct Param {
  std::string name;
  bool isTensor = false;
  Qnn_DataType_t dataType = QNN_DATATYPE_UNDEFINED;
  std::vector<uint32_t> dims;  // tensor params
  std::vector<uint8_t> bytes;  // the value(s) in the data type's storage (a scalar: one element)
};

struct Node {
  std::string name, package, type;
  std::vector<std::string> inputs, outputs;
  std::vector<Param> params;
};

// An op package the graph's custom nodes need registered with the backend.
struct OpPackageRef {
  std::string name, domain, version;
};

struct Graph {
  std::string name;
  std::vector<std::string> inputs, outputs;
  std::vector<Tensor> tensors;  // in the file's order (producers before consumers is not required)
  std::vector<Node> nodes;      // in execution order
  std::vector<OpPackageRef> opPackages;
};

// A backend's context binary kept in the DLC (QnnContext_addToDlc; docs/dlc-format.md
// "context_binaries"): a record of the System API's cache-record type for that backend.
struct ContextBinary {
  std::string name;          // the record's name, unique in the DLC
  uint32_t recordType = 0;   // QnnSystemDlc_RecordType_t (QNN_SYSTEM_DLC_RECORD_PREFIX_HTP_CACHE_RECORD, ...)
  uint32_t backendId = 0;    // QNN_BACKEND_ID_* of the backend that wrote it
  const uint8_t* data = nullptr;  // into the DLC's bytes
  uint64_t size = 0;
};

struct Metadata {
  std::string converter, converterCommand, modelVersion, sourceModel, sourceSha256;
  std::string quantizer, quantizerCommand;  // empty unless qairt-quantizer wrote the file
};

class DlcFile {
 public:
  // Opens and checks `path`; on success *out owns the mapping.
  static sdk::Status open(const std::string& path, std::unique_ptr<DlcFile>* out);
  // The same checks on a DLC in memory (QnnSystemDlc_createFromBinary); the bytes are copied, so
  // the caller's buffer may go away. `label` names it in errors.
  static sdk::Status openBuffer(const uint8_t* data, uint64_t size, const std::string& label,
                                std::unique_ptr<DlcFile>* out);
  // openBuffer without the copy: the DLC takes `bytes` (a writer's output).
  static sdk::Status openOwned(std::vector<uint8_t>&& bytes, const std::string& label, std::unique_ptr<DlcFile>* out);
  ~DlcFile();
  DlcFile(const DlcFile&) = delete;
  DlcFile& operator=(const DlcFile&) = delete;

  const std::vector<Graph>& graphs() const { return graphs_; }
  const std::vector<ContextBinary>& contextBinaries() const { return contextBinaries_; }
  const Metadata& metadata() const { return metadata_; }
  const std::string& path() const { return path_; }
  // The whole file as read (the mapping or the owned buffer), the decompressed header JSON, and
  // the data region (static tensors' bytes: from the end of the preamble to the header).
  const uint8_t* bytes() const { return base_; }
  uint64_t byteSize() const { return size_; }
  const std::string& headerJson() const { return headerJson_; }
  uint64_t dataBegin() const { return 64; }
  uint64_t dataEnd() const { return dataEnd_; }
  // Drops the mapped pages of a static tensor's bytes from this process's memory once a backend
  // has copied them (they are re-read from the file if touched again), so composing a large model
  // does not hold its weights twice. No effect on a buffer-backed file or outside the mapping.
  void releasePages(const uint8_t* data, uint64_t size) const;

 private:
  DlcFile() = default;
  sdk::Status parse(const uint8_t* bytes, uint64_t size);  // checks the bytes (mapped or owned) and fills graphs_
  std::string path_;
  std::vector<uint8_t> owned_;  // openBuffer's copy (static tensors point into it)
  void* map_ = nullptr;
  size_t mapSize_ = 0;
  std::vector<Graph> graphs_;
  std::vector<ContextBinary> contextBinaries_;
  Metadata metadata_;
  const uint8_t* base_ = nullptr;
  uint64_t size_ = 0, dataEnd_ = 64;
  std::string headerJson_;
};

}  // namespace qnn::dlc
