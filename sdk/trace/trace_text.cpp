#include "trace/trace_text.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace qnn::trace {
namespace {

void text(const Value& v, std::ostringstream& o) {
  switch (v.kind) {
    case Value::Kind::Null: o << "null"; break;
    case Value::Kind::UInt: o << v.u; break;
    case Value::Kind::Int: o << v.i; break;
    case Value::Kind::Float: o << v.f; break;
    case Value::Kind::String: o << '"' << v.s << '"'; break;
    case Value::Kind::Handle: o << '@' << v.u; break;
    case Value::Kind::Blob: o << "<blob " << v.u << ", " << v.i << " bytes>"; break;
    case Value::Kind::List:
      o << '[';
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) o << ", ";
        text(v.items[k], o);
      }
      o << ']';
      break;
    case Value::Kind::Struct:
      o << '{';
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) o << ", ";
        o << v.names[k] << '=';
        text(v.items[k], o);
      }
      o << '}';
      break;
  }
}

nlohmann::json json(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Null: return nullptr;
    case Value::Kind::UInt: return v.u;
    case Value::Kind::Int: return v.i;
    case Value::Kind::Float: return v.f;
    case Value::Kind::String: return v.s;
    case Value::Kind::Handle: return {{"handle", v.u}};
    case Value::Kind::Blob: return {{"blob", v.u}, {"bytes", v.i}};
    case Value::Kind::List: {
      nlohmann::json a = nlohmann::json::array();
      for (const Value& e : v.items) a.push_back(json(e));
      return a;
    }
    case Value::Kind::Struct: {
      nlohmann::json o = nlohmann::json::object();
      for (size_t k = 0; k < v.items.size(); ++k) o[v.names[k]] = json(v.items[k]);
      return o;
    }
  }
  return nullptr;
}

}  // namespace

std::string callToText(const CallRecord& c) {
  std::ostringstream o;
  o << '#' << c.seq << ' ' << callName(c.callId) << '(';
  for (size_t k = 0; k < c.args.items.size(); ++k) {
    if (k) o << ", ";
    o << c.args.names[k] << '=';
    text(c.args.items[k], o);
  }
  o << ") -> " << c.result;
  return o.str();
}

std::string traceToJson(const Trace& t) {
  nlohmann::json j;
  j["version"] = t.version;
  j["calls"] = nlohmann::json::array();
  for (const CallRecord& c : t.calls)
    j["calls"].push_back({{"seq", c.seq},
                          {"call", callName(c.callId)},
                          {"callId", c.callId},
                          {"thread", c.threadId},
                          {"timeNs", c.timeNs},
                          {"result", c.result},
                          {"args", json(c.args)}});
  if (!t.ok()) j["error"] = {{"offset", t.errorOffset}, {"message", t.error}};
  return j.dump(1);
}

}  // namespace qnn::trace
