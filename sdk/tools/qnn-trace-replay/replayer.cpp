#include "tools/qnn-trace-replay/replayer.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "tools/common/tool_error.h"
#include "tools/qnn-trace-replay/trace_tensors.h"

namespace qnn::replay {

using tools::ToolError;
using trace::Value;

Replayer::Replayer(const sdk::InterfaceTable2_39& api, const trace::Trace& trace, ReplayOptions options)
    : api_(api), trace_(trace), options_(options) {}

void* Replayer::live(const Value& h) const {
  if (h.kind != Value::Kind::Handle) return nullptr;
  auto it = handles_.find(h.u);
  if (it == handles_.end()) throw ToolError("trace uses handle @" + std::to_string(h.u) + " before creating it");
  return it->second;
}

void Replayer::bind(const Value& h, void* handle) {
  if (h.kind == Value::Kind::Handle) handles_[h.u] = handle;
}

void Replayer::expectResult(const trace::CallRecord& c, Qnn_ErrorHandle_t rc) {
  if (rc == c.result) return;
  std::ostringstream o;
  o << "call #" << c.seq << " " << trace::callName(c.callId) << " returned " << rc << ", recorded " << c.result;
  if (report_.firstDivergence.empty()) report_.firstDivergence = o.str();
  if (rc != QNN_SUCCESS) throw ToolError(o.str());
}

void Replayer::compareOutputs(const trace::CallRecord& c, const Value& outputs,
                              const std::vector<std::vector<uint8_t>>& got, const std::vector<Qnn_DataType_t>& types) {
  for (size_t k = 0; k < got.size() && report_.firstDivergence.empty(); ++k) {
    const Value& rec = outputs.items[k];
    const Value* data = rec.field("data");
    const std::vector<uint8_t>* want = data ? trace_.blob(*data) : nullptr;
    if (!want) continue;  // nothing recorded (no pass-through): nothing to compare
    ++report_.compared;
    std::string where = "call #" + std::to_string(c.seq) + " " + trace::callName(c.callId) + " output '" +
                        field(rec, "name").s + "'";
    if (want->size() != got[k].size()) {
      report_.firstDivergence = where + ": " + std::to_string(got[k].size()) + " bytes, recorded " +
                                std::to_string(want->size());
      return;
    }
    for (size_t i = 0; i < want->size(); ++i) {
      if (types[k] == QNN_DATATYPE_FLOAT_32) {
        if (i % 4) continue;
        float a, b;
        std::memcpy(&a, &got[k][i], 4);
        std::memcpy(&b, &(*want)[i], 4);
        // Equal values (the same infinity too: inf - inf is NaN) and NaN for NaN agree.
        if (a != b && !(std::fabs(a - b) <= options_.tolerance * (1 + std::fabs(b))) && !(std::isnan(a) && std::isnan(b))) {
          report_.firstDivergence = where + " element " + std::to_string(i / 4) + ": " + std::to_string(a) +
                                    ", recorded " + std::to_string(b);
          return;
        }
      } else if (got[k][i] != (*want)[i]) {
        report_.firstDivergence = where + " byte " + std::to_string(i) + " differs";
        return;
      }
    }
  }
}

const trace::PerCall<Replayer::Handler>& Replayer::handlers() {
  static const trace::PerCall<Handler> table = [] {
    trace::PerCall<Handler> h;
#define QNN_REPLAY_HANDLER_SLOT_(member) h.member = &Replayer::on<trace::Call::member>;
    QNN_REPLAY_HANDLED_CALLS(QNN_REPLAY_HANDLER_SLOT_)
#undef QNN_REPLAY_HANDLER_SLOT_
    return h;
  }();
  return table;
}

bool Replayer::replay(const trace::CallRecord& c) {
  // The table is the members in call-id order: one the backend leaves NULL is not called.
  const void* const* members = reinterpret_cast<const void* const*>(&api_);
  if (c.callId >= 1 && c.callId <= trace::kNumTableCalls && !members[c.callId - 1]) return false;
  const Handler* handler = handlers().of(c.callId);
  Qnn_ErrorHandle_t rc = QNN_SUCCESS;
  if (!handler || !*handler || !(this->**handler)(c, &rc)) return false;
  expectResult(c, rc);
  return true;
}

ReplayReport Replayer::run() {
  for (const trace::CallRecord& c : trace_.calls) {
    // A call that failed when recorded created nothing worth replaying.
    bool done = c.result == QNN_SUCCESS && replay(c);
    if (done) {
      ++report_.replayed;
    } else {
      ++report_.skipped;
      report_.skippedCalls.push_back(trace::callName(c.callId));
    }
  }
  return report_;
}

}  // namespace qnn::replay
