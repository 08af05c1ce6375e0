// The bytes of one prepared HTP graph inside a context binary's backend blob:
// the options it was prepared with, what each pass did, each node's plan
// (fused clamp, tiles, layout, cycles) and the transformed graph. Layout in
// docs/context-binary-format.md ("HTP prepared graph").
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "htp_options.h"
#include "htp_passes.h"

namespace qnn::htp {

sdk::Status encodePreparedGraph(const PreparedPlan& plan, const GraphOptions& options, std::vector<uint8_t>* out);
// kCorruptData on anything malformed.
sdk::Status decodePreparedGraph(const uint8_t* data, size_t size, PreparedPlan* plan, GraphOptions* options);

}  // namespace qnn::htp
