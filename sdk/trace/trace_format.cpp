#include "trace_format.h"

#include "core/api_members.h"

namespace qnn::trace {
namespace {

struct CallInfo {
  const char* member;
  const char* name;
};

// Index + 1 = call id: the table order of core/api_members.h.
constexpr CallInfo kCalls[] = {
#define QNN_TRACE_CALL_(id, member, name) {#member, name},
    QNN_FOR_EACH_INTERFACE_MEMBER(QNN_TRACE_CALL_)
#undef QNN_TRACE_CALL_
};
static_assert(sizeof(kCalls) / sizeof(kCalls[0]) == kNumTableCalls, "call ids are the table members");

}  // namespace

const char* callName(uint32_t id) {
  if (id == kCallSaverInitialize) return "QnnSaver_initialize";
  return id >= 1 && id <= kNumTableCalls ? kCalls[id - 1].name : "unknown";
}

const char* callMember(uint32_t id) {
  if (id == kCallSaverInitialize) return "saverInitialize";
  return id >= 1 && id <= kNumTableCalls ? kCalls[id - 1].member : "unknown";
}

uint32_t callIdOf(const std::string& member) {
  for (uint32_t k = 0; k < kNumTableCalls; ++k)
    if (member == kCalls[k].member) return k + 1;
  return 0;
}

}  // namespace qnn::trace
