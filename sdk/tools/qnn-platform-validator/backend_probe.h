// One backend of an SDK directory, probed the way qnn-platform-validator reports it:
// where its library is, whether it loads and creates a backend (and a device),
// its API versions and build id, and optionally whether it runs the validation
// graph. Probing never throws: every failure becomes the result's message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qnn::tools {

struct BackendKind {
  std::string name;     // as --backend spells it: cpu, gpu, htp, saver
  std::string library;  // libQnnCpu.so, ...
};

// The backends --backend all covers, in report order.
const std::vector<BackendKind>& knownBackends();

struct ProbeOptions {
  std::string sdkRoot;    // searched for the library (lib/x86_64-linux-clang, then lib)
  uint32_t htpArch = 0;   // --dsp_type as a number (68, 73, ...); 0 = the backend's default
  bool runTestGraph = false;
  bool debugLog = false;  // backend log at debug level on stderr
};

struct ProbeResult {
  std::string backend;
  std::string libraryPath;   // empty when not found
  bool found = false;
  bool loaded = false;       // QnnInterface_getProviders + QnnBackend_create succeeded
  std::string coreApiVersion;     // "2.32.0"
  std::string backendApiVersion;  // "5.32.0"
  std::string buildId;
  std::string device;        // what QnnDevice_getPlatformInfo says, "" when the backend has no devices
  enum class Test { NotRun, Passed, Failed } test = Test::NotRun;
  std::string message;       // why loading or the test failed; empty on success
};

ProbeResult probeBackend(const BackendKind& kind, const ProbeOptions& options);

// Where a library lives under an SDK root: the vendor layout (lib/x86_64-linux-clang) first,
// then lib/. Empty when neither has it.
std::string findLibrary(const std::string& sdkRoot, const std::string& library);

}  // namespace qnn::tools
