// qnn-llm-run: generates text with the example decoder of examples/llm on any QNN backend, using
// only the public API. It reads one context binary holding the prefill (AR-N) and decode (AR-1)
// graphs (qnn-context-binary-generator --model libprefill.so,libdecode.so), takes their
// inputs and outputs from libQnnSystem.so's binary info, loads the binary into the backend
// (QnnInterface_getProviders of a dlopen'ed libQnnCpu.so / libQnnHtp.so / ...), and keeps
// every input and output in shared memory registered with QnnMem_register (rpcmem of
// libcdsprpc.so when it loads, else a memfd; both as ION file descriptors). The binary file is mapped
// and its weights used in place (QnnContext_createFromBinaryWithCallback). The KV cache is
// the decode graph's past_key_L / past_value_L inputs: each step writes only the new tokens'
// entries into them, in place. Prompts longer than the prefill graph go through it in chunks.
//
//   qnn-llm-run --backend libQnnHtp.so --context llm.bin --tokenizer tokenizer.json
//               --prompt " your work." [--max_tokens 64] [--temperature 0.8 --top_k 40 --top_p 0.95 --seed 1]
//
// The graphs' interface is train_llm.py's: input_ids, position_ids [1, N] (integers),
// attention_mask [1, 1, N, ctx] (additive: 0 or -10000; columns = ctx-N past slots, then the
// N new tokens), past_key_L / past_value_L [1, kv_heads, ctx-N, head_dim]; outputs logits
// [1, N, vocab], new_key_L / new_value_L [1, kv_heads, N, head_dim]. Float, fp16 and
// fixed-point (scale/offset) tensors are converted as their datatypes say.
// Or the vendor Genie runtime's (export_genie.py; recognized by the name past_key_0_in): the rotary
// tables' rows as inputs position_ids_cos / position_ids_sin [1, 1, N, head_dim/2] (computed here from
// --rope_theta as Genie does: angle = position * theta^(-j / (head_dim/2))), the cache as past_key_L_in
// [1, kv_heads, head_dim, ctx-N] (keys transposed) / past_value_L_in, outputs past_key_L_out /
// past_value_L_out.
// Or export_gqa.py's (com.microsoft.GroupQueryAttention, QNN's GroupQueryAttention; recognized by the input
// seqlens_k): no mask or positions but seqlens_k = start + N - 1 and total_sequence_length = start + N
// (INT_32 [1]), the cache as past_key_L / past_value_L [1, kv_heads, ctx, head_dim], outputs
// present_key_L / present_value_L of the same shape with the new entries at slots start..start+N-1.
//
// LoRA adapters (examples/llm/train_lora.py; the binary made with qnn-context-binary-generator
// --adapter_weight_config): --adapter NAME applies the binary section DIR/llm_NAME.bin beside the binary
// (or a section file's path; "base" = llm_default_adapter.bin, the base values) with
// QnnContext_applyBinarySection on both graphs before the prompt; --prompts FILE / --interactive take one
// prompt a line, and a line "@adapter NAME" switches the adapter between prompts, the context staying loaded.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpGraph.h"
#include "HTP/QnnHtpSystemContext.h"
#include "QnnInterface.h"
#include "System/QnnSystemInterface.h"
#include "bpe_tokenizer.h"
#include "sampler.h"

namespace {

constexpr float kMaskNeg = -10000.0f;  // train_llm.py's MASK_NEG
QnnLog_Level_t g_logLevel = QNN_LOG_LEVEL_WARN;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what); }

void check(Qnn_ErrorHandle_t err, const char* call) {
  if (err != QNN_SUCCESS) fail(std::string(call) + " failed with error " + std::to_string(err));
}

void logCallback(const char* fmt, QnnLog_Level_t level, uint64_t, va_list args) {
  if (level > g_logLevel) return;
  static const char* names[] = {"", "error", "warn", "info", "verbose", "debug"};
  std::fprintf(stderr, "[qnn %s] ", level <= 5 ? names[level] : "log");
  std::vfprintf(stderr, fmt, args);
  std::fprintf(stderr, "\n");
}

// ---- half precision ------------------------------------------------------------------------------------
float halfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      int e = -1;
      uint32_t m = man;
      do {
        ++e;
        m <<= 1;
      } while (!(m & 0x400));
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (m & 0x3FF) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000u | man << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | man << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToHalf(float f) {  // round to nearest even
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t absx = x & 0x7FFFFFFFu;
  if (absx >= 0x7F800000u) return sign | 0x7C00 | (absx > 0x7F800000u ? 0x200 : 0);
  if (absx >= 0x477FF000u) return sign | 0x7C00;  // rounds beyond 65504
  if (absx < 0x38800000u) {                        // subnormal half (or zero)
    float a;
    std::memcpy(&a, &absx, 4);
    return sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f));  // a / 2^-24
  }
  const uint32_t rounded = absx + 0xFFF + ((absx >> 13) & 1);
  return sign | static_cast<uint16_t>((rounded - (112u << 23)) >> 13);
}

// ---- shared memory ---------------------------------------------------------------------------------------
// rpcmem from libcdsprpc.so (the device's FastRPC library, or OpenQNN's), else an anonymous memfd.
class SharedMemory {
 public:
  SharedMemory() {
    lib_ = dlopen("libcdsprpc.so", RTLD_NOW | RTLD_LOCAL);
    if (lib_) {
      alloc_ = reinterpret_cast<AllocFn>(dlsym(lib_, "rpcmem_alloc"));
      toFd_ = reinterpret_cast<ToFdFn>(dlsym(lib_, "rpcmem_to_fd"));
      free_ = reinterpret_cast<FreeFn>(dlsym(lib_, "rpcmem_free"));
      if (!alloc_ || !toFd_ || !free_) {
        dlclose(lib_);
        lib_ = nullptr;
      }
    }
  }
  ~SharedMemory() {
    if (lib_) dlclose(lib_);
  }
  const char* kind() const { return lib_ ? "rpcmem (libcdsprpc.so)" : "memfd"; }

  struct Block {
    uint8_t* data = nullptr;
    size_t bytes = 0;
    int fd = -1;
  };
  Block alloc(size_t bytes) {
    Block b;
    b.bytes = bytes;
    if (lib_) {
      constexpr int kHeapSystem = 25;  // RPCMEM_HEAP_ID_SYSTEM
      constexpr uint32_t kDefaultFlags = 1;
      b.data = static_cast<uint8_t*>(alloc_(kHeapSystem, kDefaultFlags, static_cast<int>(bytes)));
      if (!b.data) fail("rpcmem_alloc of " + std::to_string(bytes) + " bytes failed");
      b.fd = toFd_(b.data);
      if (b.fd < 0) fail("rpcmem_to_fd gave no descriptor");
      std::memset(b.data, 0, bytes);
      return b;
    }
    b.fd = memfd_create("qnn-llm-run", MFD_CLOEXEC);
    if (b.fd < 0 || ftruncate(b.fd, static_cast<off_t>(bytes)) != 0) fail("memfd_create/ftruncate failed");
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, 0);
    if (p == MAP_FAILED) fail("mmap of a memfd failed");
    b.data = static_cast<uint8_t*>(p);
    return b;
  }
  void release(const Block& b) {
    if (!b.data) return;
    if (lib_) {
      free_(b.data);
    } else {
      munmap(b.data, b.bytes);
      close(b.fd);
    }
  }

 private:
  using AllocFn = void* (*)(int, uint32_t, int);
  using ToFdFn = int (*)(void*);
  using FreeFn = void (*)(void*);
  void* lib_ = nullptr;
  AllocFn alloc_ = nullptr;
  ToFdFn toFd_ = nullptr;
  FreeFn free_ = nullptr;
};

// ---- graph inputs and outputs ----------------------------------------------------------------------------
size_t dtypeBytes(Qnn_DataType_t t) {
  switch (t) {
    case QNN_DATATYPE_INT_8: case QNN_DATATYPE_UINT_8: case QNN_DATATYPE_SFIXED_POINT_8:
    case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_BOOL_8:
      return 1;
    case QNN_DATATYPE_INT_16: case QNN_DATATYPE_UINT_16: case QNN_DATATYPE_SFIXED_POINT_16:
    case QNN_DATATYPE_UFIXED_POINT_16: case QNN_DATATYPE_FLOAT_16:
      return 2;
    case QNN_DATATYPE_INT_32: case QNN_DATATYPE_UINT_32: case QNN_DATATYPE_SFIXED_POINT_32:
    case QNN_DATATYPE_UFIXED_POINT_32: case QNN_DATATYPE_FLOAT_32:
      return 4;
    case QNN_DATATYPE_INT_64: case QNN_DATATYPE_UINT_64:
      return 8;
    default:
      return 0;
  }
}

struct IoTensor {
  std::string name;
  std::vector<uint32_t> dims;
  Qnn_DataType_t dtype = QNN_DATATYPE_UNDEFINED;
  bool quantized = false;
  float scale = 1.0f;
  int32_t offset = 0;
  size_t count = 0, elemBytes = 0;
  SharedMemory::Block mem;
  Qnn_MemHandle_t handle = nullptr;
  Qnn_Tensor_t tensor = QNN_TENSOR_INIT;  // what execute gets: the binary's description + the mem handle

  size_t bytes() const { return count * elemBytes; }
  bool sameEncoding(const IoTensor& o) const {
    return dtype == o.dtype && quantized == o.quantized && (!quantized || (scale == o.scale && offset == o.offset));
  }
  float get(size_t i) const {
    const uint8_t* p = mem.data + i * elemBytes;
    double v;
    switch (dtype) {
      case QNN_DATATYPE_FLOAT_32: { float f; std::memcpy(&f, p, 4); return f; }
      case QNN_DATATYPE_FLOAT_16: { uint16_t h; std::memcpy(&h, p, 2); return halfToFloat(h); }
      case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_UINT_8: v = *p; break;
      case QNN_DATATYPE_SFIXED_POINT_8: case QNN_DATATYPE_INT_8: v = static_cast<int8_t>(*p); break;
      case QNN_DATATYPE_UFIXED_POINT_16: case QNN_DATATYPE_UINT_16: { uint16_t u; std::memcpy(&u, p, 2); v = u; break; }
      case QNN_DATATYPE_SFIXED_POINT_16: case QNN_DATATYPE_INT_16: { int16_t s; std::memcpy(&s, p, 2); v = s; break; }
      case QNN_DATATYPE_UFIXED_POINT_32: case QNN_DATATYPE_UINT_32: { uint32_t u; std::memcpy(&u, p, 4); v = u; break; }
      case QNN_DATATYPE_SFIXED_POINT_32: case QNN_DATATYPE_INT_32: { int32_t s; std::memcpy(&s, p, 4); v = s; break; }
      case QNN_DATATYPE_INT_64: { int64_t s; std::memcpy(&s, p, 8); v = static_cast<double>(s); break; }
      default: fail("tensor '" + name + "': datatype " + std::to_string(dtype) + " is not handled");
    }
    return quantized ? static_cast<float>((v + offset) * scale) : static_cast<float>(v);
  }
  void set(size_t i, double v) {
    uint8_t* p = mem.data + i * elemBytes;
    if (dtype == QNN_DATATYPE_FLOAT_32) {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    if (dtype == QNN_DATATYPE_FLOAT_16) {
      const uint16_t h = floatToHalf(static_cast<float>(v));
      std::memcpy(p, &h, 2);
      return;
    }
    if (quantized) v = std::nearbyint(v / scale) - offset;
    auto store = [&](auto lo, auto hi) {
      using T = decltype(lo);
      const T q = static_cast<T>(std::min<double>(std::max<double>(v, static_cast<double>(lo)), static_cast<double>(hi)));
      std::memcpy(p, &q, sizeof q);
    };
    switch (dtype) {
      case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_UINT_8: store(uint8_t{0}, uint8_t{255}); break;
      case QNN_DATATYPE_SFIXED_POINT_8: case QNN_DATATYPE_INT_8: store(int8_t{-128}, int8_t{127}); break;
      case QNN_DATATYPE_UFIXED_POINT_16: case QNN_DATATYPE_UINT_16: store(uint16_t{0}, uint16_t{65535}); break;
      case QNN_DATATYPE_SFIXED_POINT_16: case QNN_DATATYPE_INT_16: store(int16_t{-32768}, int16_t{32767}); break;
      case QNN_DATATYPE_UFIXED_POINT_32: case QNN_DATATYPE_UINT_32: store(uint32_t{0}, uint32_t{0xFFFFFFFFu}); break;
      case QNN_DATATYPE_SFIXED_POINT_32: case QNN_DATATYPE_INT_32: store(INT32_MIN, INT32_MAX); break;
      case QNN_DATATYPE_INT_64: store(int64_t{-(int64_t{1} << 53)}, int64_t{int64_t{1} << 53}); break;
      default: fail("tensor '" + name + "': datatype " + std::to_string(dtype) + " is not handled");
    }
  }
};

// A description from the binary info (tensor version 1 or 2: 2 extends 1), copied.
IoTensor describe(const Qnn_Tensor_t& t) {
  if (t.version != QNN_TENSOR_VERSION_1 && t.version != QNN_TENSOR_VERSION_2)
    fail("binary info holds a tensor of version " + std::to_string(t.version));
  const Qnn_TensorV1_t& v = t.v1;
  IoTensor io;
  io.name = v.name ? v.name : "";
  io.dims.assign(v.dimensions, v.dimensions + v.rank);
  io.dtype = v.dataType;
  io.elemBytes = dtypeBytes(v.dataType);
  if (io.elemBytes == 0) fail("tensor '" + io.name + "': datatype " + std::to_string(v.dataType) + " is not handled");
  io.count = 1;
  for (uint32_t d : io.dims) io.count *= d;
  const Qnn_QuantizeParams_t& q = v.quantizeParams;
  if (q.encodingDefinition == QNN_DEFINITION_DEFINED) {
    if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_SCALE_OFFSET) {
      io.quantized = true;
      io.scale = q.scaleOffsetEncoding.scale;
      io.offset = q.scaleOffsetEncoding.offset;
    } else if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET) {
      io.quantized = true;
      io.scale = q.bwScaleOffsetEncoding.scale;
      io.offset = q.bwScaleOffsetEncoding.offset;
    } else {
      fail("tensor '" + io.name + "': only per-tensor scale/offset encodings are handled for graph inputs/outputs");
    }
  }
  io.tensor.version = QNN_TENSOR_VERSION_1;
  io.tensor.v1 = v;  // name and dims are re-pointed at our copies once the object has its final address
  io.tensor.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  io.tensor.v1.memHandle = nullptr;
  return io;
}

struct Graph {
  std::string name;
  Qnn_GraphHandle_t handle = nullptr;
  std::vector<IoTensor> inputs, outputs;
  std::vector<Qnn_Tensor_t> inArray, outArray;
  uint64_t spillFill = 0;  // HTP graph blob info v1, when the binary info has it
  bool hasSpillFill = false;

  IoTensor& in(const std::string& n) { return find(inputs, n); }
  IoTensor& out(const std::string& n) { return find(outputs, n); }
  static IoTensor& find(std::vector<IoTensor>& v, const std::string& n) {
    for (auto& t : v)
      if (t.name == n) return t;
    fail("graph has no tensor '" + n + "'");
  }
};

Graph describeGraph(const char* name, const Qnn_Tensor_t* in, uint32_t nIn, const Qnn_Tensor_t* out, uint32_t nOut) {
  Graph g;
  g.name = name ? name : "";
  for (uint32_t k = 0; k < nIn; ++k) g.inputs.push_back(describe(in[k]));
  for (uint32_t k = 0; k < nOut; ++k) g.outputs.push_back(describe(out[k]));
  return g;
}

// ---- the libraries -------------------------------------------------------------------------------------
void* openLibrary(const std::string& path) {
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) fail("cannot load " + path + ": " + dlerror());
  return lib;
}

const QNN_INTERFACE_VER_TYPE* backendInterface(void* lib, const std::string& path, uint32_t* backendId) {
  using Fn = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
  auto get = reinterpret_cast<Fn>(dlsym(lib, "QnnInterface_getProviders"));
  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (!get || get(&providers, &n) != QNN_SUCCESS || n == 0) fail(path + " is not a QNN backend");
  for (uint32_t i = 0; i < n; ++i) {
    const auto& v = providers[i]->apiVersion.coreApiVersion;
    if (v.major == QNN_API_VERSION_MAJOR && v.minor >= QNN_API_VERSION_MINOR) {
      *backendId = providers[i]->backendId;
      return &providers[i]->QNN_INTERFACE_VER_NAME;
    }
  }
  fail(path + " offers no provider of core API " + std::to_string(QNN_API_VERSION_MAJOR) + "." +
       std::to_string(QNN_API_VERSION_MINOR) + " or newer");
}

const QNN_SYSTEM_INTERFACE_VER_TYPE* systemInterface(void* lib, const std::string& path) {
  using Fn = Qnn_ErrorHandle_t (*)(const QnnSystemInterface_t***, uint32_t*);
  auto get = reinterpret_cast<Fn>(dlsym(lib, "QnnSystemInterface_getProviders"));
  const QnnSystemInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (!get || get(&providers, &n) != QNN_SUCCESS || n == 0) fail(path + " is not a QNN system library");
  for (uint32_t i = 0; i < n; ++i) {
    const auto& v = providers[i]->systemApiVersion;
    if (v.major == QNN_SYSTEM_API_VERSION_MAJOR && v.minor >= QNN_SYSTEM_API_VERSION_MINOR)
      return &providers[i]->QNN_SYSTEM_INTERFACE_VER_NAME;
  }
  fail(path + " offers no system provider of this API version");
}

// A context binary mapped from its file (copy on write, never written): the backend takes its weights
// region in place through the binary data callback (file-mapped weights), so they are not copied.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot read " + path);
    const off_t size = lseek(fd, 0, SEEK_END);
    if (size <= 0) {
      close(fd);
      fail(path + " is empty or not a file");
    }
    void* p = mmap(nullptr, static_cast<size_t>(size), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) fail("cannot map " + path);
    data_ = static_cast<uint8_t*>(p);
    size_ = static_cast<size_t>(size);
  }
  ~MappedFile() { munmap(data_, size_); }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // Qnn_ContextBinaryRawDataProviderFn_t: the requested bytes are the mapping's.
  static Qnn_ErrorHandle_t provide(Qnn_ContextBinaryDataRequest_t req, Qnn_ContextBinaryRawDataResponse_t* out,
                                   void* self) {
    const auto* f = static_cast<const MappedFile*>(self);
    if (!out || req.offset > f->size_ || req.size > f->size_ - req.offset) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    out->memPtr = f->data_ + req.offset;
    out->dataStartOffset = 0;
    out->alignedSize = req.size;
    return QNN_SUCCESS;
  }
  static Qnn_ErrorHandle_t release(Qnn_ContextBinaryRawDataMem_t, void*) { return QNN_SUCCESS; }  // stays mapped

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// The graphs of a binary as libQnnSystem.so describes them (any binary / graph info version).
std::vector<Graph> readGraphs(const QNN_SYSTEM_INTERFACE_VER_TYPE* sys, const MappedFile& binary) {
  QnnSystemContext_Handle_t h = nullptr;
  check(sys->systemContextCreate(&h), "QnnSystemContext_create");
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t infoSize = 0;
  Qnn_ErrorHandle_t err = sys->systemContextGetBinaryInfo(h, binary.data(), binary.size(), &info, &infoSize);
  if (err != QNN_SUCCESS || !info) {
    sys->systemContextFree(h);
    fail("QnnSystemContext_getBinaryInfo failed with error " + std::to_string(err));
  }
  uint32_t n = 0;
  const QnnSystemContext_GraphInfo_t* gi = nullptr;
  switch (info->version) {
    case QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_1: n = info->contextBinaryInfoV1.numGraphs; gi = info->contextBinaryInfoV1.graphs; break;
    case QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2: n = info->contextBinaryInfoV2.numGraphs; gi = info->contextBinaryInfoV2.graphs; break;
    case QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3: n = info->contextBinaryInfoV3.numGraphs; gi = info->contextBinaryInfoV3.graphs; break;
    default:
      sys->systemContextFree(h);
      fail("unknown binary info version " + std::to_string(info->version));
  }
  std::vector<Graph> graphs;
  try {
    for (uint32_t i = 0; i < n; ++i) {
      // Versions 2 and 3 start with version 1's fields.
      const QnnSystemContext_GraphInfoV1_t& g = gi[i].graphInfoV1;
      Graph out = describeGraph(g.graphName, g.graphInputs, g.numGraphInputs, g.graphOutputs, g.numGraphOutputs);
      if (gi[i].version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3 && gi[i].graphInfoV3.graphBlobInfo) {
        const auto* blob = static_cast<const QnnHtpSystemContext_GraphBlobInfo_t*>(gi[i].graphInfoV3.graphBlobInfo);
        if (blob->version == QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_VERSION_V1) {
          out.hasSpillFill = true;
          out.spillFill = blob->contextBinaryGraphBlobInfoV1.spillFillBufferSize;
        }
      }
      graphs.push_back(std::move(out));
    }
  } catch (...) {
    sys->systemContextFree(h);
    throw;
  }
  sys->systemContextFree(h);
  return graphs;
}

// The model-library interface of qnn-model-lib-generator's libraries (the converter's C++ model
// compiled): QnnModel_composeGraphs builds its graphs in a context, QnnModel_freeGraphsInfo frees the
// description it returns.
struct ModelGraphInfo {
  Qnn_GraphHandle_t graph;
  char* graphName;
  Qnn_Tensor_t* inputTensors;
  uint32_t numInputTensors;
  Qnn_Tensor_t* outputTensors;
  uint32_t numOutputTensors;
};
struct ModelGraphConfigInfo {
  char* graphName;
  const QnnGraph_Config_t** graphConfigs;
};
using ComposeFn = int (*)(Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE, Qnn_ContextHandle_t,
                          const ModelGraphConfigInfo**, const uint32_t, ModelGraphInfo***, uint32_t*, bool,
                          QnnLog_Callback_t, QnnLog_Level_t);
using FreeInfoFn = int (*)(ModelGraphInfo***, uint32_t);

// Composes and finalizes the graphs of model libraries in `context`; HTP graphs in fp16 when asked.
std::vector<Graph> composeModels(const std::vector<std::string>& paths, const QNN_INTERFACE_VER_TYPE* qnn,
                                 Qnn_BackendHandle_t backend, Qnn_ContextHandle_t context, bool htpFp16,
                                 const std::vector<std::string>& graphNames, std::vector<void*>* libs) {
  QnnHtpGraph_CustomConfig_t precision = QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT;
  precision.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
  precision.precision = QNN_PRECISION_FLOAT16;
  QnnGraph_Config_t custom = QNN_GRAPH_CONFIG_INIT;
  custom.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  custom.customConfig = &precision;
  const QnnGraph_Config_t* configs[] = {&custom, nullptr};
  std::vector<std::string> names = graphNames;
  std::vector<ModelGraphConfigInfo> infos;
  for (std::string& n : names) infos.push_back({&n[0], configs});
  std::vector<const ModelGraphConfigInfo*> infoList;
  for (const auto& i : infos) infoList.push_back(&i);
  std::vector<Graph> graphs;
  for (const std::string& path : paths) {
    void* lib = openLibrary(path);
    libs->push_back(lib);
    auto compose = reinterpret_cast<ComposeFn>(dlsym(lib, "QnnModel_composeGraphs"));
    auto freeInfo = reinterpret_cast<FreeInfoFn>(dlsym(lib, "QnnModel_freeGraphsInfo"));
    if (!compose || !freeInfo) fail(path + " is not a model library (no QnnModel_composeGraphs)");
    ModelGraphInfo** info = nullptr;
    uint32_t n = 0;
    const int err = compose(backend, *qnn, context, htpFp16 ? infoList.data() : nullptr,
                            htpFp16 ? static_cast<uint32_t>(infoList.size()) : 0, &info, &n, false, logCallback,
                            g_logLevel);
    if (err != 0) fail("QnnModel_composeGraphs of " + path + " failed with model error " + std::to_string(err));
    try {
      for (uint32_t i = 0; i < n; ++i) {
        const ModelGraphInfo& g = *info[i];
        check(qnn->graphFinalize(g.graph, nullptr, nullptr), "QnnGraph_finalize");
        graphs.push_back(describeGraph(g.graphName, g.inputTensors, g.numInputTensors, g.outputTensors, g.numOutputTensors));
        graphs.back().handle = g.graph;
      }
    } catch (...) {
      freeInfo(&info, n);
      throw;
    }
    freeInfo(&info, n);  // the descriptions were copied
  }
  return graphs;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read " + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string dirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// ---- options -------------------------------------------------------------------------------------------
struct Options {
  std::string backend, system, context, tokenizer, prompt, prefillName = "prefill", decodeName = "decode";
  std::vector<std::string> models;  // model libraries instead of a context binary
  bool fp16 = false;                // with models on the HTP: graphs in fp16
  std::vector<int32_t> promptIds;
  int32_t maxTokens = 64;
  llm::SamplingOptions sampling;
  bool printIds = false;
  bool tokenizeOnly = false;
  int32_t warmup = 0;  // untimed generations before the timed one (benchmarks)
  double ropeTheta = 10000.0;  // Genie-layout graphs: the rotary base
  std::string adapter;      // applied before the first prompt
  std::string promptsFile;  // one prompt a line, "@adapter NAME" lines switch
  bool interactive = false; // the same from stdin
};

void usage() {
  std::printf(
      "usage: qnn-llm-run --backend LIB (--context BIN | --model LIB,LIB [--fp16]) --tokenizer JSON\n"
      "                   (--prompt TEXT | --prompt_file F | --prompt_ids I,J,...)\n"
      "                   [--max_tokens N] [--temperature T] [--top_k K] [--top_p P] [--seed S]\n"
      "                   [--system libQnnSystem.so] [--prefill_graph NAME] [--decode_graph NAME] [--ids]\n"
      "                   [--log_level error|warn|info|verbose] [--warmup W] [--rope_theta THETA]\n"
      "                   [--adapter NAME|SECTION.bin] [--prompts FILE | --interactive]\n"
      "Generates text with the prefill (AR-N) and decode (AR-1) graphs of a context binary, or of model\n"
      "libraries composed on the backend (--fp16: HTP graphs in fp16) (examples/llm).\n"
      "Temperature 0 (the default) is greedy; --ids also prints the prompt's and the generated token ids;\n"
      "--tokenize (with --tokenizer and a prompt only) prints the prompt's token ids and stops;\n"
      "--warmup W runs W untimed generations of the same prompt first (the sampler restarts from its seed).\n"
      "Graphs in the Genie runtime's layout (export_genie.py) get their rotary cos/sin computed with\n"
      "--rope_theta (default 10000). Graphs with com.microsoft.GroupQueryAttention (export_gqa.py; input\n"
      "seqlens_k) get seqlens_k / total_sequence_length and one ctx-slot cache.\n"
      "--adapter applies a LoRA binary section before the prompt: NAME is <binary>_NAME.bin beside the context\n"
      "binary (base: <binary>_default_adapter.bin, the base values), else a path. --prompts FILE (or\n"
      "--interactive, from stdin) generates for each line; a line '@adapter NAME' switches the adapter\n"
      "(QnnContext_applyBinarySection; the context stays loaded).\n");
}

Options parseOptions(int argc, char** argv) {
  Options o;
  auto need = [&](int& i) -> std::string {
    if (i + 1 >= argc) fail(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  auto number = [](const std::string& flag, const std::string& v) {
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !std::isfinite(d)) fail(flag + " takes a number, got '" + v + "'");
    return d;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else if (a == "--backend") {
      o.backend = need(i);
    } else if (a == "--system") {
      o.system = need(i);
    } else if (a == "--context") {
      o.context = need(i);
    } else if (a == "--model") {
      std::stringstream ss(need(i));
      std::string path;
      while (std::getline(ss, path, ',')) o.models.push_back(path);
    } else if (a == "--fp16") {
      o.fp16 = true;
    } else if (a == "--tokenizer") {
      o.tokenizer = need(i);
    } else if (a == "--prompt") {
      o.prompt = need(i);
    } else if (a == "--prompt_file") {
      std::vector<uint8_t> text = readFile(need(i));
      o.prompt.assign(text.begin(), text.end());
    } else if (a == "--tokenize") {
      o.tokenizeOnly = true;
    } else if (a == "--prompt_ids") {
      std::stringstream ss(need(i));
      std::string tok;
      while (std::getline(ss, tok, ',')) o.promptIds.push_back(static_cast<int32_t>(number(a, tok)));
    } else if (a == "--max_tokens") {
      o.maxTokens = static_cast<int32_t>(number(a, need(i)));
    } else if (a == "--temperature") {
      o.sampling.temperature = static_cast<float>(number(a, need(i)));
    } else if (a == "--top_k") {
      o.sampling.topK = static_cast<int32_t>(number(a, need(i)));
    } else if (a == "--top_p") {
      o.sampling.topP = static_cast<float>(number(a, need(i)));
    } else if (a == "--seed") {
      o.sampling.seed = static_cast<uint64_t>(number(a, need(i)));
    } else if (a == "--prefill_graph") {
      o.prefillName = need(i);
    } else if (a == "--decode_graph") {
      o.decodeName = need(i);
    } else if (a == "--warmup") {
      o.warmup = static_cast<int32_t>(number(a, need(i)));
    } else if (a == "--ids") {
      o.printIds = true;
    } else if (a == "--rope_theta") {
      o.ropeTheta = number(a, need(i));
      if (!(o.ropeTheta > 0)) fail("--rope_theta must be positive");
    } else if (a == "--adapter") {
      o.adapter = need(i);
    } else if (a == "--prompts") {
      o.promptsFile = need(i);
    } else if (a == "--interactive") {
      o.interactive = true;
    } else if (a == "--log_level") {
      const std::string v = need(i);
      const std::map<std::string, QnnLog_Level_t> levels = {{"error", QNN_LOG_LEVEL_ERROR}, {"warn", QNN_LOG_LEVEL_WARN},
                                                            {"info", QNN_LOG_LEVEL_INFO}, {"verbose", QNN_LOG_LEVEL_VERBOSE}};
      if (!levels.count(v)) fail("--log_level takes error, warn, info or verbose");
      g_logLevel = levels.at(v);
    } else {
      fail("unknown option " + a + " (--help lists them)");
    }
  }
  if (o.tokenizer.empty()) fail("--tokenizer is required");
  if (!o.tokenizeOnly && (o.backend.empty() || o.context.empty() == o.models.empty()))
    fail("--backend and one of --context or --model are required");
  const int sources = !(o.prompt.empty() && o.promptIds.empty()) + !o.promptsFile.empty() + o.interactive;
  if (sources != 1) fail("give one of --prompt, --prompt_file, --prompt_ids, --prompts or --interactive");
  if (o.tokenizeOnly && (!o.promptsFile.empty() || o.interactive)) fail("--tokenize takes --prompt or --prompt_file");
  if (o.maxTokens < 1) fail("--max_tokens must be at least 1");
  if (o.warmup < 0) fail("--warmup must be at least 0");
  if (o.sampling.temperature < 0 || o.sampling.topK < 0 || !(o.sampling.topP > 0 && o.sampling.topP <= 1))
    fail("--temperature >= 0, --top_k >= 0 and 0 < --top_p <= 1");
  if (o.system.empty()) o.system = dirOf(o.backend) + "libQnnSystem.so";
  return o;
}

// ---- the generator -------------------------------------------------------------------------------------
class Runner {
 public:
  Runner(const QNN_INTERFACE_VER_TYPE* qnn, Qnn_ContextHandle_t ctx, Graph& prefill, Graph& decode, SharedMemory& shm,
         double ropeTheta)
      : qnn_(qnn), ctx_(ctx), pre_(prefill), dec_(decode), shm_(shm) {
    ar_ = shape(pre_.in("input_ids"), 1);
    genie_ = hasInput(pre_, "past_key_0_in");
    gqa_ = hasInput(pre_, "seqlens_k");
    // the context: the mask's columns, or (GroupQueryAttention) the cache's slots
    auto context = [&](Graph& g) { return gqa_ ? shape(g.in("past_key_0"), 2) : shape(g.in("attention_mask"), 3); };
    ctx_len_ = context(pre_);
    if (shape(dec_.in("input_ids"), 1) != 1) fail("the decode graph must take one token (AR-1)");
    if (context(dec_) != ctx_len_) fail("the prefill and decode graphs' contexts differ");
    while (hasInput(pre_, cacheIn("key", layers_))) ++layers_;
    if (layers_ == 0) fail("the prefill graph has no past_key_0 (or past_key_0_in) input");
    const IoTensor& pv = pre_.in(cacheIn("value", 0));
    kvHeads_ = shape(pv, 1);
    headDim_ = shape(pv, 3);
    vocab_ = shape(pre_.out("logits"), 2);
    if (genie_) {  // the rotary tables, [position][j] for j < head_dim/2
      const uint32_t half = shape(pre_.in("position_ids_cos"), 3);
      cos_.resize(static_cast<size_t>(ctx_len_) * half);
      sin_.resize(cos_.size());
      for (uint32_t p = 0; p < ctx_len_; ++p)
        for (uint32_t j = 0; j < half; ++j) {
          const double angle = p * std::pow(ropeTheta, -static_cast<double>(j) / half);
          cos_[static_cast<size_t>(p) * half + j] = std::cos(angle);
          sin_[static_cast<size_t>(p) * half + j] = std::sin(angle);
        }
    }
    for (Graph* g : {&pre_, &dec_}) attach(*g);
  }
  ~Runner() {
    for (Graph* g : {&pre_, &dec_})
      for (auto* list : {&g->inputs, &g->outputs})
        for (IoTensor& t : *list) {
          if (t.handle) qnn_->memDeRegister(&t.handle, 1);
          shm_.release(t.mem);
        }
  }
  uint32_t contextLength() const { return ctx_len_; }
  uint32_t arLength() const { return ar_; }
  uint32_t vocab() const { return vocab_; }
  uint32_t layers() const { return layers_; }
  Graph& prefill() { return pre_; }
  Graph& decode() { return dec_; }

  // A fresh sequence: the cache (the decode graph's past inputs) back to the zero bytes it started as.
  void clearCache() {
    for (IoTensor& t : dec_.inputs)
      if (t.name.rfind("past_", 0) == 0) std::memset(t.mem.data, 0, t.bytes());
  }

  // Feeds ids (<= the graph's N) at positions start.. through the graph; stores their K/V in the
  // cache; returns the logits of the last one.
  std::vector<float> step(Graph& g, const std::vector<int32_t>& ids, uint32_t start) {
    const uint32_t n = shape(g.in("input_ids"), 1);
    const uint32_t past = ctx_len_ - n;
    const auto m = static_cast<uint32_t>(ids.size());
    if (m == 0 || m > n) fail("internal: bad chunk");
    if (start > past) fail("the context (" + std::to_string(ctx_len_) + " tokens) is full");
    IoTensor& inIds = g.in("input_ids");
    for (uint32_t i = 0; i < n; ++i) inIds.set(i, i < m ? ids[i] : 0);
    if (gqa_) {  // the sequence's length after the n slots (a padded tail included), and that minus 1
      g.in("seqlens_k").set(0, static_cast<double>(start) + n - 1);
      g.in("total_sequence_length").set(0, static_cast<double>(start) + n);
    } else if (genie_) {
      IoTensor& cos = g.in("position_ids_cos");
      IoTensor& sin = g.in("position_ids_sin");
      const uint32_t half = shape(cos, 3);
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < half; ++j) {
          const size_t at = static_cast<size_t>(i < m ? start + i : 0) * half + j;
          cos.set(static_cast<size_t>(i) * half + j, cos_[at]);
          sin.set(static_cast<size_t>(i) * half + j, sin_[at]);
        }
    } else {
      IoTensor& pos = g.in("position_ids");
      for (uint32_t i = 0; i < n; ++i) pos.set(i, i < m ? start + i : 0);
    }
    if (!gqa_) {
      IoTensor& mask = g.in("attention_mask");
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t c = 0; c < ctx_len_; ++c) {
          // past slots in use; the new tokens causally; a padding row sees itself only
          const bool open = c < start || (c >= past && (c - past <= i ? (i < m || c - past == i) : false));
          mask.set(static_cast<size_t>(i) * ctx_len_ + c, open ? 0.0 : kMaskNeg);
        }
    }
    if (&g != &dec_ && start > 0)  // another graph's past: the cache's slots in use, copied in
      for (uint32_t l = 0; l < layers_; ++l)
        for (const char* kind : {"key", "value"}) {
          const std::string name = cacheIn(kind, l);
          copySlots(dec_.in(name), 0, g.in(name), 0, start);
        }
    Qnn_ErrorHandle_t err = qnn_->graphExecute(g.handle, g.inArray.data(), static_cast<uint32_t>(g.inArray.size()),
                                               g.outArray.data(), static_cast<uint32_t>(g.outArray.size()), nullptr,
                                               nullptr);
    if (err != QNN_SUCCESS) fail("QnnGraph_execute of graph '" + g.name + "' failed with error " + std::to_string(err));
    // The new entries go into the cache (the decode graph's past inputs) at their positions, in place
    // (GroupQueryAttention's present holds them at those slots already, new_key_L at 0..).
    const uint32_t cacheSlots = ctx_len_ - 1;
    const uint32_t keep = start >= cacheSlots ? 0 : std::min(m, cacheSlots - start);
    for (uint32_t l = 0; l < layers_ && keep; ++l)
      for (const char* kind : {"key", "value"}) copySlots(g.out(cacheOut(kind, l)), gqa_ ? start : 0, dec_.in(cacheIn(kind, l)), start, keep);
    IoTensor& logits = g.out("logits");
    std::vector<float> row(vocab_);
    const size_t base = static_cast<size_t>(m - 1) * vocab_;
    for (uint32_t v = 0; v < vocab_; ++v) row[v] = logits.get(base + v);
    return row;
  }

 private:
  static uint32_t shape(const IoTensor& t, size_t axis) {
    if (axis >= t.dims.size()) fail("tensor '" + t.name + "' has rank " + std::to_string(t.dims.size()));
    return t.dims[axis];
  }
  // The cache tensors of layer l: train_llm.py's past_key_L -> new_key_L, Genie's past_key_L_in -> past_key_L_out,
  // export_gqa.py's past_key_L -> present_key_L.
  std::string cacheIn(const char* kind, uint32_t l) const {
    return std::string("past_") + kind + "_" + std::to_string(l) + (genie_ ? "_in" : "");
  }
  std::string cacheOut(const char* kind, uint32_t l) const {
    return std::string(genie_ ? "past_" : gqa_ ? "present_" : "new_") + kind + "_" + std::to_string(l) + (genie_ ? "_out" : "");
  }
  static bool hasInput(const Graph& g, const std::string& n) {
    for (const auto& t : g.inputs)
      if (t.name == n) return true;
    return false;
  }

  // Every input and output in its own registered buffer; the tensors execute gets name them.
  void attach(Graph& g) {
    for (auto* list : {&g.inputs, &g.outputs})
      for (IoTensor& t : *list) {
        t.mem = shm_.alloc(t.bytes());
        Qnn_MemDescriptor_t d = QNN_MEM_DESCRIPTOR_INIT;
        d.memShape.numDim = static_cast<uint32_t>(t.dims.size());
        d.memShape.dimSize = t.dims.data();
        d.dataType = t.dtype;
        d.memType = QNN_MEM_TYPE_ION;
        d.ionInfo.fd = t.mem.fd;
        check(qnn_->memRegister(ctx_, &d, 1, &t.handle), "QnnMem_register");
        t.tensor.v1.name = t.name.c_str();
        t.tensor.v1.dimensions = t.dims.data();
        t.tensor.v1.memHandle = t.handle;
      }
    for (IoTensor& t : g.inputs) g.inArray.push_back(t.tensor);
    for (IoTensor& t : g.outputs) g.outArray.push_back(t.tensor);
  }

  // count slots of every head: src[h][from + s] -> dst[h][to + s] ([1, heads, slots, head_dim] tensors), or
  // for Genie's transposed keys ([1, heads, head_dim, slots]) src[h][d][from + s] -> dst[h][d][to + s].
  void copySlots(const IoTensor& src, uint32_t from, IoTensor& dst, uint32_t to, uint32_t count) {
    const bool transposed = genie_ && src.name.find("_key_") != std::string::npos;
    const size_t slotAxis = transposed ? 3 : 2, rowAxis = transposed ? 2 : 3;
    const uint32_t srcSlots = shape(src, slotAxis), dstSlots = shape(dst, slotAxis);
    if (from + count > srcSlots || to + count > dstSlots || shape(src, rowAxis) != headDim_ ||
        shape(dst, rowAxis) != headDim_ || shape(src, 1) != kvHeads_ || shape(dst, 1) != kvHeads_)
      fail("internal: cache copy out of range (" + src.name + " -> " + dst.name + ")");
    const bool raw = src.sameEncoding(dst);
    // runs of n contiguous elements: one per head (slots x head_dim), or one per head and row (slots)
    const uint32_t runs = transposed ? kvHeads_ * headDim_ : kvHeads_;
    const size_t width = transposed ? 1 : headDim_;
    for (uint32_t h = 0; h < runs; ++h) {
      const size_t s0 = (static_cast<size_t>(h) * srcSlots + from) * width;
      const size_t d0 = (static_cast<size_t>(h) * dstSlots + to) * width;
      const size_t n = static_cast<size_t>(count) * width;
      if (raw) {
        std::memcpy(dst.mem.data + d0 * dst.elemBytes, src.mem.data + s0 * src.elemBytes, n * src.elemBytes);
      } else {
        for (size_t i = 0; i < n; ++i) dst.set(d0 + i, src.get(s0 + i));
      }
    }
  }

  const QNN_INTERFACE_VER_TYPE* qnn_;
  Qnn_ContextHandle_t ctx_;
  Graph& pre_;
  Graph& dec_;
  SharedMemory& shm_;
  uint32_t ar_ = 0, ctx_len_ = 0, layers_ = 0, kvHeads_ = 0, headDim_ = 0, vocab_ = 0;
  bool genie_ = false;              // Genie's tensor names and cache layout
  bool gqa_ = false;                // export_gqa.py's: GroupQueryAttention, one ctx-slot cache in and out
  std::vector<double> cos_, sin_;   // Genie layout: the rotary tables
};

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string joinIds(const std::vector<int32_t>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? " " : "") + std::to_string(ids[i]);
  return s;
}

// One prompt: through the prefill graph in chunks, then the decode loop; prints the text, the ids (--ids)
// and the speeds.
// One generation from the prompt: prefill in chunks, then the decode loop (show: print the pieces).
struct Timed {
  std::vector<int32_t> ids;
  double prefillMs, ttftMs, decodeMs;
};

Timed generateOnce(Runner& r, const llm::BpeTokenizer& tok, const std::vector<int32_t>& prompt, const Options& o,
                   bool show) {
  auto printPiece = [&](int32_t id) {
    std::printf("%s", tok.piece(id).c_str());
    std::fflush(stdout);
  };
  r.clearCache();
  llm::Sampler sampler(o.sampling);
  Timed t;
  const auto tStart = std::chrono::steady_clock::now();
  std::vector<float> logits;
  uint32_t pos = 0;
  while (pos < prompt.size()) {  // chunks of the prefill graph's length
    const size_t m = std::min<size_t>(r.arLength(), prompt.size() - pos);
    // a chunk must fit the prefill graph's past; what no longer fits goes through the decode graph
    const bool fits = pos <= r.contextLength() - r.arLength();
    std::vector<int32_t> chunk(prompt.begin() + pos, prompt.begin() + pos + (fits ? m : 1));
    logits = r.step(fits ? r.prefill() : r.decode(), chunk, pos);
    pos += static_cast<uint32_t>(chunk.size());
  }
  t.prefillMs = msSince(tStart);
  t.ids.push_back(sampler.next(logits));
  t.ttftMs = msSince(tStart);
  if (show) printPiece(t.ids.back());
  const auto tDecode = std::chrono::steady_clock::now();
  while (static_cast<int32_t>(t.ids.size()) < o.maxTokens && pos < r.contextLength()) {
    logits = r.step(r.decode(), {t.ids.back()}, pos++);
    t.ids.push_back(sampler.next(logits));
    if (show) printPiece(t.ids.back());
  }
  t.decodeMs = msSince(tDecode);
  return t;
}

// --warmup untimed generations, then the timed one printed with its rates.
void generate(Runner& r, const llm::BpeTokenizer& tok, const std::vector<int32_t>& prompt, const Options& o) {
  if (prompt.size() >= r.contextLength()) fail("the prompt does not fit the context");
  for (int32_t id : prompt)
    if (id < 0 || id >= tok.vocabSize()) fail("prompt id " + std::to_string(id) + " is outside the vocabulary");
  std::printf("%s", tok.decode(prompt).c_str());
  std::fflush(stdout);
  for (int32_t w = 0; w < o.warmup; ++w) generateOnce(r, tok, prompt, o, false);
  const Timed t = generateOnce(r, tok, prompt, o, true);
  const std::vector<int32_t>& generated = t.ids;
  const size_t decodeSteps = generated.size() - 1;
  std::printf("\n");
  if (o.printIds) {
    std::printf("prompt ids: %s\n", joinIds(prompt).c_str());
    std::printf("ids: %s\n", joinIds(generated).c_str());
  }
  std::printf("# prompt %zu tokens: prefill %.1f ms (%.1f tokens/s), time to first token %.1f ms\n", prompt.size(),
              t.prefillMs, prompt.size() * 1000.0 / t.prefillMs, t.ttftMs);
  if (decodeSteps)
    std::printf("# decode %zu tokens: %.1f ms (%.1f tokens/s)\n", decodeSteps, t.decodeMs,
                decodeSteps * 1000.0 / t.decodeMs);
  if (static_cast<int32_t>(generated.size()) < o.maxTokens)
    std::printf("# stopped: the context (%u tokens) is full\n", r.contextLength());
  std::fflush(stdout);
}

// LoRA binary sections applied to the loaded context's graphs (QnnContext_applyBinarySection, graph by
// graph, as ONNX Runtime applies them); each section file is read once.
class AdapterSwitch {
 public:
  AdapterSwitch(const QNN_INTERFACE_VER_TYPE* qnn, Qnn_ContextHandle_t ctx, std::vector<Graph*> graphs,
                std::string binary)
      : qnn_(qnn), ctx_(ctx), graphs_(std::move(graphs)), binary_(std::move(binary)) {}

  // NAME: <binary>_NAME.bin beside the context binary ("base": <binary>_default_adapter.bin); a name with
  // a '/' or ending in .bin is the section file's path.
  std::string path(const std::string& name) const {
    const bool isPath = name.find('/') != std::string::npos ||
                        (name.size() > 4 && name.compare(name.size() - 4, 4, ".bin") == 0);
    if (isPath) return name;
    if (binary_.empty()) fail("adapter '" + name + "': with --model give the section file's path");
    std::string stem = binary_;
    if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".bin") == 0) stem.resize(stem.size() - 4);
    return stem + "_" + (name == "base" ? std::string("default_adapter") : name) + ".bin";
  }

  void apply(const std::string& name) {
    if (!qnn_->contextApplyBinarySection) fail("the backend has no QnnContext_applyBinarySection");
    const std::string file = path(name);
    const auto t0 = std::chrono::steady_clock::now();
    auto it = sections_.find(file);
    if (it == sections_.end()) it = sections_.emplace(file, readFile(file)).first;
    QnnContext_Buffer_t buf{};
    buf.version = QNN_CONTEXT_BUFFER_VERSION_1;
    buf.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    buf.v1.binaryBuf.data = it->second.data();
    buf.v1.binaryBuf.dataSize = it->second.size();
    for (Graph* g : graphs_) {
      const Qnn_ErrorHandle_t err =
          qnn_->contextApplyBinarySection(ctx_, g->handle, QNN_CONTEXT_SECTION_UPDATABLE, &buf, nullptr, nullptr);
      if (err != QNN_SUCCESS)
        fail("QnnContext_applyBinarySection of " + file + " to graph '" + g->name + "' failed with error " +
             std::to_string(err));
    }
    std::printf("# adapter %s: %s (%zu bytes) applied in %.2f ms\n", name.c_str(), file.c_str(), it->second.size(),
                msSince(t0));
    std::fflush(stdout);
  }

 private:
  const QNN_INTERFACE_VER_TYPE* qnn_;
  Qnn_ContextHandle_t ctx_;
  std::vector<Graph*> graphs_;
  std::string binary_;
  std::map<std::string, std::vector<uint8_t>> sections_;
};

int run(const Options& o) {
  const llm::BpeTokenizer tok = llm::BpeTokenizer::load(o.tokenizer);
  std::vector<int32_t> prompt = o.promptIds.empty() ? tok.encode(o.prompt) : o.promptIds;
  for (int32_t id : prompt)
    if (id < 0 || id >= tok.vocabSize()) fail("prompt id " + std::to_string(id) + " is outside the vocabulary");
  if (o.tokenizeOnly) {
    std::printf("%s\n", joinIds(prompt).c_str());
    return 0;
  }
  const bool single = o.promptsFile.empty() && !o.interactive;
  if (single && prompt.empty()) fail("the prompt encodes to no tokens");

  std::unique_ptr<MappedFile> binary;
  std::vector<Graph> graphs;
  if (!o.context.empty()) {
    binary = std::make_unique<MappedFile>(o.context);
    void* sysLib = openLibrary(o.system);
    graphs = readGraphs(systemInterface(sysLib, o.system), *binary);
  }

  void* lib = openLibrary(o.backend);
  uint32_t backendId = 0;
  const QNN_INTERFACE_VER_TYPE* qnn = backendInterface(lib, o.backend, &backendId);
  Qnn_LogHandle_t logger = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_DeviceHandle_t device = nullptr;
  Qnn_ContextHandle_t context = nullptr;
  check(qnn->logCreate(logCallback, g_logLevel, &logger), "QnnLog_create");
  check(qnn->backendCreate(logger, nullptr, &backend), "QnnBackend_create");
  if (qnn->deviceCreate && qnn->deviceCreate(logger, nullptr, &device) != QNN_SUCCESS) device = nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<void*> modelLibs;
  std::string loadedAs = "composed and finalized";
  if (!o.context.empty()) {
    // File-mapped weights where the backend offers the callback (as ONNX Runtime loads binaries), else
    // (or if that load fails) the plain load of the mapped bytes.
    Qnn_ContextBinaryCallback_t callback{};
    callback.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
    callback.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
    callback.rawBufferCallback.v1 = {&MappedFile::provide, &MappedFile::release, binary.get()};
    loadedAs = "weights file-mapped";
    if (!qnn->contextCreateFromBinaryWithCallback ||
        qnn->contextCreateFromBinaryWithCallback(backend, device, nullptr, &callback, binary->data(), binary->size(),
                                                 &context, nullptr, nullptr) != QNN_SUCCESS) {
      context = nullptr;
      loadedAs = "from the mapped bytes";
      check(qnn->contextCreateFromBinary(backend, device, nullptr, binary->data(), binary->size(), &context, nullptr),
            "QnnContext_createFromBinary");
    }
  } else {
    check(qnn->contextCreate(backend, device, nullptr, &context), "QnnContext_create");
    if (o.fp16 && backendId != QNN_BACKEND_ID_HTP) fail("--fp16 is an HTP graph config; " + o.backend + " is not the HTP");
    graphs = composeModels(o.models, qnn, backend, context, o.fp16, {o.prefillName, o.decodeName}, &modelLibs);
  }
  Graph* pre = nullptr;
  Graph* dec = nullptr;
  for (Graph& g : graphs) {
    if (g.name == o.prefillName) pre = &g;
    if (g.name == o.decodeName) dec = &g;
  }
  if (!pre || !dec) {
    std::string names;
    for (const Graph& g : graphs) names += " '" + g.name + "'";
    fail(o.context + " needs graphs '" + o.prefillName + "' and '" + o.decodeName + "'; it holds" + names);
  }

  if (!o.context.empty())
    for (Graph* g : {pre, dec}) check(qnn->graphRetrieve(context, g->name.c_str(), &g->handle), "QnnGraph_retrieve");
  const double loadMs = msSince(t0);

  SharedMemory shm;
  int rc = 0;
  {
    Runner r(qnn, context, *pre, *dec, shm, o.ropeTheta);
    if (static_cast<uint32_t>(tok.vocabSize()) != r.vocab())
      fail("the tokenizer has " + std::to_string(tok.vocabSize()) + " tokens, the model " + std::to_string(r.vocab()));
    std::string source = o.context;
    for (size_t i = 0; o.context.empty() && i < o.models.size(); ++i) source += (i ? "," : "") + o.models[i];
    std::printf("# %s: graphs '%s' (AR-%u) and '%s' (AR-1), %u layers, context %u, vocabulary %u; loaded (%s) in "
                "%.0f ms; I/O in registered %s\n",
                source.c_str(), pre->name.c_str(), r.arLength(), dec->name.c_str(), r.layers(), r.contextLength(),
                r.vocab(), loadedAs.c_str(), loadMs, shm.kind());
    for (const Graph* g : {pre, dec})
      if (g->hasSpillFill)
        std::printf("# graph '%s': spill-fill buffer %llu bytes (binary info)\n", g->name.c_str(),
                    static_cast<unsigned long long>(g->spillFill));
    AdapterSwitch adapters(qnn, context, {pre, dec}, o.context);
    if (!o.adapter.empty()) adapters.apply(o.adapter);
    if (single) {
      generate(r, tok, prompt, o);
    } else {
      std::ifstream file;
      if (!o.promptsFile.empty()) {
        file.open(o.promptsFile);
        if (!file) fail("cannot read " + o.promptsFile);
      }
      std::istream& in = o.promptsFile.empty() ? std::cin : file;
      std::string line;
      while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line.rfind("@adapter", 0) == 0) {
          std::string name = line.substr(8);
          name.erase(0, name.find_first_not_of(" \t"));
          name.erase(name.find_last_not_of(" \t\r") + 1);
          if (name.empty()) fail("'@adapter' needs a name or a section file");
          adapters.apply(name);
          continue;
        }
        const std::vector<int32_t> ids = tok.encode(line);
        if (ids.empty()) continue;
        generate(r, tok, ids, o);
      }
    }
  }
  check(qnn->contextFree(context, nullptr), "QnnContext_free");
  if (device && qnn->deviceFree) qnn->deviceFree(device);
  check(qnn->backendFree(backend), "QnnBackend_free");
  qnn->logFree(logger);
  for (void* m : modelLibs) dlclose(m);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parseOptions(argc, argv));
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "qnn-llm-run: error: %s\n", e.what());
    return 1;
  }
}
