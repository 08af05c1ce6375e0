#include "replayer.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "tool_error.h"
#include "trace_tensors.h"

namespace qnn::replay {

using tools::ToolError;
using trace::Value;

Replayer::Replayer(const QNN_INTERFACE_VER_TYPE& api, const trace::Trace& trace, ReplayOptions options)
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
        if (!(std::fabs(a - b) <= options_.tolerance * (1 + std::fabs(b))) && !(std::isnan(a) && std::isnan(b))) {
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

bool Replayer::replay(const trace::CallRecord& c) {
  const Value& a = c.args;
  const std::string member = trace::callMember(c.callId);
  Qnn_ErrorHandle_t rc;
  if (member == "backendCreate") {
    void* b = nullptr;
    rc = api_.backendCreate(static_cast<Qnn_LogHandle_t>(live(field(a, "logger"))), nullptr, &b);
    if (rc == QNN_SUCCESS && a.field("backend")) bind(field(a, "backend"), b);
  } else if (member == "contextCreate") {
    void* x = nullptr;
    rc = api_.contextCreate(live(field(a, "backend")), live(field(a, "device")), nullptr, &x);
    if (rc == QNN_SUCCESS && a.field("context")) bind(field(a, "context"), x);
  } else if (member == "graphCreate") {
    void* g = nullptr;
    rc = api_.graphCreate(live(field(a, "context")), field(a, "graphName").s.c_str(), nullptr, &g);
    if (rc == QNN_SUCCESS && a.field("graph")) bind(field(a, "graph"), g);
  } else if (member == "graphRetrieve") {
    void* g = nullptr;
    rc = api_.graphRetrieve(live(field(a, "context")), field(a, "graphName").s.c_str(), &g);
    if (rc == QNN_SUCCESS && a.field("graph")) bind(field(a, "graph"), g);
  } else if (member == "tensorCreateGraphTensor" || member == "tensorCreateContextTensor") {
    OwnedTensor t;
    buildTensor(field(a, "tensor"), trace_, true, false, t);
    rc = member == "tensorCreateGraphTensor" ? api_.tensorCreateGraphTensor(live(field(a, "graph")), &t.tensor)
                                             : api_.tensorCreateContextTensor(live(field(a, "context")), &t.tensor);
    // Later calls name tensors by their recorded ids: the backend must assign the same.
    if (rc == QNN_SUCCESS && a.field("id") && t.tensor.v1.id != field(a, "id").u)
      throw ToolError("call #" + std::to_string(c.seq) + ": backend assigned tensor id " +
                      std::to_string(t.tensor.v1.id) + ", recorded " + std::to_string(field(a, "id").u));
  } else if (member == "graphAddNode" || member == "backendValidateOpConfig") {
    OwnedOp op;
    buildOp(field(a, "opConfig"), trace_, op);
    rc = member == "graphAddNode" ? api_.graphAddNode(live(field(a, "graph")), op.op)
                                  : api_.backendValidateOpConfig(live(field(a, "backend")), op.op);
  } else if (member == "graphFinalize") {
    rc = api_.graphFinalize(live(field(a, "graph")), nullptr, nullptr);
  } else if (member == "graphExecute") {
    std::vector<OwnedTensor> in(field(a, "inputs").items.size()), out(field(a, "outputs").items.size());
    std::vector<Qnn_Tensor_t> ins, outs;
    for (size_t k = 0; k < in.size(); ++k) {
      buildTensor(field(a, "inputs").items[k], trace_, true, false, in[k]);
      ins.push_back(in[k].tensor);
    }
    for (size_t k = 0; k < out.size(); ++k) {
      buildTensor(field(a, "outputs").items[k], trace_, false, true, out[k]);
      outs.push_back(out[k].tensor);
    }
    rc = api_.graphExecute(live(field(a, "graph")), ins.data(), uint32_t(ins.size()), outs.data(),
                           uint32_t(outs.size()), nullptr, nullptr);
    if (rc == QNN_SUCCESS && options_.compare) {
      std::vector<std::vector<uint8_t>> got;
      std::vector<Qnn_DataType_t> types;
      for (auto& o : out) {
        got.push_back(o.data);
        types.push_back(o.tensor.v1.dataType);
      }
      compareOutputs(c, field(a, "outputs"), got, types);
    }
  } else if (member == "contextGetBinarySize") {
    Qnn_ContextBinarySize_t size = 0;
    rc = api_.contextGetBinarySize(live(field(a, "context")), &size);
  } else if (member == "contextGetBinary") {
    Qnn_ContextBinarySize_t size = 0, written = 0;
    void* ctx = live(field(a, "context"));
    rc = api_.contextGetBinarySize(ctx, &size);
    std::vector<uint8_t> bin(size);
    if (rc == QNN_SUCCESS) rc = api_.contextGetBinary(ctx, bin.data(), size, &written);
    bin.resize(written);
    if (rc == QNN_SUCCESS && a.field("binary")) liveBinaries_[field(a, "binary").u] = std::move(bin);
  } else if (member == "contextCreateFromBinary") {
    const Value& ref = field(a, "binary");
    auto it = liveBinaries_.find(ref.u);  // a binary this replay produced replaces the recorded one
    const std::vector<uint8_t>* bin = it != liveBinaries_.end() ? &it->second : trace_.blob(ref);
    if (!bin) throw ToolError("call #" + std::to_string(c.seq) + ": context binary blob missing");
    void* x = nullptr;
    rc = api_.contextCreateFromBinary(live(field(a, "backend")), live(field(a, "device")), nullptr, bin->data(),
                                      bin->size(), &x, nullptr);
    if (rc == QNN_SUCCESS && a.field("context")) bind(field(a, "context"), x);
  } else if (member == "contextFree") {
    rc = api_.contextFree(live(field(a, "context")), nullptr);
  } else if (member == "backendFree") {
    rc = api_.backendFree(live(field(a, "backend")));
  } else {
    return false;
  }
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
