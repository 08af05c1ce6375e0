#include "trace/trace_format.h"

#include "core/api_members.h"

namespace qnn::trace {
namespace {

struct CallInfo {
  const char* member;
  const char* name;
};

// Index + 1 = call id: the table order of core/api_members.h.
constexpr CallInfo kCalls[] = {
#define QNN_TRACE_CALL_(id, member, fn) {#member, #fn},
    QNN_FOR_EACH_INTERFACE_MEMBER(QNN_TRACE_CALL_)
#undef QNN_TRACE_CALL_
};
static_assert(sizeof(kCalls) / sizeof(kCalls[0]) == kNumTableCalls, "call ids are the table members");

// Ids from kCallHtpPerfFirst: the members of QnnHtpDevice_PerfInfrastructure_t.
constexpr CallInfo kHtpPerfCalls[] = {
#define QNN_TRACE_CALL_(id, member, name) {#member, name},
    QNN_TRACE_FOR_EACH_HTP_PERF_CALL(QNN_TRACE_CALL_)
#undef QNN_TRACE_CALL_
};
static_assert(sizeof(kHtpPerfCalls) / sizeof(kHtpPerfCalls[0]) == kNumHtpPerfCalls, "one id per perf member");

const CallInfo* info(uint32_t id) {
  if (id >= 1 && id <= kNumTableCalls) return &kCalls[id - 1];
  if (id >= kCallHtpPerfFirst && id < kCallHtpPerfFirst + kNumHtpPerfCalls) return &kHtpPerfCalls[id - kCallHtpPerfFirst];
  return nullptr;
}

}  // namespace

const char* callName(uint32_t id) {
  if (id == kCallSaverInitialize) return "QnnSaver_initialize";
  const CallInfo* c = info(id);
  return c ? c->name : "unknown";
}

const char* callMember(uint32_t id) {
  if (id == kCallSaverInitialize) return "saverInitialize";
  const CallInfo* c = info(id);
  return c ? c->member : "unknown";
}

}  // namespace qnn::trace
