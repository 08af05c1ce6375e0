// The misuse table: every member of the function table called wrongly, one row a
// case. Each row states the error code the call must return; every row also
// checks that the call's outputs are untouched (out-pointers hold a sentinel
// before and after) and that exactly one error line reached the client's log;
// for the refusals on ONNX Runtime's paths, that the line says what and why.
//
// Handle rows come in five kinds per handle argument: null, forged (never
// issued), stale (issued then freed), a live handle of another kind, and a live
// handle of the same kind issued by another backend library loaded in the same
// process (libQnnHtp.so beside libQnnCpu.so). The other rows cover null
// out-pointers, unknown struct versions and options, tensors that do not
// exist, dims of 0 and dims whose product overflows, data sizes that do not
// match, duplicate names and calls in the wrong state.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>
#include <regex>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

// ---------------------------------------------------------------- the log
struct ErrorLines {
  std::mutex mu;
  std::vector<std::string> lines;
};
ErrorLines& errorLines() {
  static ErrorLines e;
  return e;
}
void captureLog(const char* fmt, QnnLog_Level_t level, uint64_t, va_list args) {
  if (level != QNN_LOG_LEVEL_ERROR) return;
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  std::lock_guard<std::mutex> lock(errorLines().mu);
  errorLines().lines.emplace_back(buf);
}

enum class Kind { kLog, kBackend, kDevice, kContext, kGraph, kProfile, kSignal, kMem };

void* const kSentinel = reinterpret_cast<void*>(0x5e5e5e5e5e5eull);
void* const kForged = reinterpret_cast<void*>(0x7f00deadbee0ull);

// ---------------------------------------------------------------- the world
// Live objects on the CPU backend, freed ones, and live ones of the HTP backend.
struct World {
  LoadedBackend cpu{cpuBackendPath()};
  LoadedBackend htp{htpBackendPath()};
  const QNN_INTERFACE_VER_TYPE& api() const { return cpu.api(); }
  const LoadedBackend::Table2_39& api39() const { return cpu.api2_39(); }

  Qnn_LogHandle_t log = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_DeviceHandle_t device = nullptr;
  Qnn_ContextHandle_t context = nullptr;
  Qnn_ContextHandle_t openContext = nullptr;  // holds `open` (so `context` stays serializable)
  Qnn_GraphHandle_t open = nullptr;      // created, not finalized: x -> (nothing yet)
  Qnn_GraphHandle_t done = nullptr;      // finalized: in [1,4] -> Relu -> out [1,4]
  Qnn_ProfileHandle_t profile = nullptr;
  Qnn_SignalHandle_t signal = nullptr;
  Qnn_MemHandle_t mem = nullptr;
  int memFd = -1;
  std::vector<uint8_t> binary;           // the context binary of `context`
  std::vector<uint8_t> htpBinary;        // a context binary of the HTP backend

  void* stale[8] = {};                   // by Kind
  void* foreign[8] = {};                 // by Kind, from libQnnHtp.so
  Qnn_ContextHandle_t htpContext = nullptr;

  TensorSpec in{"in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}};
  TensorSpec out{"out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4}};
  float inData[4] = {-1, 2, -3, 4};
  float outData[4] = {9, 9, 9, 9};

  void* live(Kind k) const {
    switch (k) {
      case Kind::kLog: return log;
      case Kind::kBackend: return backend;
      case Kind::kDevice: return device;
      case Kind::kContext: return context;
      case Kind::kGraph: return done;
      case Kind::kProfile: return profile;
      case Kind::kSignal: return signal;
      case Kind::kMem: return mem;
    }
    return nullptr;
  }
  // A live handle of another kind for each kind.
  void* otherKind(Kind k) const {
    switch (k) {
      case Kind::kLog: return backend;
      case Kind::kBackend: return context;
      case Kind::kDevice: return backend;
      case Kind::kContext: return done;
      case Kind::kGraph: return context;
      case Kind::kProfile: return signal;
      case Kind::kSignal: return profile;
      case Kind::kMem: return context;
    }
    return nullptr;
  }

  Qnn_OpConfig_t relu(const char* name = "relu", Qnn_Tensor_t* i = nullptr, Qnn_Tensor_t* o = nullptr) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", "Relu", 0, nullptr, 1, i ? i : &in.tensor, 1, o ? o : &out.tensor};
    return op;
  }
  // Execute-ready copies of in/out with client buffers.
  Qnn_Tensor_t execIn() {
    Qnn_Tensor_t t = in.tensor;
    t.v1.clientBuf = {inData, sizeof inData};
    return t;
  }
  Qnn_Tensor_t execOut() {
    Qnn_Tensor_t t = out.tensor;
    t.v1.clientBuf = {outData, sizeof outData};
    return t;
  }

  bool build(std::string* error) {
    if (!cpu.ok() || !htp.ok()) return *error = cpu.error() + htp.error(), false;
    const auto& a = api();
    const auto& h = htp.api();
    auto ok = [&](Qnn_ErrorHandle_t rc, const char* what) {
      if (rc != QNN_SUCCESS) *error = std::string(what) + " failed: " + std::to_string(rc);
      return rc == QNN_SUCCESS;
    };
    // The stale handles first (freed before the live ones exist).
    if (!ok(a.logCreate(captureLog, QNN_LOG_LEVEL_WARN, &log), "logCreate")) return false;
    Qnn_LogHandle_t l2 = nullptr;
    Qnn_BackendHandle_t b2 = nullptr;
    Qnn_DeviceHandle_t d2 = nullptr;
    Qnn_ContextHandle_t c2 = nullptr;
    Qnn_GraphHandle_t g2 = nullptr;
    Qnn_ProfileHandle_t p2 = nullptr;
    Qnn_SignalHandle_t s2 = nullptr;
    if (!ok(a.logCreate(captureLog, QNN_LOG_LEVEL_WARN, &l2), "logCreate") ||
        !ok(a.backendCreate(log, nullptr, &b2), "backendCreate") ||
        !ok(a.deviceCreate(log, nullptr, &d2), "deviceCreate") ||
        !ok(a.contextCreate(b2, nullptr, nullptr, &c2), "contextCreate") ||
        !ok(a.graphCreate(c2, "stale", nullptr, &g2), "graphCreate") ||
        !ok(a.profileCreate(b2, QNN_PROFILE_LEVEL_BASIC, &p2), "profileCreate") ||
        !ok(a.signalCreate(b2, nullptr, &s2), "signalCreate"))
      return false;
    memFd = memfd_create("misuse", 0);
    if (memFd < 0 || ftruncate(memFd, 4096) != 0) return *error = "memfd", false;
    uint32_t dims[] = {1, 4};
    Qnn_MemDescriptor_t desc = QNN_MEM_DESCRIPTOR_INIT;
    desc.memShape = {2, dims, nullptr};
    desc.dataType = QNN_DATATYPE_FLOAT_32;
    desc.memType = QNN_MEM_TYPE_ION;
    desc.ionInfo.fd = memFd;
    Qnn_MemHandle_t m2 = nullptr;
    if (!ok(a.memRegister(c2, &desc, 1, &m2), "memRegister") || !ok(a.memDeRegister(&m2, 1), "memDeRegister") ||
        !ok(a.signalFree(s2), "signalFree") || !ok(a.profileFree(p2), "profileFree") ||
        !ok(a.contextFree(c2, nullptr), "contextFree") || !ok(a.deviceFree(d2), "deviceFree") ||
        !ok(a.backendFree(b2), "backendFree") || !ok(a.logFree(l2), "logFree"))
      return false;
    stale[int(Kind::kLog)] = l2;
    stale[int(Kind::kBackend)] = b2;
    stale[int(Kind::kDevice)] = d2;
    stale[int(Kind::kContext)] = c2;
    stale[int(Kind::kGraph)] = g2;  // freed with its context
    stale[int(Kind::kProfile)] = p2;
    stale[int(Kind::kSignal)] = s2;
    stale[int(Kind::kMem)] = m2;
    // The live CPU objects.
    if (!ok(a.backendCreate(log, nullptr, &backend), "backendCreate") ||
        !ok(a.deviceCreate(log, nullptr, &device), "deviceCreate") ||
        !ok(a.contextCreate(backend, nullptr, nullptr, &context), "contextCreate") ||
        !ok(a.graphCreate(context, "done", nullptr, &done), "graphCreate") ||
        !ok(a.tensorCreateGraphTensor(done, &in.tensor), "tensorCreateGraphTensor") ||
        !ok(a.tensorCreateGraphTensor(done, &out.tensor), "tensorCreateGraphTensor") ||
        !ok(a.graphAddNode(done, relu()), "graphAddNode") || !ok(a.graphFinalize(done, nullptr, nullptr), "finalize") ||
        !ok(a.profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), "profileCreate") ||
        !ok(a.signalCreate(backend, nullptr, &signal), "signalCreate") ||
        !ok(a.memRegister(context, &desc, 1, &mem), "memRegister"))
      return false;
    // The context binary while every graph of the context is finalized.
    Qnn_ContextBinarySize_t size = 0, written = 0;
    if (!ok(a.contextGetBinarySize(context, &size), "getBinarySize")) return false;
    binary.resize(size);
    if (!ok(a.contextGetBinary(context, binary.data(), size, &written), "getBinary")) return false;
    // The open graph has a tensor (so addNode cases can name one) but no node.
    TensorSpec x{"x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}};
    if (!ok(a.contextCreate(backend, nullptr, nullptr, &openContext), "contextCreate") ||
        !ok(a.graphCreate(openContext, "open", nullptr, &open), "graphCreate") ||
        !ok(a.tensorCreateGraphTensor(open, &x.tensor), "tensorCreateGraphTensor"))
      return false;
    // The live HTP objects (another library's handle space).
    Qnn_LogHandle_t hl = nullptr;
    Qnn_BackendHandle_t hb = nullptr;
    Qnn_DeviceHandle_t hd = nullptr;
    Qnn_GraphHandle_t hg = nullptr;
    Qnn_ProfileHandle_t hp = nullptr;
    Qnn_SignalHandle_t hs = nullptr;
    Qnn_MemHandle_t hm = nullptr;
    Qnn_MemDescriptor_t hdesc = desc;
    if (!ok(h.logCreate(captureLog, QNN_LOG_LEVEL_WARN, &hl), "htp logCreate") ||
        !ok(h.backendCreate(hl, nullptr, &hb), "htp backendCreate") ||
        !ok(h.deviceCreate(hl, nullptr, &hd), "htp deviceCreate") ||
        !ok(h.contextCreate(hb, nullptr, nullptr, &htpContext), "htp contextCreate") ||
        !ok(h.graphCreate(htpContext, "g", nullptr, &hg), "htp graphCreate") ||
        !ok(h.profileCreate(hb, QNN_PROFILE_LEVEL_BASIC, &hp), "htp profileCreate") ||
        !ok(h.signalCreate(hb, nullptr, &hs), "htp signalCreate") ||
        !ok(h.memRegister(htpContext, &hdesc, 1, &hm), "htp memRegister"))
      return false;
    foreign[int(Kind::kLog)] = hl;
    foreign[int(Kind::kBackend)] = hb;
    foreign[int(Kind::kDevice)] = hd;
    foreign[int(Kind::kContext)] = htpContext;
    foreign[int(Kind::kGraph)] = hg;
    foreign[int(Kind::kProfile)] = hp;
    foreign[int(Kind::kSignal)] = hs;
    foreign[int(Kind::kMem)] = hm;
    // An HTP context binary (a float Relu graph of its own context).
    Qnn_ContextHandle_t hc = nullptr;
    Qnn_GraphHandle_t hr = nullptr;
    TensorSpec hin = in, hout = out;
    Qnn_OpConfig_t op = relu("relu", &hin.tensor, &hout.tensor);
    Qnn_ContextBinarySize_t hsize = 0, hwritten = 0;
    if (!ok(h.contextCreate(hb, nullptr, nullptr, &hc), "htp contextCreate") ||
        !ok(h.graphCreate(hc, "relu", nullptr, &hr), "htp graphCreate") ||
        !ok(h.tensorCreateGraphTensor(hr, &hin.tensor), "htp tensor") ||
        !ok(h.tensorCreateGraphTensor(hr, &hout.tensor), "htp tensor") || !ok(h.graphAddNode(hr, op), "htp node") ||
        !ok(h.graphFinalize(hr, nullptr, nullptr), "htp finalize") ||
        !ok(h.contextGetBinarySize(hc, &hsize), "htp getBinarySize"))
      return false;
    htpBinary.resize(hsize);
    if (!ok(h.contextGetBinary(hc, htpBinary.data(), hsize, &hwritten), "htp getBinary")) return false;
    return built = true;
  }
  bool built = false;
  std::string buildError;
};

World& world() {
  static World* w = [] {
    auto* made = new World;  // lives for the process: the libraries stay loaded
    made->build(&made->buildError);
    return made;
  }();
  return *w;
}

// ---------------------------------------------------------------- the rows
// A call returns its code and says whether its outputs kept their sentinels.
struct Outcome {
  Qnn_ErrorHandle_t rc;
  bool untouched;
};
struct Row {
  std::string name;
  Qnn_ErrorHandle_t expected;
  std::function<Outcome(World&)> call;
  std::string mention;  // when set, the error line must contain it: what was refused and why
};

std::vector<Row>& rows() {
  static std::vector<Row> r;
  return r;
}
void row(std::string name, Qnn_ErrorHandle_t expected, std::function<Outcome(World&)> call) {
  rows().push_back({std::move(name), expected, std::move(call), {}});
}

const char* kindName(Kind k) {
  static const char* names[] = {"Log", "Backend", "Device", "Context", "Graph", "Profile", "Signal", "Mem"};
  return names[int(k)];
}

// The five handle rows of one handle argument: `call` takes the handle to pass.
// `nullable`: null is a valid value of this argument (an optional profile or signal).
void handleRows(const std::string& entry, Kind kind, Qnn_ErrorHandle_t expected,
                std::function<Outcome(World&, void*)> call, bool nullable = false) {
  const std::string k = kindName(kind);
  if (!nullable) row(entry + "_Null" + k, expected, [call](World& w) { return call(w, nullptr); });
  row(entry + "_Forged" + k, expected, [call](World& w) { return call(w, kForged); });
  row(entry + "_Stale" + k, expected, [call, kind](World& w) { return call(w, w.stale[int(kind)]); });
  row(entry + "_OtherKindAs" + k, expected, [call, kind](World& w) { return call(w, w.otherKind(kind)); });
  row(entry + "_OtherLibrary" + k, expected, [call, kind](World& w) { return call(w, w.foreign[int(kind)]); });
}

template <typename T>
T* sentinel() {
  return static_cast<T*>(kSentinel);
}

// Output pointer helpers: a slot holding the sentinel, checked after the call.
template <typename T>
struct Slot {
  T value = reinterpret_cast<T>(kSentinel);
  bool untouched() const { return value == reinterpret_cast<T>(kSentinel); }
};

void registerRows() {
  // ---- QnnProperty
  row("propertyHasCapability_UnknownKey", QNN_PROPERTY_ERROR_UNKNOWN_KEY,
      [](World& w) { return Outcome{w.api().propertyHasCapability(QnnProperty_Key_t(0x7654321)), true}; });

  // ---- QnnBackend
  handleRows("backendCreate", Kind::kLog, QNN_BACKEND_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_BackendHandle_t> b;
    return Outcome{w.api().backendCreate(h, nullptr, &b.value), b.untouched()};
  }, /*nullable=*/true);
  row("backendCreate_NullOut", QNN_BACKEND_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().backendCreate(w.log, nullptr, nullptr), true}; });
  row("backendCreate_UnknownConfigOption", QNN_BACKEND_ERROR_INVALID_CONFIG, [](World& w) {
    QnnBackend_Config_t c = QNN_BACKEND_CONFIG_INIT;
    c.option = QnnBackend_ConfigOption_t(77);
    const QnnBackend_Config_t* cs[] = {&c, nullptr};
    Slot<Qnn_BackendHandle_t> b;
    return Outcome{w.api().backendCreate(w.log, cs, &b.value), b.untouched()};
  });
  handleRows("backendSetConfig", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().backendSetConfig(h, nullptr), true}; });
  row("backendSetConfig_UnknownOption", QNN_BACKEND_ERROR_INVALID_CONFIG, [](World& w) {
    QnnBackend_Config_t c = QNN_BACKEND_CONFIG_INIT;
    c.option = QnnBackend_ConfigOption_t(77);
    const QnnBackend_Config_t* cs[] = {&c, nullptr};
    return Outcome{w.api().backendSetConfig(w.backend, cs), true};
  });
  row("backendGetApiVersion_NullOut", QNN_BACKEND_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().backendGetApiVersion(nullptr), true}; });
  row("backendGetBuildId_NullOut", QNN_BACKEND_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().backendGetBuildId(nullptr), true}; });
  handleRows("backendRegisterOpPackage", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    return Outcome{w.api().backendRegisterOpPackage(h, "/nonexistent/libOp.so", "Provider", nullptr), true};
  });
  row("backendRegisterOpPackage_NullPath", QNN_BACKEND_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api().backendRegisterOpPackage(w.backend, nullptr, "Provider", nullptr), true};
  });
  row("backendRegisterOpPackage_NullProvider", QNN_BACKEND_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api().backendRegisterOpPackage(w.backend, "/nonexistent/libOp.so", nullptr, nullptr), true};
  });
  row("backendRegisterOpPackage_MissingLibrary", QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND, [](World& w) {
    return Outcome{w.api().backendRegisterOpPackage(w.backend, "/nonexistent/libOp.so", "Provider", nullptr), true};
  });
  row("backendRegisterOpPackage_NotAnOpPackage", QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND, [](World& w) {
    return Outcome{w.api().backendRegisterOpPackage(w.backend, "libc.so.6", "Provider", nullptr), true};
  });
  handleRows("backendGetSupportedOperations", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    uint32_t n = 0x5e5e;
    Slot<const QnnBackend_OperationName_t*> ops;
    Qnn_ErrorHandle_t rc = w.api().backendGetSupportedOperations(h, &n, &ops.value);
    return Outcome{rc, n == 0x5e5e && ops.untouched()};
  }, /*nullable=*/true);  // "NULL to obtain the built-in op package" (QnnBackend.h)
  row("backendGetSupportedOperations_NullOut", QNN_BACKEND_ERROR_INVALID_ARGUMENT, [](World& w) {
    uint32_t n = 0x5e5e;
    return Outcome{w.api().backendGetSupportedOperations(w.backend, &n, nullptr), n == 0x5e5e};
  });
  handleRows("backendValidateOpConfig", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().backendValidateOpConfig(h, w.relu()), true}; });
  row("backendValidateOpConfig_UnknownVersion", QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE, [](World& w) {
    Qnn_OpConfig_t op = w.relu();
    op.version = Qnn_OpConfigVersion_t(9);
    return Outcome{w.api().backendValidateOpConfig(w.backend, op), true};
  });
  row("backendValidateOpConfig_UnknownOp", QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE, [](World& w) {
    Qnn_OpConfig_t op = w.relu();
    op.v1.typeName = "NoSuchOp";
    return Outcome{w.api().backendValidateOpConfig(w.backend, op), true};
  });
  row("backendValidateOpConfig_UnknownParam", QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE, [](World& w) {
    Qnn_OpConfig_t op = w.relu();
    Qnn_Param_t p = u32Param("no_such_param", 1);
    op.v1.numOfParams = 1;
    op.v1.params = &p;
    return Outcome{w.api().backendValidateOpConfig(w.backend, op), true};
  });
  row("backendValidateOpConfig_WrongInputCount", QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE, [](World& w) {
    Qnn_OpConfig_t op = w.relu();
    op.v1.numOfInputs = 0;
    return Outcome{w.api().backendValidateOpConfig(w.backend, op), true};
  });
  handleRows("backendGetProperty", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    QnnBackend_Property_t p = QNN_BACKEND_PROPERTY_INIT;
    QnnBackend_Property_t* ps[] = {&p, nullptr};
    return Outcome{w.api().backendGetProperty(h, ps), true};
  });
  row("backendGetProperty_NullList", QNN_BACKEND_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().backendGetProperty(w.backend, nullptr), true}; });
  handleRows("backendFree", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().backendFree(h), true}; });

  // ---- QnnContext
  handleRows("contextCreate", Kind::kBackend, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{w.api().contextCreate(h, nullptr, nullptr, &c.value), c.untouched()};
  });
  handleRows("contextCreate", Kind::kDevice, QNN_DEVICE_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{w.api().contextCreate(w.backend, h, nullptr, &c.value), c.untouched()};
  }, /*nullable=*/true);
  row("contextCreate_NullOut", QNN_CONTEXT_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().contextCreate(w.backend, nullptr, nullptr, nullptr), true}; });
  row("contextCreate_UnknownConfigOption", QNN_CONTEXT_ERROR_INVALID_CONFIG, [](World& w) {
    QnnContext_Config_t c{};
    c.option = QnnContext_ConfigOption_t(77);
    const QnnContext_Config_t* cs[] = {&c, nullptr};
    Slot<Qnn_ContextHandle_t> out;
    return Outcome{w.api().contextCreate(w.backend, nullptr, cs, &out.value), out.untouched()};
  });
  row("contextCreate_BadPriority", QNN_CONTEXT_ERROR_INVALID_CONFIG, [](World& w) {
    QnnContext_Config_t c{};
    c.option = QNN_CONTEXT_CONFIG_OPTION_PRIORITY;
    c.priority = Qnn_Priority_t(999);
    const QnnContext_Config_t* cs[] = {&c, nullptr};
    Slot<Qnn_ContextHandle_t> out;
    return Outcome{w.api().contextCreate(w.backend, nullptr, cs, &out.value), out.untouched()};
  });
  handleRows("contextSetConfig", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().contextSetConfig(h, nullptr), true}; });
  row("contextSetConfig_UnknownOption", QNN_CONTEXT_ERROR_INVALID_CONFIG, [](World& w) {
    QnnContext_Config_t c{};
    c.option = QnnContext_ConfigOption_t(77);
    const QnnContext_Config_t* cs[] = {&c, nullptr};
    return Outcome{w.api().contextSetConfig(w.context, cs), true};
  });
  handleRows("contextGetBinarySize", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Qnn_ContextBinarySize_t n = 0x5e5e;
    return Outcome{w.api().contextGetBinarySize(h, &n), n == 0x5e5e};
  });
  row("contextGetBinarySize_NullOut", QNN_CONTEXT_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().contextGetBinarySize(w.context, nullptr), true}; });
  handleRows("contextGetBinary", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    std::vector<uint8_t> buf(w.binary.size(), 0x5e);
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetBinary(h, buf.data(), buf.size(), &n);
    return Outcome{rc, n == 0x5e5e && buf == std::vector<uint8_t>(buf.size(), 0x5e)};
  });
  row("contextGetBinary_NullBuffer", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w) {
    Qnn_ContextBinarySize_t n = 0x5e5e;
    return Outcome{w.api().contextGetBinary(w.context, nullptr, w.binary.size(), &n), n == 0x5e5e};
  });
  row("contextGetBinary_NullWritten", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w) {
    std::vector<uint8_t> buf(w.binary.size(), 0x5e);
    Qnn_ErrorHandle_t rc = w.api().contextGetBinary(w.context, buf.data(), buf.size(), nullptr);
    return Outcome{rc, buf == std::vector<uint8_t>(buf.size(), 0x5e)};
  });
  row("contextGetBinary_GraphNotFinalized", QNN_CONTEXT_ERROR_NOT_FINALIZED, [](World& w) {
    std::vector<uint8_t> buf(w.binary.size(), 0x5e);
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetBinary(w.openContext, buf.data(), buf.size(), &n);
    return Outcome{rc, n == 0x5e5e && buf == std::vector<uint8_t>(buf.size(), 0x5e)};
  });
  row("contextGetBinarySize_GraphNotFinalized", QNN_CONTEXT_ERROR_NOT_FINALIZED, [](World& w) {
    Qnn_ContextBinarySize_t n = 0x5e5e;
    return Outcome{w.api().contextGetBinarySize(w.openContext, &n), n == 0x5e5e};
  });
  row("contextGetBinary_BufferTooSmall", QNN_CONTEXT_ERROR_GET_BINARY_FAILED, [](World& w) {
    std::vector<uint8_t> buf(w.binary.size() - 1, 0x5e);
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetBinary(w.context, buf.data(), buf.size(), &n);
    return Outcome{rc, n == 0x5e5e && buf == std::vector<uint8_t>(buf.size(), 0x5e)};
  });
  auto fromBinary = [](World& w, void* backend, void* device, const void* buf, uint64_t size, void* profile,
                       Qnn_ContextHandle_t* out) {
    return w.api().contextCreateFromBinary(backend, device, nullptr, buf, size, out, profile);
  };
  handleRows("contextCreateFromBinary", Kind::kBackend, QNN_CONTEXT_ERROR_INVALID_HANDLE, [=](World& w, void* h) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, h, nullptr, w.binary.data(), w.binary.size(), nullptr, &c.value), c.untouched()};
  });
  handleRows("contextCreateFromBinary", Kind::kDevice, QNN_DEVICE_ERROR_INVALID_HANDLE, [=](World& w, void* h) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, h, w.binary.data(), w.binary.size(), nullptr, &c.value), c.untouched()};
  }, true);
  handleRows("contextCreateFromBinary", Kind::kProfile, QNN_PROFILE_ERROR_INVALID_HANDLE, [=](World& w, void* h) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, w.binary.data(), w.binary.size(), h, &c.value), c.untouched()};
  }, true);
  row("contextCreateFromBinary_NullBuffer", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [=](World& w) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, nullptr, 100, nullptr, &c.value), c.untouched()};
  });
  row("contextCreateFromBinary_ZeroSize", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [=](World& w) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, w.binary.data(), 0, nullptr, &c.value), c.untouched()};
  });
  row("contextCreateFromBinary_NullOut", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [=](World& w) {
    return Outcome{fromBinary(w, w.backend, nullptr, w.binary.data(), w.binary.size(), nullptr, nullptr), true};
  });
  row("contextCreateFromBinary_Truncated", QNN_CONTEXT_ERROR_CREATE_FROM_BINARY, [=](World& w) {
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, w.binary.data(), w.binary.size() / 2, nullptr, &c.value),
                   c.untouched()};
  });
  row("contextCreateFromBinary_NotABinary", QNN_CONTEXT_ERROR_CREATE_FROM_BINARY, [=](World& w) {
    std::vector<uint8_t> junk(4096, 0xab);
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, junk.data(), junk.size(), nullptr, &c.value), c.untouched()};
  });
  row("contextCreateFromBinary_FlippedByte", QNN_CONTEXT_ERROR_CREATE_FROM_BINARY, [=](World& w) {
    std::vector<uint8_t> bad = w.binary;
    bad[bad.size() / 2] ^= 0x40;
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, bad.data(), bad.size(), nullptr, &c.value), c.untouched()};
  });
  row("contextCreateFromBinary_OtherBackendsBinary", QNN_CONTEXT_ERROR_BINARY_CONFIGURATION, [=](World& w) {
    // A context binary of the HTP backend given to the CPU backend.
    Slot<Qnn_ContextHandle_t> c;
    return Outcome{fromBinary(w, w.backend, nullptr, w.htpBinary.data(), w.htpBinary.size(), nullptr, &c.value),
                   c.untouched()};
  });
  handleRows("contextCreateFromBinaryWithSignal", Kind::kSignal, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_ContextHandle_t> c;
    Qnn_ErrorHandle_t rc = w.api().contextCreateFromBinaryWithSignal(w.backend, nullptr, nullptr, w.binary.data(),
                                                                      w.binary.size(), &c.value, nullptr, h);
    return Outcome{rc, c.untouched()};
  }, true);
  handleRows("contextCreateFromBinaryWithSignal", Kind::kBackend, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) {
               Slot<Qnn_ContextHandle_t> c;
               Qnn_ErrorHandle_t rc = w.api().contextCreateFromBinaryWithSignal(
                   h, nullptr, nullptr, w.binary.data(), w.binary.size(), &c.value, nullptr, nullptr);
               return Outcome{rc, c.untouched()};
             });
  handleRows("contextCreateFromBinaryWithCallback", Kind::kBackend, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) {
               Slot<Qnn_ContextHandle_t> c;
               Qnn_ErrorHandle_t rc = w.api().contextCreateFromBinaryWithCallback(
                   h, nullptr, nullptr, nullptr, w.binary.data(), w.binary.size(), &c.value, nullptr, nullptr);
               return Outcome{rc, c.untouched()};
             });
  handleRows("contextCreateFromBinaryListAsync", Kind::kBackend, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) {
               Slot<Qnn_ContextHandle_t> c;
               QnnContext_Params_t p{};
               p.version = QNN_CONTEXT_PARAMS_VERSION_1;
               new (&p.v1) QnnContext_ParamsV1_t{nullptr, w.binary.data(), w.binary.size(), nullptr, nullptr, nullptr};
               const QnnContext_Params_t* ps[] = {&p, nullptr};
               return Outcome{w.api().contextCreateFromBinaryListAsync(h, nullptr, ps, nullptr, nullptr), true};
             });
  row("contextCreateFromBinaryListAsync_NullList", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api().contextCreateFromBinaryListAsync(w.backend, nullptr, nullptr, nullptr, nullptr), true};
  });
  row("contextValidateBinary_NullBuffer", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api().contextValidateBinary(w.backend, nullptr, nullptr, nullptr, 10), true};
  });
  row("contextValidateBinary_Corrupted", QNN_CONTEXT_ERROR_CREATE_FROM_BINARY, [](World& w) {
    std::vector<uint8_t> bad = w.binary;
    bad[bad.size() / 3] ^= 1;
    return Outcome{w.api().contextValidateBinary(w.backend, nullptr, nullptr, bad.data(), bad.size()), true};
  });
  handleRows("contextValidateBinary", Kind::kBackend, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    return Outcome{w.api().contextValidateBinary(h, nullptr, nullptr, w.binary.data(), w.binary.size()), true};
  }, /*nullable=*/true);  // the check needs only the binary
  handleRows("contextGetProperty", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    QnnContext_Property_t p = QNN_CONTEXT_PROPERTY_INIT;
    QnnContext_Property_t* ps[] = {&p, nullptr};
    return Outcome{w.api().contextGetProperty(h, ps), true};
  });
  handleRows("contextFinalize", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().contextFinalize(h, nullptr), true}; });
  handleRows("contextGetBinarySectionSize", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetBinarySectionSize(h, w.done, QNN_CONTEXT_SECTION_UPDATABLE, &n);
    return Outcome{rc, n == 0x5e5e};
  });
  // A graph that is not one of the context's (null: every graph of it).
  handleRows("contextGetBinarySectionSize", Kind::kGraph, QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w, void* h) {
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetBinarySectionSize(w.context, h, QNN_CONTEXT_SECTION_UPDATABLE, &n);
    return Outcome{rc, n == 0x5e5e};
  }, /*nullable=*/true);
  handleRows("contextGetBinarySection", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    std::vector<uint8_t> buf(256, 0x5e);
    QnnContext_Buffer_t b{};
    b.version = QNN_CONTEXT_BUFFER_VERSION_1;
    b.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    b.v1.binaryBuf = {buf.data(), buf.size()};
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetBinarySection(h, w.done, QNN_CONTEXT_SECTION_UPDATABLE, &b, &n,
                                                           nullptr, nullptr);
    return Outcome{rc, n == 0x5e5e && buf == std::vector<uint8_t>(256, 0x5e)};
  });
  handleRows("contextApplyBinarySection", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    std::vector<uint8_t> buf(256, 0);
    QnnContext_Buffer_t b{};
    b.version = QNN_CONTEXT_BUFFER_VERSION_1;
    b.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    b.v1.binaryBuf = {buf.data(), buf.size()};
    return Outcome{w.api().contextApplyBinarySection(h, w.done, QNN_CONTEXT_SECTION_UPDATABLE, &b, nullptr, nullptr),
                   true};
  });
  handleRows("contextGetIncrementalBinary", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    const void* buf = kSentinel;
    Qnn_ContextBinarySize_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().contextGetIncrementalBinary(h, &buf, 0, &n);
    return Outcome{rc, buf == kSentinel && n == 0x5e5e};
  });
  handleRows("contextReleaseIncrementalBinary", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) {
               uint8_t b = 0;
               return Outcome{w.api().contextReleaseIncrementalBinary(h, &b, 0), true};
             });
  handleRows("contextFree", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().contextFree(h, nullptr), true}; });
  handleRows("contextFree", Kind::kProfile, QNN_PROFILE_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    // A context of its own, so a wrongly accepted call frees nothing the other rows use.
    Qnn_ContextHandle_t c = nullptr;
    w.api().contextCreate(w.backend, nullptr, nullptr, &c);
    Qnn_ErrorHandle_t rc = w.api().contextFree(c, h);
    w.api().contextFree(c, nullptr);
    return Outcome{rc, true};
  }, true);
  row("contextGetBinarySectionUpdate_NullBuffer", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w) {
    QnnContext_Buffer_t out{};
    out.v1.binaryBuf.data = kSentinel;
    Qnn_ErrorHandle_t rc =
        w.api().contextGetBinarySectionUpdate(nullptr, nullptr, nullptr, 0, 0, w.log, nullptr, nullptr, &out);
    return Outcome{rc, out.v1.binaryBuf.data == kSentinel};
  });
  row("contextFreeBinarySectionUpdate_NeverIssued", QNN_CONTEXT_ERROR_INVALID_ARGUMENT, [](World& w) {
    std::vector<uint8_t> buf(64, 0);
    QnnContext_Buffer_t b{};
    b.version = QNN_CONTEXT_BUFFER_VERSION_1;
    b.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    b.v1.binaryBuf = {buf.data(), buf.size()};
    return Outcome{w.api().contextFreeBinarySectionUpdate(b, w.log), true};
  });

  // ---- QnnGraph
  handleRows("graphCreate", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphCreate(h, "fresh", nullptr, &g.value), g.untouched()};
  });
  row("graphCreate_NullName", QNN_GRAPH_ERROR_INVALID_NAME, [](World& w) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphCreate(w.context, nullptr, nullptr, &g.value), g.untouched()};
  });
  row("graphCreate_EmptyName", QNN_GRAPH_ERROR_INVALID_NAME, [](World& w) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphCreate(w.context, "", nullptr, &g.value), g.untouched()};
  });
  row("graphCreate_DuplicateName", QNN_GRAPH_ERROR_INVALID_NAME, [](World& w) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphCreate(w.context, "done", nullptr, &g.value), g.untouched()};
  });
  row("graphCreate_NullOut", QNN_GRAPH_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().graphCreate(w.context, "fresh2", nullptr, nullptr), true}; });
  row("graphCreate_UnknownConfigOption", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    QnnGraph_Config_t c = QNN_GRAPH_CONFIG_INIT;
    c.option = QnnGraph_ConfigOption_t(77);
    const QnnGraph_Config_t* cs[] = {&c, nullptr};
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphCreate(w.context, "fresh3", cs, &g.value), g.untouched()};
  });
  handleRows("graphCreateSubgraph", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphCreateSubgraph(h, "sub", &g.value), g.untouched()};
  });
  handleRows("graphSetConfig", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().graphSetConfig(h, nullptr), true}; });
  row("graphSetConfig_UnknownOption", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    QnnGraph_Config_t c = QNN_GRAPH_CONFIG_INIT;
    c.option = QnnGraph_ConfigOption_t(77);
    const QnnGraph_Config_t* cs[] = {&c, nullptr};
    return Outcome{w.api().graphSetConfig(w.done, cs), true};
  });
  row("graphSetConfig_BadPriority", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    QnnGraph_Config_t c = QNN_GRAPH_CONFIG_INIT;
    c.option = QNN_GRAPH_CONFIG_OPTION_PRIORITY;
    c.priority = Qnn_Priority_t(999);
    const QnnGraph_Config_t* cs[] = {&c, nullptr};
    return Outcome{w.api().graphSetConfig(w.done, cs), true};
  });
  handleRows("graphAddNode", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().graphAddNode(h, w.relu("n")), true}; });
  row("graphAddNode_AfterFinalize", QNN_GRAPH_ERROR_GRAPH_FINALIZED,
      [](World& w) { return Outcome{w.api().graphAddNode(w.done, w.relu("late")), true}; });
  row("graphAddNode_UnknownVersion", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    Qnn_OpConfig_t op = w.relu("v");
    op.version = Qnn_OpConfigVersion_t(9);
    return Outcome{w.api().graphAddNode(w.open, op), true};
  });
  row("graphAddNode_UnknownOp", QNN_GRAPH_ERROR_INVALID_OP_CONFIG, [](World& w) {
    Qnn_OpConfig_t op = w.relu("u");
    op.v1.typeName = "NoSuchOp";
    return Outcome{w.api().graphAddNode(w.open, op), true};
  });
  row("graphAddNode_UnknownPackage", QNN_GRAPH_ERROR_INVALID_OP_CONFIG, [](World& w) {
    Qnn_OpConfig_t op = w.relu("p");
    op.v1.packageName = "no.such.package";
    return Outcome{w.api().graphAddNode(w.open, op), true};
  });
  row("graphAddNode_TensorNotInGraph", QNN_GRAPH_ERROR_INVALID_TENSOR, [](World& w) {
    // `in`/`out` belong to the finalized graph, not the open one.
    return Outcome{w.api().graphAddNode(w.open, w.relu("t")), true};
  });
  row("graphAddNode_TensorIdDoesNotExist", QNN_GRAPH_ERROR_INVALID_TENSOR, [](World& w) {
    Qnn_Tensor_t i = w.in.tensor, o = w.out.tensor;
    i.v1.id = 987654;
    o.v1.id = 987655;
    return Outcome{w.api().graphAddNode(w.open, w.relu("id", &i, &o)), true};
  });
  row("graphAddNode_NullName", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    Qnn_OpConfig_t op = w.relu();
    op.v1.name = nullptr;
    return Outcome{w.api().graphAddNode(w.open, op), true};
  });
  row("graphAddNode_NullInputs", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    Qnn_OpConfig_t op = w.relu("ni");
    op.v1.inputTensors = nullptr;
    return Outcome{w.api().graphAddNode(w.open, op), true};
  });
  handleRows("graphFinalize", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().graphFinalize(h, nullptr, nullptr), true}; });
  handleRows("graphFinalize", Kind::kProfile, QNN_GRAPH_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().graphFinalize(w.open, h, nullptr), true}; }, true);
  handleRows("graphFinalize", Kind::kSignal, QNN_GRAPH_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().graphFinalize(w.open, nullptr, h), true}; }, true);
  handleRows("graphRetrieve", Kind::kContext, QNN_CONTEXT_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphRetrieve(h, "done", &g.value), g.untouched()};
  });
  row("graphRetrieve_UnknownName", QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST, [](World& w) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphRetrieve(w.context, "nope", &g.value), g.untouched()};
  });
  row("graphRetrieve_NullName", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    Slot<Qnn_GraphHandle_t> g;
    return Outcome{w.api().graphRetrieve(w.context, nullptr, &g.value), g.untouched()};
  });
  row("graphRetrieve_NullOut", QNN_GRAPH_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().graphRetrieve(w.context, "done", nullptr), true}; });
  // graphExecute / graphExecuteAsync share their rows: `exec` runs one of them.
  using Exec = std::function<Qnn_ErrorHandle_t(World&, void*, const Qnn_Tensor_t*, uint32_t, Qnn_Tensor_t*, uint32_t,
                                               void*, void*)>;
  auto notify = [](void*, Qnn_NotifyStatus_t) {};
  Exec sync = [](World& w, void* g, const Qnn_Tensor_t* i, uint32_t ni, Qnn_Tensor_t* o, uint32_t no, void* p,
                 void* s) { return w.api().graphExecute(g, i, ni, o, no, p, s); };
  Exec async = [notify](World& w, void* g, const Qnn_Tensor_t* i, uint32_t ni, Qnn_Tensor_t* o, uint32_t no, void* p,
                        void* s) { return w.api().graphExecuteAsync(g, i, ni, o, no, p, s, notify, nullptr); };
  for (auto [entry, exec] : {std::pair<std::string, Exec>{"graphExecute", sync}, {"graphExecuteAsync", async}}) {
    // Runs the finalized graph with in/out (optionally changed by `edit`); untouched: outData kept 9s.
    auto run = [exec](World& w, void* g, void* p, void* s,
                      std::function<void(Qnn_Tensor_t&, Qnn_Tensor_t&, uint32_t&, uint32_t&)> edit) {
      for (float& v : w.outData) v = 9;
      Qnn_Tensor_t i = w.execIn(), o = w.execOut();
      uint32_t ni = 1, no = 1;
      if (edit) edit(i, o, ni, no);
      Qnn_ErrorHandle_t rc = exec(w, g, &i, ni, &o, no, p, s);
      bool untouched = true;
      for (float v : w.outData) untouched = untouched && v == 9;
      return Outcome{rc, untouched};
    };
    handleRows(entry, Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE,
               [run](World& w, void* h) { return run(w, h, nullptr, nullptr, nullptr); });
    handleRows(entry, Kind::kProfile, QNN_GRAPH_ERROR_INVALID_HANDLE,
               [run](World& w, void* h) { return run(w, w.done, h, nullptr, nullptr); }, true);
    handleRows(entry, Kind::kSignal, QNN_GRAPH_ERROR_INVALID_HANDLE,
               [run](World& w, void* h) { return run(w, w.done, nullptr, h, nullptr); }, true);
    row(entry + "_NotFinalized", QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED,
        [run](World& w) { return run(w, w.open, nullptr, nullptr, nullptr); });
    row(entry + "_NullInputs", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [exec](World& w) {
      for (float& v : w.outData) v = 9;
      Qnn_Tensor_t o = w.execOut();
      Qnn_ErrorHandle_t rc = exec(w, w.done, nullptr, 1, &o, 1, nullptr, nullptr);
      return Outcome{rc, w.outData[0] == 9};
    });
    row(entry + "_NullOutputs", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [exec](World& w) {
      Qnn_Tensor_t i = w.execIn();
      return Outcome{exec(w, w.done, &i, 1, nullptr, 1, nullptr, nullptr), true};
    });
    row(entry + "_TooFewInputs", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr, [](Qnn_Tensor_t&, Qnn_Tensor_t&, uint32_t& ni, uint32_t&) { ni = 0; });
    });
    row(entry + "_TensorIdDoesNotExist", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) {
                   i.v1.id = 987654;  // (a known name with an unknown id is found by name)
                   i.v1.name = "nope";
                 });
    });
    row(entry + "_OutputGivenAsInput", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [&w](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) { i.v1.id = w.out.tensor.v1.id; });
    });
    row(entry + "_InputBufferTooSmall", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) { i.v1.clientBuf.dataSize = 15; });
    });
    row(entry + "_OutputBufferTooSmall", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [](Qnn_Tensor_t&, Qnn_Tensor_t& o, uint32_t&, uint32_t&) { o.v1.clientBuf.dataSize = 4; });
    });
    row(entry + "_NullInputData", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) { i.v1.clientBuf.data = nullptr; });
    });
    row(entry + "_WrongDatatype", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) { i.v1.dataType = QNN_DATATYPE_INT_32; });
    });
    row(entry + "_UnknownTensorVersion", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr,
                 [](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) { i.version = Qnn_TensorVersion_t(9); });
    });
    row(entry + "_StaleMemHandle", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr, [&w](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) {
        i.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
        i.v1.memHandle = w.stale[int(Kind::kMem)];
      });
    });
    row(entry + "_OtherLibrarysMemHandle", QNN_GRAPH_ERROR_INVALID_TENSOR, [run](World& w) {
      return run(w, w.done, nullptr, nullptr, [&w](Qnn_Tensor_t& i, Qnn_Tensor_t&, uint32_t&, uint32_t&) {
        i.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
        i.v1.memHandle = w.foreign[int(Kind::kMem)];
      });
    });
  }
  row("graphExecuteAsync_NoNotifyOnError", QNN_GRAPH_ERROR_INVALID_HANDLE, [](World& w) {
    static std::atomic<int> calls{0};
    Qnn_Tensor_t i = w.execIn(), o = w.execOut();
    Qnn_ErrorHandle_t rc = w.api().graphExecuteAsync(kForged, &i, 1, &o, 1, nullptr, nullptr,
                                                     [](void*, Qnn_NotifyStatus_t) { ++calls; }, nullptr);
    usleep(1000);
    return Outcome{rc, calls.load() == 0};
  });
  handleRows("graphGetProperty", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    QnnGraph_Property_t p = QNN_GRAPH_PROPERTY_INIT;
    QnnGraph_Property_t* ps[] = {&p, nullptr};
    return Outcome{w.api().graphGetProperty(h, ps), true};
  });
  handleRows("graphPrepareExecutionEnvironment", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    QnnGraph_ExecuteEnvironment_t env{};
    QnnGraph_ExecuteEnvironment_t* envs[] = {&env};
    return Outcome{w.api().graphPrepareExecutionEnvironment(h, envs, 1), true};
  });
  handleRows("graphReleaseExecutionEnvironment", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    QnnGraph_ExecuteEnvironment_t env{};
    const QnnGraph_ExecuteEnvironment_t* envs[] = {&env};
    return Outcome{w.api().graphReleaseExecutionEnvironment(h, envs, 1), true};
  });
  row("graphPrepareExecutionEnvironment_NullList", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api().graphPrepareExecutionEnvironment(w.done, nullptr, 1), true};
  });

  // ---- QnnTensor
  auto tensorRows = [](const std::string& entry, bool graph) {
    auto create = [graph](World& w, void* owner, Qnn_Tensor_t* t) {
      return graph ? w.api().tensorCreateGraphTensor(owner, t) : w.api().tensorCreateContextTensor(owner, t);
    };
    handleRows(entry, graph ? Kind::kGraph : Kind::kContext, QNN_TENSOR_ERROR_INVALID_HANDLE,
               [create, graph](World& w, void* h) {
                 TensorSpec t{"fresh", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4}};
                 if (!graph) t.tensor.v1.type = QNN_TENSOR_TYPE_STATIC;
                 float d[4] = {};
                 t.tensor.v1.clientBuf = {d, sizeof d};
                 Qnn_ErrorHandle_t rc = create(w, h, &t.tensor);
                 return Outcome{rc, t.tensor.v1.id == 0};
               });
    auto bad = [create, graph, entry](const std::string& what, std::function<void(TensorSpec&)> edit,
                                      Qnn_ErrorHandle_t code = QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM) {
      row(entry + "_" + what, code, [create, graph, edit](World& w) {
        static int serial = 0;
        TensorSpec t{"t" + std::to_string(++serial), graph ? QNN_TENSOR_TYPE_NATIVE : QNN_TENSOR_TYPE_STATIC,
                     QNN_DATATYPE_FLOAT_32, {1, 4}};
        static float d[64] = {};
        if (!graph) t.tensor.v1.clientBuf = {d, 16};
        edit(t);
        Qnn_ErrorHandle_t rc = create(w, graph ? w.open : w.context, &t.tensor);
        return Outcome{rc, t.tensor.v1.id == 0};
      });
    };
    row(entry + "_NullTensor", QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM, [create, graph](World& w) {
      return Outcome{create(w, graph ? w.open : w.context, nullptr), true};
    });
    bad("NullName", [](TensorSpec& t) { t.tensor.v1.name = nullptr; });
    bad("ZeroDim", [](TensorSpec& t) { t.dims[1] = 0; });
    bad("DimsOverflow64Bits", [](TensorSpec& t) {
      t.dims = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
      t.tensor.v1.rank = 3;
      t.tensor.v1.dimensions = t.dims.data();
    });
    bad("NullDims", [](TensorSpec& t) { t.tensor.v1.dimensions = nullptr; });
    bad("UnknownVersion", [](TensorSpec& t) { t.tensor.version = Qnn_TensorVersion_t(9); });
    bad("UnknownDatatype", [](TensorSpec& t) { t.tensor.v1.dataType = Qnn_DataType_t(0x777); });
    bad("UnknownTensorType", [](TensorSpec& t) { t.tensor.v1.type = Qnn_TensorType_t(77); });
    bad("StaticDataSizeMismatch", [](TensorSpec& t) {
      static float d[64] = {};
      t.tensor.v1.type = QNN_TENSOR_TYPE_STATIC;
      t.tensor.v1.clientBuf = {d, 12};  // [1,4] float needs 16
    });
    bad("StaticWithoutData", [](TensorSpec& t) {
      t.tensor.v1.type = QNN_TENSOR_TYPE_STATIC;
      t.tensor.v1.clientBuf = {nullptr, 0};
    });
    bad("QuantizedWithoutEncoding", [](TensorSpec& t) {
      t.tensor.v1.dataType = QNN_DATATYPE_UFIXED_POINT_8;
      t.tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_UNDEFINED;
      static uint8_t q[4] = {};
      if (t.tensor.v1.type == QNN_TENSOR_TYPE_STATIC) t.tensor.v1.clientBuf = {q, 4};
    });
  };
  tensorRows("tensorCreateGraphTensor", true);
  // Graph tensors may repeat a name (the 2.32 headers leave it undefined; ggml does it): context tensors may not.
  row("tensorCreateContextTensor_DuplicateName", QNN_TENSOR_ERROR_ALREADY_EXISTS, [](World& w) {
    static float d[4] = {};
    TensorSpec first{"dup", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 4}, d, 16};
    static bool made = w.api().tensorCreateContextTensor(w.context, &first.tensor) == QNN_SUCCESS;
    TensorSpec again{"dup", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 4}, d, 16};
    Qnn_ErrorHandle_t rc = w.api().tensorCreateContextTensor(w.context, &again.tensor);
    return Outcome{rc, made && again.tensor.v1.id == 0};
  });
  tensorRows("tensorCreateContextTensor", false);
  row("tensorCreateGraphTensor_AfterFinalize", QNN_GRAPH_ERROR_GRAPH_FINALIZED, [](World& w) {
    TensorSpec t{"late", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4}};
    Qnn_ErrorHandle_t rc = w.api().tensorCreateGraphTensor(w.done, &t.tensor);
    return Outcome{rc, t.tensor.v1.id == 0};
  });
  handleRows("tensorUpdateGraphTensors", Kind::kGraph, QNN_TENSOR_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    const Qnn_Tensor_t* ts[] = {&w.in.tensor};
    return Outcome{w.api().tensorUpdateGraphTensors(h, ts, 1), true};
  });
  handleRows("tensorUpdateContextTensors", Kind::kContext, QNN_TENSOR_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    const Qnn_Tensor_t* ts[] = {&w.in.tensor};
    return Outcome{w.api().tensorUpdateContextTensors(h, ts, 1), true};
  });
  row("tensorUpdateGraphTensors_NullList", QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM,
      [](World& w) { return Outcome{w.api().tensorUpdateGraphTensors(w.done, nullptr, 1), true}; });
  row("tensorUpdateGraphTensors_TensorDoesNotExist", QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM, [](World& w) {
    Qnn_Tensor_t t = w.in.tensor;
    t.v1.id = 987654;
    const Qnn_Tensor_t* ts[] = {&t};
    return Outcome{w.api().tensorUpdateGraphTensors(w.done, ts, 1), true};
  });

  // ---- QnnLog
  row("logCreate_NullOut", QNN_LOG_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().logCreate(captureLog, QNN_LOG_LEVEL_WARN, nullptr), true}; });
  row("logCreate_BadLevel", QNN_LOG_ERROR_INVALID_ARGUMENT, [](World& w) {
    Slot<Qnn_LogHandle_t> l;
    return Outcome{w.api().logCreate(captureLog, QnnLog_Level_t(99), &l.value), l.untouched()};
  });
  handleRows("logSetLogLevel", Kind::kLog, QNN_LOG_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().logSetLogLevel(h, QNN_LOG_LEVEL_WARN), true}; });
  row("logSetLogLevel_BadLevel", QNN_LOG_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().logSetLogLevel(w.log, QnnLog_Level_t(99)), true}; });
  handleRows("logFree", Kind::kLog, QNN_LOG_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().logFree(h), true}; });

  // ---- QnnProfile
  handleRows("profileCreate", Kind::kBackend, QNN_PROFILE_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_ProfileHandle_t> p;
    return Outcome{w.api().profileCreate(h, QNN_PROFILE_LEVEL_BASIC, &p.value), p.untouched()};
  });
  row("profileCreate_BadLevel", QNN_PROFILE_ERROR_UNSUPPORTED, [](World& w) {
    Slot<Qnn_ProfileHandle_t> p;
    return Outcome{w.api().profileCreate(w.backend, QnnProfile_Level_t(77), &p.value), p.untouched()};
  });
  row("profileCreate_NullOut", QNN_PROFILE_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().profileCreate(w.backend, QNN_PROFILE_LEVEL_BASIC, nullptr), true}; });
  handleRows("profileSetConfig", Kind::kProfile, QNN_PROFILE_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().profileSetConfig(h, nullptr), true}; });
  handleRows("profileGetEvents", Kind::kProfile, QNN_PROFILE_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<const QnnProfile_EventId_t*> e;
    uint32_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().profileGetEvents(h, &e.value, &n);
    return Outcome{rc, e.untouched() && n == 0x5e5e};
  });
  row("profileGetEvents_NullOut", QNN_PROFILE_ERROR_INVALID_ARGUMENT, [](World& w) {
    uint32_t n = 0x5e5e;
    return Outcome{w.api().profileGetEvents(w.profile, nullptr, &n), n == 0x5e5e};
  });
  row("profileGetSubEvents_UnknownEvent", QNN_PROFILE_ERROR_INVALID_HANDLE, [](World& w) {
    Slot<const QnnProfile_EventId_t*> e;
    uint32_t n = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().profileGetSubEvents(0x7777777777ull, &e.value, &n);
    return Outcome{rc, e.untouched() && n == 0x5e5e};
  });
  row("profileGetEventData_UnknownEvent", QNN_PROFILE_ERROR_INVALID_HANDLE, [](World& w) {
    QnnProfile_EventData_t d{};
    d.value = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().profileGetEventData(0x7777777777ull, &d);
    return Outcome{rc, d.value == 0x5e5e};
  });
  row("profileGetExtendedEventData_UnknownEvent", QNN_PROFILE_ERROR_INVALID_HANDLE, [](World& w) {
    QnnProfile_ExtendedEventData_t d{};
    d.v1.value.uint64Value = 0x5e5e;
    Qnn_ErrorHandle_t rc = w.api().profileGetExtendedEventData(0x7777777777ull, &d);
    return Outcome{rc, d.v1.value.uint64Value == 0x5e5e};
  });
  handleRows("profileFree", Kind::kProfile, QNN_PROFILE_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().profileFree(h), true}; });

  // ---- QnnMem
  auto memRow = [](World& w, void* context, std::function<void(Qnn_MemDescriptor_t&)> edit) {
    uint32_t dims[] = {1, 4};
    Qnn_MemDescriptor_t d = QNN_MEM_DESCRIPTOR_INIT;
    d.memShape = {2, dims, nullptr};
    d.dataType = QNN_DATATYPE_FLOAT_32;
    d.memType = QNN_MEM_TYPE_ION;
    d.ionInfo.fd = w.memFd;
    if (edit) edit(d);
    Slot<Qnn_MemHandle_t> m;
    return Outcome{w.api().memRegister(context, &d, 1, &m.value), m.untouched()};
  };
  handleRows("memRegister", Kind::kContext, QNN_MEM_ERROR_INVALID_HANDLE,
             [memRow](World& w, void* h) { return memRow(w, h, nullptr); });
  row("memRegister_NullDescriptors", QNN_MEM_ERROR_INVALID_ARGUMENT, [](World& w) {
    Slot<Qnn_MemHandle_t> m;
    return Outcome{w.api().memRegister(w.context, nullptr, 1, &m.value), m.untouched()};
  });
  row("memRegister_BadFd", QNN_MEM_ERROR_MAPPING,
      [memRow](World& w) { return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) { d.ionInfo.fd = -1; }); });
  row("memRegister_FdTooSmall", QNN_MEM_ERROR_MAPPING, [memRow](World& w) {
    return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) {
      static uint32_t big[] = {1024, 1024};
      d.memShape = {2, big, nullptr};
    });
  });
  row("memRegister_ZeroDim", QNN_MEM_ERROR_INVALID_SHAPE, [memRow](World& w) {
    return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) {
      static uint32_t zero[] = {1, 0};
      d.memShape = {2, zero, nullptr};
    });
  });
  row("memRegister_DimsOverflow", QNN_MEM_ERROR_INVALID_SHAPE, [memRow](World& w) {
    return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) {
      static uint32_t huge[] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
      d.memShape = {3, huge, nullptr};
    });
  });
  row("memRegister_NoDims", QNN_MEM_ERROR_INVALID_SHAPE,
      [memRow](World& w) { return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) { d.memShape.numDim = 0; }); });
  row("memRegister_UnknownDatatype", QNN_MEM_ERROR_INVALID_SHAPE, [memRow](World& w) {
    return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) { d.dataType = Qnn_DataType_t(0x777); });
  });
  row("memRegister_UnknownMemType", QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE, [memRow](World& w) {
    return memRow(w, w.context, [](Qnn_MemDescriptor_t& d) { d.memType = Qnn_MemType_t(77); });
  });
  row("memDeRegister_Null", QNN_MEM_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().memDeRegister(nullptr, 1), true}; });
  for (auto [what, pick] : std::vector<std::pair<std::string, std::function<void*(World&)>>>{
           {"Forged", [](World&) { return kForged; }},
           {"Stale", [](World& w) { return w.stale[int(Kind::kMem)]; }},
           {"OtherKind", [](World& w) { return static_cast<void*>(w.context); }},
           {"OtherLibrary", [](World& w) { return w.foreign[int(Kind::kMem)]; }},
           {"NullInList", [](World&) { return static_cast<void*>(nullptr); }}}) {
    row("memDeRegister_" + what, QNN_MEM_ERROR_INVALID_HANDLE, [pick = pick](World& w) {
      // The live handle first, then the bad one: the whole call is refused, the live one stays registered.
      Qnn_MemHandle_t hs[] = {w.mem, pick(w)};
      Qnn_ErrorHandle_t rc = w.api().memDeRegister(hs, 2);
      Qnn_Tensor_t i = w.execIn(), o = w.execOut();
      i.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
      i.v1.memHandle = w.mem;
      bool stillRegistered = w.api().graphExecute(w.done, &i, 1, &o, 1, nullptr, nullptr) == QNN_SUCCESS;
      return Outcome{rc, stillRegistered};
    });
  }

  // ---- QnnDevice
  row("deviceCreate_NullOut", QNN_DEVICE_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().deviceCreate(w.log, nullptr, nullptr), true}; });
  handleRows("deviceCreate", Kind::kLog, QNN_DEVICE_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_DeviceHandle_t> d;
    return Outcome{w.api().deviceCreate(h, nullptr, &d.value), d.untouched()};
  }, true);
  row("deviceCreate_UnknownConfigOption", QNN_DEVICE_ERROR_INVALID_CONFIG, [](World& w) {
    QnnDevice_Config_t c = QNN_DEVICE_CONFIG_INIT;
    c.option = QnnDevice_ConfigOption_t(77);
    const QnnDevice_Config_t* cs[] = {&c, nullptr};
    Slot<Qnn_DeviceHandle_t> d;
    return Outcome{w.api().deviceCreate(w.log, cs, &d.value), d.untouched()};
  });
  handleRows("deviceSetConfig", Kind::kDevice, QNN_DEVICE_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().deviceSetConfig(h, nullptr), true}; });
  handleRows("deviceGetInfo", Kind::kDevice, QNN_DEVICE_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<const QnnDevice_PlatformInfo_t*> i;
    return Outcome{w.api().deviceGetInfo(h, &i.value), i.untouched()};
  });
  handleRows("deviceFree", Kind::kDevice, QNN_DEVICE_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().deviceFree(h), true}; });
  row("deviceGetPlatformInfo_NullOut", QNN_DEVICE_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().deviceGetPlatformInfo(w.log, nullptr), true}; });
  row("deviceGetPlatformInfo_CpuHasNone", QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE, [](World& w) {
    Slot<const QnnDevice_PlatformInfo_t*> i;
    return Outcome{w.api().deviceGetPlatformInfo(w.log, &i.value), i.untouched()};
  });
  row("deviceFreePlatformInfo_Null", QNN_DEVICE_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().deviceFreePlatformInfo(w.log, nullptr), true}; });
  row("deviceGetInfrastructure_NullOut", QNN_DEVICE_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().deviceGetInfrastructure(nullptr), true}; });

  // ---- QnnSignal
  handleRows("signalCreate", Kind::kBackend, QNN_SIGNAL_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<Qnn_SignalHandle_t> s;
    return Outcome{w.api().signalCreate(h, nullptr, &s.value), s.untouched()};
  });
  row("signalCreate_NullOut", QNN_SIGNAL_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().signalCreate(w.backend, nullptr, nullptr), true}; });
  handleRows("signalSetConfig", Kind::kSignal, QNN_SIGNAL_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().signalSetConfig(h, nullptr), true}; });
  row("signalSetConfig_UnknownOption", QNN_SIGNAL_ERROR_INVALID_ARGUMENT, [](World& w) {
    QnnSignal_Config_t c = QNN_SIGNAL_CONFIG_INIT;
    c.option = QnnSignal_ConfigOption_t(77);
    const QnnSignal_Config_t* cs[] = {&c, nullptr};
    return Outcome{w.api().signalSetConfig(w.signal, cs), true};
  });
  handleRows("signalTrigger", Kind::kSignal, QNN_SIGNAL_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().signalTrigger(h), true}; });
  row("signalTrigger_Idle", QNN_SIGNAL_ERROR_SIGNAL_IDLE,
      [](World& w) { return Outcome{w.api().signalTrigger(w.signal), true}; });
  handleRows("signalFree", Kind::kSignal, QNN_SIGNAL_ERROR_INVALID_HANDLE,
             [](World& w, void* h) { return Outcome{w.api().signalFree(h), true}; });

  // ---- QnnError, QnnGlobalConfig
  row("errorGetMessage_NullOut", QNN_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().errorGetMessage(QNN_GRAPH_ERROR_INVALID_HANDLE, nullptr), true}; });
  row("errorGetVerboseMessage_NullOut", QNN_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api().errorGetVerboseMessage(QNN_GRAPH_ERROR_INVALID_HANDLE, nullptr), true};
  });
  row("errorFreeVerboseMessage_Null", QNN_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api().errorFreeVerboseMessage(nullptr), true}; });
  row("globalConfigSet_UnknownOption", QNN_GLOBAL_CONFIG_ERROR_INVALID_CONFIG, [](World& w) {
    QnnGlobalConfig_t c = QNN_GLOBAL_CONFIG_INIT;
    c.option = QnnGlobalConfig_ConfigOption_t(77);
    const QnnGlobalConfig_t* cs[] = {&c, nullptr};
    return Outcome{w.api().globalConfigSet(cs), true};
  });
}

// The members API 2.39 appended (through the CPU's 2.39 table). contextAddToDlc has no rows
// yet: it answers NOT_SUPPORTED until the DLC work implements it.
void registerRows2_39() {
  handleRows("graphValidate", Kind::kGraph, QNN_GRAPH_ERROR_INVALID_HANDLE, [](World& w, void* h) {
    Slot<QnnGraph_ValidationResult_t*> r;
    return Outcome{w.api39().graphValidate(h, nullptr, &r.value), r.untouched()};
  });
  row("graphValidate_NullOut", QNN_GRAPH_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api39().graphValidate(w.open, nullptr, nullptr), true}; });
  row("graphValidate_NoNodes", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    Slot<QnnGraph_ValidationResult_t*> r;
    return Outcome{w.api39().graphValidate(w.open, nullptr, &r.value), r.untouched()};
  });
  row("graphValidate_Finalized", QNN_GRAPH_ERROR_GRAPH_FINALIZED, [](World& w) {
    Slot<QnnGraph_ValidationResult_t*> r;
    return Outcome{w.api39().graphValidate(w.done, nullptr, &r.value), r.untouched()};
  });
  row("graphValidate_UnknownOption", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    QnnGraph_ValidateConfig_t c = QNN_GRAPH_VALIDATE_CONFIG_INIT;
    c.option = QnnGraph_ValidateOption_t(77);
    const QnnGraph_ValidateConfig_t* cs[] = {&c, nullptr};
    Slot<QnnGraph_ValidationResult_t*> r;
    return Outcome{w.api39().graphValidate(w.done, cs, &r.value), r.untouched()};
  });
  row("graphFreeValidationResult_Null", QNN_GRAPH_ERROR_INVALID_ARGUMENT,
      [](World& w) { return Outcome{w.api39().graphFreeValidationResult(nullptr), true}; });
  row("graphFreeValidationResult_Forged", QNN_GRAPH_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api39().graphFreeValidationResult(static_cast<QnnGraph_ValidationResult_t*>(kForged)), true};
  });
  handleRows("backendRegisterOpPackageFromBinary", Kind::kBackend, QNN_BACKEND_ERROR_INVALID_HANDLE,
             [](World& w, void* h) {
               static const char bytes[64] = "not an ELF file";
               return Outcome{w.api39().backendRegisterOpPackageFromBinary(h, bytes, sizeof bytes, "Provider", nullptr),
                              true};
             });
  row("backendRegisterOpPackageFromBinary_NullBuffer", QNN_BACKEND_ERROR_INVALID_ARGUMENT, [](World& w) {
    return Outcome{w.api39().backendRegisterOpPackageFromBinary(w.backend, nullptr, 64, "Provider", nullptr), true};
  });
  row("backendRegisterOpPackageFromBinary_ZeroSize", QNN_BACKEND_ERROR_INVALID_ARGUMENT, [](World& w) {
    static const char bytes[64] = {};
    return Outcome{w.api39().backendRegisterOpPackageFromBinary(w.backend, bytes, 0, "Provider", nullptr), true};
  });
  row("backendRegisterOpPackageFromBinary_NotALibrary", QNN_BACKEND_ERROR_OP_PACKAGE_LOAD_FROM_BUFFER_FAILED,
      [](World& w) {
        static const char bytes[4096] = "\x7f" "ELF but no more than that";
        return Outcome{w.api39().backendRegisterOpPackageFromBinary(w.backend, bytes, sizeof bytes, "Provider",
                                                                   nullptr),
                       true};
      });
}

// Refusals on the paths ONNX Runtime's QNN EP takes that say what was refused and
// why, not only the error code's text (the runtime's fallback line).
void registerMentions() {
  const std::pair<const char*, const char*> mentions[] = {
      {"backendCreate_NullOut", "QnnBackend_create: backend (the handle out) is null"},
      {"backendSetConfig_UnknownOption", "QnnBackend_setConfig: config 0: unknown option 77"},
      {"contextCreate_ForgedBackend", "QnnContext_create: backend is not a live backend handle"},
      {"contextCreate_ForgedDevice", "QnnContext_create: device is not a live device handle"},
      {"contextCreate_NullOut", "QnnContext_create: context (the handle out) is null"},
      {"contextCreateFromBinary_NullBuffer", "QnnContext_createFromBinary: binaryBuffer is null"},
      {"contextCreateFromBinary_ZeroSize", "QnnContext_createFromBinary: binaryBufferSize is 0"},
      {"contextCreateFromBinary_NullOut", "QnnContext_createFromBinary: context (the handle out) is null"},
      {"graphCreate_ForgedContext", "QnnGraph_create: context is not a live context handle"},
      {"graphCreate_NullName", "QnnGraph_create: graphName is null"},
      {"graphCreate_NullOut", "QnnGraph_create: graph (the handle out) is null"},
      {"deviceCreate_NullOut", "QnnDevice_create: device (the handle out) is null"},
      {"profileCreate_BadLevel", "QnnProfile_create: level 77 is not supported"},
      {"profileCreate_NullOut", "QnnProfile_create: profile (the handle out) is null"},
      {"signalSetConfig_UnknownOption", "QnnSignal_setConfig: unknown signal config option"},
      {"contextGetBinarySize_NullOut", "QnnContext_getBinarySize: binaryBufferSize (out) is null"},
      {"contextGetBinary_NullBuffer", "QnnContext_getBinary: binaryBuffer is null"},
      {"contextGetBinary_NullWritten", "QnnContext_getBinary: writtenBufferSize (out) is null"},
      {"graphRetrieve_NullName", "QnnGraph_retrieve: graphName is null"},
      {"graphRetrieve_NullOut", "QnnGraph_retrieve: graph (the handle out) is null"},
      {"memRegister_NullDescriptors", "QnnMem_register: memDescriptors is null"},
  };
  for (const auto& [name, text] : mentions) {
    bool found = false;
    for (Row& r : rows())
      if (r.name == name) r.mention = text, found = true;
    if (!found) ADD_FAILURE() << "no misuse row named " << name;
  }
}

const std::vector<Row>& table() {
  static bool made = (registerRows(), registerRows2_39(), registerMentions(), true);
  (void)made;
  return rows();
}

class MisuseTable : public ::testing::TestWithParam<size_t> {};

TEST_P(MisuseTable, ReturnsItsCodeLeavesOutputsAndLogsOneLine) {
  World& w = world();
  ASSERT_TRUE(w.built) << "the world could not be built: " << w.buildError;
  const Row& r = table()[GetParam()];
  {
    std::lock_guard<std::mutex> lock(errorLines().mu);
    errorLines().lines.clear();
  }
  Outcome o = r.call(w);
  std::vector<std::string> lines;
  {
    std::lock_guard<std::mutex> lock(errorLines().mu);
    lines = errorLines().lines;
  }
  EXPECT_EQ(o.rc, r.expected) << r.name;
  EXPECT_TRUE(o.untouched) << r.name << ": an output was written";
  std::string all;
  for (const auto& l : lines) all += "\n  " + l;
  if (r.expected != QNN_PROPERTY_ERROR_UNKNOWN_KEY) { EXPECT_EQ(lines.size(), 1u) << r.name << all; }
  if (!r.mention.empty() && !lines.empty()) { EXPECT_NE(lines[0].find(r.mention), std::string::npos) << r.name << all; }
}

INSTANTIATE_TEST_SUITE_P(EveryEntry, MisuseTable, ::testing::Range<size_t>(0, table().size()),
                         [](const ::testing::TestParamInfo<size_t>& i) { return table()[i.param].name; });

// A context binary of another format (the vendor's SDK writes its own, unpublished
// one) is refused by both backends with one line that names the cause and the bytes found.
TEST(ForeignContextBinary, RefusalNamesTheCause) {
  World& w = world();
  ASSERT_TRUE(w.built) << "the world could not be built: " << w.buildError;
  std::vector<uint8_t> vendorLike(4096, 0);
  const uint8_t head[8] = {0x51, 0x4e, 0x4e, 0x42, 0x01, 0x00, 0x02, 0x00};
  std::copy(head, head + 8, vendorLike.begin());
  for (bool htp : {false, true}) {
    {
      std::lock_guard<std::mutex> lock(errorLines().mu);
      errorLines().lines.clear();
    }
    const QNN_INTERFACE_VER_TYPE& a = htp ? w.htp.api() : w.api();
    void* backend = htp ? w.foreign[int(Kind::kBackend)] : w.backend;
    Qnn_ContextHandle_t c = nullptr;
    EXPECT_EQ(a.contextCreateFromBinary(backend, nullptr, nullptr, vendorLike.data(), vendorLike.size(), &c, nullptr),
              QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
    EXPECT_EQ(c, nullptr);
    std::lock_guard<std::mutex> lock(errorLines().mu);
    ASSERT_EQ(errorLines().lines.size(), 1u) << "htp " << htp;
    const std::string& line = errorLines().lines[0];
    EXPECT_NE(line.find("QnnContext_createFromBinary"), std::string::npos) << line;
    EXPECT_NE(line.find("51 4e 4e 42 01 00 02 00"), std::string::npos) << line;
    EXPECT_NE(line.find("not an OpenQNN context binary"), std::string::npos) << line;
    EXPECT_NE(line.find("vendor's QNN SDK"), std::string::npos) << line;
  }
}

// The members of the current function table, read from the header the way a
// reader of it would: the fields of QnnInterface_ImplementationV2_32_t.
std::vector<std::string> tableMembers() {
  std::ifstream in(QNN_TEST_INTERFACE_HEADER);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string end = "} QnnInterface_ImplementationV2_32_t;";
  size_t close = text.find(end), open = text.rfind("typedef struct {", close);
  std::vector<std::string> members;
  if (close == std::string::npos || open == std::string::npos) return members;
  std::string body = text.substr(open, close - open);
  std::regex field(R"((\w+);)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), field); it != std::sregex_iterator(); ++it)
    members.push_back((*it)[1]);
  return members;
}

// The table reaches every member of the function table, and of 2.39's but contextAddToDlc.
TEST(MisuseTableCoverage, EveryTableMemberHasRows) {
  std::vector<std::string> members = tableMembers();
  EXPECT_EQ(members.size(), 71u);
  for (const char* m : {"graphValidate", "graphFreeValidationResult", "backendRegisterOpPackageFromBinary"})
    members.push_back(m);
  std::string missing;
  for (const std::string& m : members) {
    bool found = false;
    for (const Row& r : table()) found = found || r.name.rfind(m + "_", 0) == 0;
    if (!found) missing += " " + m;
  }
  EXPECT_TRUE(missing.empty()) << "members without rows:" << missing;
  EXPECT_GE(table().size(), 300u);
  std::printf("misuse table: %zu rows over %zu members\n", table().size(), members.size());
}

}  // namespace
}  // namespace qnn::test
