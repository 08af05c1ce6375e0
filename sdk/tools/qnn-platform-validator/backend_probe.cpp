#include "tools/qnn-platform-validator/backend_probe.h"

#include <sys/stat.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "HTP/QnnHtpDevice.h"
#include "QnnDevice.h"
#include "Saver/QnnSaver.h"
#include "tools/common/dynamic_library.h"
#include "tools/common/log_level.h"
#include "tools/common/qnn_backend.h"
#include "tools/common/tool_error.h"
#include "tools/qnn-platform-validator/validation_graph.h"

namespace qnn::tools {
namespace {

bool isFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string versionText(const Qnn_Version_t& v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

// "HTP V73, SoC model 60, VTCM 8 MB" from the HTP's device info extension; the other
// backends' extensions are not interpreted (only their device count is told).
std::string describeDevice(const QNN_INTERFACE_VER_TYPE& api, bool isHtp) {
  if (!api.deviceGetPlatformInfo) return "";
  const QnnDevice_PlatformInfo_t* info = nullptr;
  if (api.deviceGetPlatformInfo(nullptr, &info) != QNN_SUCCESS || !info) return "";
  std::string text;
  if (info->version == QNN_DEVICE_PLATFORM_INFO_VERSION_1) {
    const QnnDevice_PlatformInfoV1_t& v1 = info->v1;
    for (uint32_t i = 0; i < v1.numHwDevices && v1.hwDevices; ++i) {
      const QnnDevice_HardwareDeviceInfo_t& hw = v1.hwDevices[i];
      if (!text.empty()) text += "; ";
      text += "device " + std::to_string(hw.v1.deviceId) + " (" + std::to_string(hw.v1.numCores) + " core" +
              (hw.v1.numCores == 1 ? "" : "s") + ")";
      if (isHtp && hw.v1.deviceInfoExtension) {
        const auto* ext = reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(hw.v1.deviceInfoExtension);
        if (ext->devType == QNN_HTP_DEVICE_TYPE_ON_CHIP)
          text += ": HTP V" + std::to_string(static_cast<uint32_t>(ext->onChipDevice.arch)) + ", SoC model " +
                  std::to_string(ext->onChipDevice.socModel) + ", VTCM " +
                  std::to_string(ext->onChipDevice.vtcmSize) + " MB";
      }
    }
  }
  if (api.deviceFreePlatformInfo) api.deviceFreePlatformInfo(nullptr, info);
  return text;
}

// The backend's error lines, kept for the report (a failed QnnDevice_create has no handle
// to ask QnnError_getMessage about); every line is echoed to stderr under --debug.
std::mutex gLogMutex;
std::string gLastError;
bool gEchoLog = false;

void captureLog(const char* fmt, QnnLog_Level_t level, uint64_t, va_list args) {
  const std::string message = formatLogMessage(fmt, args);
  std::lock_guard<std::mutex> lock(gLogMutex);
  if (level == QNN_LOG_LEVEL_ERROR) gLastError = message;
  if (gEchoLog) std::fprintf(stderr, "[qnn %s] %s\n", logLevelName(level), message.c_str());
}

std::string takeLastError() {
  std::lock_guard<std::mutex> lock(gLogMutex);
  std::string e;
  e.swap(gLastError);
  return e;
}

}  // namespace

const std::vector<BackendKind>& knownBackends() {
  static const std::vector<BackendKind> kinds = {
      {"cpu", "libQnnCpu.so"}, {"gpu", "libQnnGpu.so"}, {"htp", "libQnnHtp.so"}, {"saver", "libQnnSaver.so"}};
  return kinds;
}

std::string findLibrary(const std::string& sdkRoot, const std::string& library) {
  for (const char* sub : {"/lib/x86_64-linux-clang/", "/lib/"}) {
    const std::string path = sdkRoot + sub + library;
    if (isFile(path)) return path;
  }
  return "";
}

ProbeResult probeBackend(const BackendKind& kind, const ProbeOptions& options) {
  ProbeResult r;
  r.backend = kind.name;
  r.libraryPath = findLibrary(options.sdkRoot, kind.library);
  r.found = !r.libraryPath.empty();
  if (!r.found) {
    r.message = kind.library + " not found under " + options.sdkRoot + "/lib/x86_64-linux-clang or " +
                options.sdkRoot + "/lib" + (kind.name == "gpu" ? " (OpenQNN has no GPU backend)" : "");
    return r;
  }
  const bool isHtp = kind.name == "htp";
  try {
    // The Saver is told where to write before its backend exists (same dlopen handle as the
    // backend's, so the setting reaches it): under ./output, never the working directory.
    DynamicLibrary saverLib;
    if (kind.name == "saver") {
      if (!saverLib.open(r.libraryPath)) throw ToolError("cannot load '" + r.libraryPath + "': " + saverLib.error());
      using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
      if (auto init = saverLib.function<Init>("QnnSaver_initialize")) {
        QnnSaver_Config_t dir = QNN_SAVER_CONFIG_INIT;
        dir.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
        dir.outputDirectory = "output/saver_output";
        const QnnSaver_Config_t* configs[] = {&dir, nullptr};
        if (init(configs) != QNN_SUCCESS) throw ToolError("QnnSaver_initialize failed");
      }
      // The Saver keeps its recording state for the life of the process (it never frees it: calls may
      // come from other libraries' destructors at exit); unloading it would strand that state.
      saverLib.keepLoaded();
    }
    QnnHtpDevice_CustomConfig_t archConfig{};
    QnnDevice_Config_t deviceConfig = QNN_DEVICE_CONFIG_INIT;
    const QnnDevice_Config_t* deviceConfigs[] = {&deviceConfig, nullptr};
    const bool pinArch = isHtp && options.htpArch != 0;
    if (pinArch) {
      archConfig.option = QNN_HTP_DEVICE_CONFIG_OPTION_ARCH;
      archConfig.arch.deviceId = 0;
      archConfig.arch.arch = static_cast<QnnHtpDevice_Arch_t>(options.htpArch);
      deviceConfig.option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
      deviceConfig.customConfig = &archConfig;
    }
    {
      std::lock_guard<std::mutex> lock(gLogMutex);
      gEchoLog = options.debugLog;
    }
    takeLastError();
    QnnBackend backend;
    backend.load(r.libraryPath, options.debugLog ? QNN_LOG_LEVEL_DEBUG : QNN_LOG_LEVEL_ERROR,
                 pinArch ? deviceConfigs : nullptr, captureLog);
    r.loaded = true;
    Qnn_ApiVersion_t version{};
    if (backend.api().backendGetApiVersion && backend.api().backendGetApiVersion(&version) == QNN_SUCCESS) {
      r.coreApiVersion = versionText(version.coreApiVersion);
      r.backendApiVersion = versionText(version.backendApiVersion);
    }
    r.buildId = backend.buildId();
    r.device = describeDevice(backend.api(), isHtp);
    if (pinArch) r.device += std::string(r.device.empty() ? "" : "; ") + "device created for V" +
                             std::to_string(options.htpArch) + " (--dsp_type)";
    if (options.runTestGraph) {
      r.message = runValidationGraph(backend, isHtp ? ValidationGraphKind::Uint8 : ValidationGraphKind::Float32,
                                     kind.name != "saver");
      r.test = r.message.empty() ? ProbeResult::Test::Passed : ProbeResult::Test::Failed;
      if (!r.message.empty()) {
        const std::string logged = takeLastError();
        if (!logged.empty()) r.message += ": " + logged;
      }
    }
  } catch (const ToolError& e) {
    r.message = e.what();
    const std::string logged = takeLastError();
    if (!logged.empty()) r.message += ": " + logged;
    if (options.runTestGraph) r.test = ProbeResult::Test::Failed;
  }
  return r;
}

}  // namespace qnn::tools
