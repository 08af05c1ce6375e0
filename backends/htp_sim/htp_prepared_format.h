// The bytes of one prepared HTP graph inside a context binary's backend blob:
// the options it was prepared with, what each pass did, each node's plan
// (fused clamp, tiles, layout, cycles) and the transformed graph. Layout in
// docs/context-binary-format.md ("HTP prepared graph").
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "htp_sim/htp_options.h"
#include "htp_sim/htp_passes.h"

namespace qnn::htp {

// `source`: the graph it was prepared from (which the context binary stores):
// weights the passes did not change are referenced, not stored twice.
sdk::Status encodePreparedGraph(const PreparedPlan& plan, const GraphOptions& options, const sdk::GraphIR& source,
                                std::vector<uint8_t>* out);
// kCorruptData on anything malformed; `source` as given to encodePreparedGraph.
sdk::Status decodePreparedGraph(const uint8_t* data, size_t size, const sdk::GraphIR& source, PreparedPlan* plan,
                                GraphOptions* options);

}  // namespace qnn::htp
