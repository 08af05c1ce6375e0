// libFuzzer harness: a profiling log through its reader (profile_log/profile_log.h), then the viewer's summary,
// Chrome trace and HTML report writers.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/qnn-profile-viewer/chrome_trace.h"
#include "tools/qnn-profile-viewer/html_report.h"
#include "profile_log/profile_log.h"
#include "tools/qnn-profile-viewer/profile_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qnn::sdk::ProfileLog log;
  if (!qnn::sdk::readProfileLog(std::string(reinterpret_cast<const char*>(data), size), &log).isOk()) return 0;
  (void)qnn::tools::formatProfileSummary(log);
  (void)qnn::tools::chromeTrace(log).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  (void)qnn::tools::htmlReport(log, "<fuzz>");
  return 0;
}
