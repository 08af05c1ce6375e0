// The Chrome trace-event JSON (opens in Perfetto and chrome://tracing) of a
// profiling log: one complete ("ph": "X") event per top-level event and per
// sub-event. Top-level events start at their startUs; sub-events, which carry no
// time of their own, are laid out one after another from their parent's start.
#pragma once

#include <nlohmann/json.hpp>

#include "profile_log/profile_log.h"

namespace qnn::tools {

// {"traceEvents": [...], "displayTimeUnit": "ms"}. Events in units other than
// time get a zero duration and their value in args.
nlohmann::ordered_json chromeTrace(const sdk::ProfileLog& log);

}  // namespace qnn::tools
