#include "saver/saver_state.h"

#include "runtime/providers.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "saver/saver_log.h"

namespace qnn::saver {
namespace {

uint64_t threadNumber() {
  static std::atomic<uint64_t> next{1};
  thread_local uint64_t mine = next++;
  return mine;
}

}  // namespace

namespace {
std::atomic<SaverState*> instance{nullptr};
std::atomic<uint64_t> clientApi{0};  // (major << 32 | minor) + 1, 0 until a provider was asked for
}  // namespace

void noteClientApi(uint32_t major, uint32_t minor) { clientApi = ((uint64_t(major) << 32) | minor) + 1; }

SaverState& SaverState::get() {
  // Never destroyed: entries may run from other libraries' destructors at exit.
  static SaverState* s = [] {
    SaverState* created = new SaverState();
    instance = created;
    return created;
  }();
  return *s;
}

SaverState* SaverState::peek() { return instance.load(); }

SaverState::SaverState() {
  const char* path = std::getenv("QNN_SAVER_BACKEND");
  if (!path || !*path) return;
  lib_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    logError(std::string("QNN_SAVER_BACKEND: cannot load ") + path + ": " + dlerror() + "; recording only");
    return;
  }
  // An OpenQNN backend is asked for the Saver's own layout by name: QNN_OPENQNN_CLIENT_API
  // describes the Saver's client, not the Saver, and would otherwise reach the backend too.
  // Its 2.39 table when it has one, so that the 2.39 calls pass through.
  auto getForApi = reinterpret_cast<sdk::GetProvidersForApiFn>(dlsym(lib_, "OpenQnn_getProvidersForClientApi"));
  auto get = reinterpret_cast<sdk::GetProvidersFn>(dlsym(lib_, "QnnInterface_getProviders"));
  const QnnInterface_t* chosen = sdk::providerToCallThrough(getForApi, get, &realTable_);
  if (chosen) {
    real_ = &chosen->QNN_INTERFACE_VER_NAME;
    realBackendId_ = chosen->backendId;
  }
  if (!real_) logError(std::string("QNN_SAVER_BACKEND: no compatible provider in ") + path + "; recording only");
}

Qnn_ErrorHandle_t SaverState::initialize(const QnnSaver_Config_t** config, trace::Value& recorded) {
  std::lock_guard<std::mutex> lock(mu_);
  // Validate every entry first: a refused array changes nothing.
  for (size_t k = 0; config && config[k]; ++k) {
    QnnSaver_ConfigOption_t o = config[k]->option;
    if (o != QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY && o != QNN_SAVER_CONFIG_OPTION_APPEND_TIMESTAMP &&
        o != QNN_SAVER_CONFIG_OPTION_BACKEND_ID && o != QNN_SAVER_CONFIG_OPTION_FILE_CONFIG)
      return QNN_COMMON_ERROR_INVALID_ARGUMENT;
    if (o == QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY && !config[k]->outputDirectory)
      return QNN_COMMON_ERROR_INVALID_ARGUMENT;
  }
  trace::Value list = trace::Value::list();
  for (size_t k = 0; config && config[k]; ++k) {
    const QnnSaver_Config_t& c = *config[k];
    trace::Value v = trace::Value::record();
    v.add("option", trace::Value::uint(uint32_t(c.option)));
    switch (c.option) {
      case QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY:
        if (!started_) outputDir_ = c.outputDirectory;
        v.add("outputDirectory", trace::Value::str(c.outputDirectory));
        break;
      case QNN_SAVER_CONFIG_OPTION_APPEND_TIMESTAMP:
        if (!started_) appendTimestamp_ = c.appendTimestamp != 0;
        v.add("appendTimestamp", trace::Value::uint(c.appendTimestamp));
        break;
      case QNN_SAVER_CONFIG_OPTION_BACKEND_ID:
        if (!started_) backendId_ = c.backendId;
        v.add("backendId", trace::Value::uint(c.backendId));
        break;
      case QNN_SAVER_CONFIG_OPTION_FILE_CONFIG:
        if (!started_ && c.fileConfig.modelFileName && *c.fileConfig.modelFileName)
          sourceFileName_ = c.fileConfig.modelFileName;
        if (!started_ && c.fileConfig.dataFileName && *c.fileConfig.dataFileName)
          paramsFileName_ = c.fileConfig.dataFileName;
        v.add("modelFileName", trace::Value::str(c.fileConfig.modelFileName));
        v.add("dataFileName", trace::Value::str(c.fileConfig.dataFileName));
        break;
      default: return QNN_COMMON_ERROR_INVALID_ARGUMENT;
    }
    list.push(std::move(v));
  }
  recorded.add("config", std::move(list));
  // The vendor's rule: configuration only before the first API call.
  return started_ ? Qnn_ErrorHandle_t(QNN_SAVER_ERROR_ALREADY_INSTANTIATED) : Qnn_ErrorHandle_t(QNN_SUCCESS);
}

void SaverState::openTraceLocked() {
  if (started_) return;
  started_ = true;
  std::filesystem::path dir(outputDir_);
  if (appendTimestamp_) {
    char stamp[32];
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d_%H-%M-%S", &tm);
    dir /= stamp;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  openedDir_ = dir.string();
  std::string error;
  if (!writer_.open((dir / "saver_output.qnntrace").string(), &error)) logError("Saver: " + error);
}

uint32_t SaverState::customConfigBackendId() {
  std::lock_guard<std::mutex> lock(mu_);
  return backendId_ ? backendId_ : realBackendId_;
}

std::string SaverState::traceDir() {
  std::lock_guard<std::mutex> lock(mu_);
  return openedDir_;
}

trace::Value SaverState::blob(const void* data, uint64_t size) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    openTraceLocked();
  }
  return writer_.putBlob(data, size);
}

void SaverState::record(trace::CallRecord& call) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    openTraceLocked();
    uint64_t api = clientApi.load();
    if (api && api != clientApiWritten_) {
      trace::Value version = trace::Value::record(), info = trace::Value::record();
      version.add("major", trace::Value::uint((api - 1) >> 32));
      version.add("minor", trace::Value::uint((api - 1) & 0xffffffffu));
      info.add("clientApi", std::move(version));
      writer_.writeInfo(info);
      clientApiWritten_ = api;
    }
  }
  call.threadId = threadNumber();
  writer_.writeCall(call);
  ++callsSinceProgram_;
  // A freed backend or context is a resting point: the replay program follows.
  if (call.call() == trace::Call::contextFree || call.call() == trace::Call::backendFree)
    writeReplayProgram(true);
}

}  // namespace qnn::saver
