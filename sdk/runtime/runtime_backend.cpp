// QnnBackend entry points: creation, configs, op packages, supported ops, op validation.
#include "runtime/runtime.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "opdefs/op_catalog.h"
#include "adapters/client_datatypes.h"
#include "runtime/qnn_convert.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

Qnn_ErrorHandle_t Runtime::backendCreate(Qnn_LogHandle_t logger, const QnnBackend_Config_t** config,
                                         Qnn_BackendHandle_t* backend) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!backend) return refuse(nullptr, "QnnBackend_create", "backend (the handle out) is null", QNN_BACKEND_ERROR_INVALID_ARGUMENT);
    auto obj = std::make_shared<BackendObject>();
    if (logger) {
      auto log = handles().get<Logger>(logger, HandleKind::kLog);
      if (!log)
        return refuse(nullptr, "QnnBackend_create", "logger is not a live log handle of this library",
                      QNN_BACKEND_ERROR_INVALID_HANDLE);
      obj->logger = log;
    }
    if (config) {
      for (size_t i = 0; config[i]; ++i) {
        switch (config[i]->option) {
          case QNN_BACKEND_CONFIG_OPTION_CUSTOM:
            if (config[i]->customConfig && desc_.hooks) {
              Status st = desc_.hooks->applyBackendCustomConfig(config[i]->customConfig);
              if (!st.isOk()) {
                logMessage(obj->logger.get(), QNN_LOG_LEVEL_ERROR, "QnnBackend_create: " + st.message());
                return QNN_BACKEND_ERROR_INVALID_CONFIG;
              }
            }
            break;
          case QNN_BACKEND_CONFIG_OPTION_ERROR_REPORTING:
          case QNN_BACKEND_CONFIG_OPTION_PLATFORM:
            break;
          default:
            logMessage(obj->logger.get(), QNN_LOG_LEVEL_ERROR,
                       "QnnBackend_create: unknown config option " + std::to_string(config[i]->option));
            return QNN_BACKEND_ERROR_INVALID_CONFIG;
        }
      }
    }
    obj->engine = desc_.createEngine();
    if (!obj->engine)
      return refuse(obj->logger.get(), "QnnBackend_create",
                    std::string("the ") + desc_.providerName + " execution engine could not be created",
                    QNN_BACKEND_ERROR_CANNOT_INITIALIZE);
    if (desc_.opPackageInfrastructure) obj->engine->setOpPackages(obj->opPackages);
    if (obj->logger) rememberLastLogger(obj->logger);
    logMessage(obj->logger.get(), QNN_LOG_LEVEL_INFO, std::string(desc_.providerName) + " backend created");
    *backend = handles().add(obj);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendSetConfig(Qnn_BackendHandle_t backend, const QnnBackend_Config_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!config) return QNN_SUCCESS;
    for (size_t i = 0; config[i]; ++i) {
      if (config[i]->option > QNN_BACKEND_CONFIG_OPTION_PLATFORM)
        return refuse(loggerOf(b), "QnnBackend_setConfig",
                      "config " + std::to_string(i) + ": unknown option " + std::to_string(config[i]->option),
                      QNN_BACKEND_ERROR_INVALID_CONFIG);
      if (config[i]->option == QNN_BACKEND_CONFIG_OPTION_CUSTOM && config[i]->customConfig && desc_.hooks) {
        Status st = desc_.hooks->applyBackendCustomConfig(config[i]->customConfig);
        if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_setConfig", st),
                               QNN_BACKEND_ERROR_INVALID_CONFIG;
      }
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendGetApiVersion(Qnn_ApiVersion_t* version) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!version) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    *version = apiVersion();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendGetBuildId(const char** id) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!id) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    *id = desc_.buildId;
    return QNN_SUCCESS;
  });
}

static bool sameIgnoringCase(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Qnn_ErrorHandle_t Runtime::backendRegisterOpPackage(Qnn_BackendHandle_t backend, const char* path,
                                                    const char* provider, const char* target) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const std::string api = "QnnBackend_registerOpPackage: ";
    return registerOpPackage(backend, path ? path : "", provider, target, api,
                             std::string("'") + (path ? path : "") + "'", QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND);
  });
}

Qnn_ErrorHandle_t Runtime::backendRegisterOpPackageFromBinary(Qnn_BackendHandle_t backend, const void* buffer,
                                                              uint64_t size, const char* provider,
                                                              const char* target) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const std::string api = "QnnBackend_registerOpPackageFromBinary: ";
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!buffer || size == 0) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR,
                 api + (buffer ? "opPackageBufferSize is 0" : "opPackageBuffer is null"));
      return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    }
    // The bytes become a file only the process sees; dlopen takes it by its /proc path. The
    // descriptor stays open for the life of the process: glibc knows a loaded library by its
    // path, so a number reused for other bytes would hand back the first package.
    int fd = memfd_create("openqnn-op-package", MFD_CLOEXEC);
    if (fd < 0) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, api + "memfd_create failed: " + std::strerror(errno));
      return QNN_BACKEND_ERROR_OP_PACKAGE_LOAD_FROM_BUFFER_FAILED;
    }
    const auto* p = static_cast<const uint8_t*>(buffer);
    for (uint64_t done = 0; done < size;) {
      ssize_t n = ::write(fd, p + done, size_t(std::min<uint64_t>(size - done, 1u << 30)));
      if (n <= 0) {
        logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, api + "writing the package bytes failed: " + std::strerror(errno));
        ::close(fd);
        return QNN_BACKEND_ERROR_OP_PACKAGE_LOAD_FROM_BUFFER_FAILED;
      }
      done += uint64_t(n);
    }
    Qnn_ErrorHandle_t rc = registerOpPackage(backend, "/proc/self/fd/" + std::to_string(fd), provider, target, api,
                                             "from memory (" + std::to_string(size) + " bytes)",
                                             QNN_BACKEND_ERROR_OP_PACKAGE_LOAD_FROM_BUFFER_FAILED);
    if (rc != QNN_SUCCESS) ::close(fd);
    return rc;
  });
}

Qnn_ErrorHandle_t Runtime::registerOpPackage(Qnn_BackendHandle_t backend, const std::string& path,
                                             const char* provider, const char* target, const std::string& api,
                                             const std::string& shown, Qnn_ErrorHandle_t loadFailure) {
  auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
  if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
  const Logger* log = loggerOf(b);
  if (!desc_.opPackageInfrastructure) {
    logMessage(log, QNN_LOG_LEVEL_ERROR, api + "this backend does not take op packages");
    return QNN_COMMON_ERROR_NOT_SUPPORTED;
  }
  if (path.empty() || !provider || !*provider) {
    logMessage(log, QNN_LOG_LEVEL_ERROR, api + "the library path and the interface provider name are required");
    return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
  }
  if (target && *target && !desc_.opPackageTargets.empty() &&
      std::none_of(desc_.opPackageTargets.begin(), desc_.opPackageTargets.end(),
                   [&](const std::string& t) { return sameIgnoringCase(t, target); })) {
    logMessage(log, QNN_LOG_LEVEL_ERROR,
               api + "op package " + shown + " is for target '" + target + "', which this backend does not run");
    return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
  }
  OpPackageHost host;
  host.infrastructure = desc_.opPackageInfrastructure;
  host.backendApiMajor = desc_.backendApiMajor;
  host.backendId = desc_.backendId;
  setOpPackageLogger(b->logger);
  OpPackageLoadResult loaded = loadOpPackage(path, provider, host, b->logger);
  if (loaded.error != QNN_SUCCESS) {
    logMessage(log, QNN_LOG_LEVEL_ERROR, api + loaded.message);
    // A library that cannot be loaded at all: not found (a path) or bytes that are no library.
    return loaded.error == QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND ? loadFailure : loaded.error;
  }
  const std::string name = loaded.package->name();
  if (name == kBuiltinOpPackage || !b->opPackages->add(loaded.package)) {
    logMessage(log, QNN_LOG_LEVEL_ERROR,
               api + "an op package named '" + name + "' is already registered with this backend");
    return QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE;
  }
  logMessage(log, QNN_LOG_LEVEL_INFO,
             api + "registered op package '" + name + "' (" + std::to_string(loaded.package->opNames().size()) +
                 " ops) " + (shown.front() == '\'' ? "from " : "") + shown);
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t Runtime::backendGetSupportedOperations(Qnn_BackendHandle_t backend, uint32_t* num,
                                                         const QnnBackend_OperationName_t** ops) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!num || !ops) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    if (!backend) {  // "Can be NULL to obtain the built-in op package" (QnnBackend.h)
      std::call_once(builtinOpsOnce_, [this] {
        std::unique_ptr<ExecutionEngine> engine = desc_.createEngine();
        if (engine) builtinOpNames_ = engine->supportedOps();
        for (auto& n : builtinOpNames_) builtinOps_.push_back({kBuiltinOpPackage, n.c_str(), nullptr});
      });
      *num = static_cast<uint32_t>(builtinOps_.size());
      *ops = builtinOps_.data();
      return QNN_SUCCESS;
    }
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    std::lock_guard<std::mutex> lock(b->mutex);
    // Built once, and again only when packages were registered since: an array
    // handed out stays valid as long as the set of packages does not change.
    auto packages = b->opPackages->all();
    if (b->opNames.empty() || packages != b->listedOpPackages) {
      b->opNameEntries.clear();
      if (b->opNames.empty()) b->opNames = b->engine->supportedOps();
      for (auto& n : b->opNames) b->opNameEntries.push_back({kBuiltinOpPackage, n.c_str(), nullptr});
      b->listedOpPackages = std::move(packages);
      for (auto& pkg : b->listedOpPackages)
        for (auto& n : pkg->opNames()) b->opNameEntries.push_back({pkg->name().c_str(), n.c_str(), nullptr});
    }
    *num = static_cast<uint32_t>(b->opNameEntries.size());
    *ops = b->opNameEntries.data();
    return QNN_SUCCESS;
  });
}


Qnn_ErrorHandle_t Runtime::backendValidateOpConfig(Qnn_BackendHandle_t backend, Qnn_OpConfig_t opConfig) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    // QnnBackend.h: a package not registered is OP_PACKAGE_NOT_FOUND; every other
    // refusal of the op config is QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE.
    auto refused = [&](const Status& st) -> Qnn_ErrorHandle_t {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnBackend_validateOpConfig: " + st.message());
      return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    };
    if (opConfig.version == QNN_OPCONFIG_VERSION_1 && opConfig.v1.packageName &&
        std::string(opConfig.v1.packageName) != kBuiltinOpPackage && !b->opPackages->find(opConfig.v1.packageName)) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR,
                 std::string("QnnBackend_validateOpConfig: op package '") + opConfig.v1.packageName +
                     "' is not registered with this backend");
      return QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND;
    }
    NodeInfo node;
    Status st = readNode(opConfig, *b->opPackages, &node);
    if (!st.isOk()) return refused(st);
    std::vector<TensorInfo> ins(opConfig.v1.numOfInputs), outs(opConfig.v1.numOfOutputs);
    std::vector<const TensorInfo*> inPtrs, outPtrs;
    for (uint32_t i = 0; i < opConfig.v1.numOfInputs; ++i) {
      st = readTensorInfo(opConfig.v1.inputTensors[i], TensorUse::kParam, &ins[i]);
      // The op config's tensors need not carry data; only shapes and types count.
      if (!st.isOk() && ins[i].dims.empty()) {
        const Qnn_TensorV1_t& v = tensorFields(opConfig.v1.inputTensors[i]);
        ins[i].name = v.name ? v.name : "";
        // The declared type still counts (a static weight may take encodings other inputs may not).
        if (static_cast<uint32_t>(v.type) <= QNN_TENSOR_TYPE_NULL) ins[i].kind = static_cast<TensorKind>(v.type);
        // Narrow types are judged in the form the record keeps (8-bit containers, FLOAT_32).
        ins[i].dtype = storageDType(v.dataType);
        const uint32_t packed = packedBits(v.dataType);
        if (packed || isMiniFloat(v.dataType)) ins[i].clientDataType = v.dataType;
        for (uint32_t d = 0; v.dimensions && d < v.rank; ++d) ins[i].dims.push_back(v.dimensions[d]);
        Status q = Status::ok();
        if (isMiniFloat(v.dataType))
          q = checkMiniFloatEncoding("input '" + ins[i].name + "'", v.dataType, v.quantizeParams, ins[i].dims);
        else
          q = readQuantization(v.quantizeParams, ins[i].dims, &ins[i].quant);
        if (q.isOk() && packed && dtypeIsFixedPoint(ins[i].dtype))
          q = applyPackedBitWidth("input '" + ins[i].name + "'", qnnDatatypeName(v.dataType), packed, &ins[i].quant);
        if (!q.isOk()) return refused(q);
      }
      st = b->engine->acceptTensor(ins[i]);
      if (!st.isOk()) return refused(st);
      inPtrs.push_back(&ins[i]);
    }
    for (uint32_t i = 0; i < opConfig.v1.numOfOutputs; ++i) {
      const Qnn_TensorV1_t& v = tensorFields(opConfig.v1.outputTensors[i]);
      outs[i].name = v.name ? v.name : "";
      outs[i].dtype = static_cast<DType>(v.dataType);
      for (uint32_t d = 0; v.dimensions && d < v.rank; ++d) outs[i].dims.push_back(v.dimensions[d]);
      Status q = readQuantization(v.quantizeParams, outs[i].dims, &outs[i].quant);
      if (!q.isOk()) return refused(q);
      outPtrs.push_back(&outs[i]);
    }
    st = checkOmittedInputs(node, inPtrs);
    if (!st.isOk()) return refused(st);
    dropTrailingOmittedInputs(&inPtrs, nullptr);
    st = b->engine->validateNode(node, inPtrs, outPtrs);
    if (!st.isOk()) return refused(st);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendFree(Qnn_BackendHandle_t backend) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    // Asynchronous loads finish first: each adds its context to the backend.
    if (auto b = handles().get<BackendObject>(backend, HandleKind::kBackend)) {
      std::vector<std::thread> loaders;
      {
        std::lock_guard<std::mutex> lock(b->mutex);
        loaders.swap(b->loaders);
      }
      for (auto& t : loaders) t.get_id() == std::this_thread::get_id() ? t.detach() : t.join();
    }
    auto obj = std::static_pointer_cast<BackendObject>(handles().remove(backend, HandleKind::kBackend));
    if (!obj) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    // Freeing a backend frees everything created from it that is still alive.
    std::set<void*> contexts;
    {
      std::lock_guard<std::mutex> lock(obj->mutex);
      contexts.swap(obj->contexts);
    }
    for (void* c : contexts)
      if (auto ctx = handles().remove(c, HandleKind::kContext))
        freeContextObject(std::static_pointer_cast<ContextObject>(ctx));
    // Each package is terminated and unloaded once no other backend handle or
    // prepared graph still uses it.
    obj->opPackages->clear();
    return QNN_SUCCESS;
  });
}

// No backend of this project defines custom backend properties (the 2.32
// headers give CPU and HTP none), so a well-formed CUSTOM request is answered
// with the group's NOT_SUPPORTED code.
Qnn_ErrorHandle_t Runtime::backendGetProperty(Qnn_BackendHandle_t backend, QnnBackend_Property_t** properties) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    Status st = checkPropertyList(properties, QNN_BACKEND_PROPERTY_OPTION_CUSTOM);
    if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_getProperty", st);
    if (!properties[0]) return QNN_SUCCESS;
    logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR,
               std::string("QnnBackend_getProperty: the ") + desc_.providerName +
                   " backend defines no custom backend properties");
    return QNN_BACKEND_ERROR_NOT_SUPPORTED;
  });
}

}  // namespace qnn::sdk
