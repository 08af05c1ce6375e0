// libFuzzer harness: a profiling log through qnn-profile-viewer's reader, then its summary,
// Chrome trace and HTML report writers.
#include <cstddef>
#include <cstdint>
#include <string>

#include "chrome_trace.h"
#include "html_report.h"
#include "profile_log.h"
#include "profile_summary.h"
#include "tool_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const qnn::tools::ProfileLog log =
        qnn::tools::parseProfileLog(std::string(reinterpret_cast<const char*>(data), size));
    (void)qnn::tools::formatProfileSummary(log);
    (void)qnn::tools::chromeTrace(log).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    (void)qnn::tools::htmlReport(log, "<fuzz>");
  } catch (const qnn::tools::ToolError&) {
  }
  return 0;
}
