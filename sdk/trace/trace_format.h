// Constants of the .qnntrace format and the stable call ids (one per member of
// the function table of core/api_members.h, in table order: API 2.39's 75, of
// which 2.32's 71 first; plus the Saver's own entry and the HTP perf calls).
// Ids are part of the file format: append, never renumber.
#pragma once

#include <cstdint>
#include <string>

#include "core/api_members.h"
#include "trace/trace_value.h"

namespace qnn::trace {

constexpr char kMagic[8] = {'Q', 'N', 'N', 'T', 'R', 'A', 'C', 'E'};
constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kHeaderSize = 16;         // magic, version, flags
constexpr uint32_t kBlockMagic = 0x4B425451; // "QTBK"
constexpr uint32_t kBlockHeaderSize = 20;    // magic, type+pad, raw size, compressed size, crc
constexpr uint32_t kMaxBlockSize = 1u << 30; // refuse larger sizes from hostile files

// Info blocks (type 3) hold facts about the recording rather than a call: a struct
// whose fields a reader merges, a later block's field replacing an earlier one's
// ("clientApi" {major, minor}: the QNN API of the headers the recorded client was
// built against, as far as the Saver can tell).
enum class BlockType : uint8_t { Call = 1, Blob = 2, Info = 3 };

// The calls of the HTP perf infrastructure (QnnHtpDevice_PerfInfrastructure_t)
// a pass-through HTP backend hands out through QnnDevice_getInfrastructure, in
// struct order: X(id, member, apiName).
#define QNN_TRACE_FOR_EACH_HTP_PERF_CALL(X)                                             \
  X(1001, htpPerfCreatePowerConfigId, "QnnHtpPerfInfrastructure_createPowerConfigId")   \
  X(1002, htpPerfDestroyPowerConfigId, "QnnHtpPerfInfrastructure_destroyPowerConfigId") \
  X(1003, htpPerfSetPowerConfig, "QnnHtpPerfInfrastructure_setPowerConfig")             \
  X(1004, htpPerfSetMemoryConfig, "QnnHtpPerfInfrastructure_setMemoryConfig")

// Every call of the format: the table members of core/api_members.h (id = table
// position), the Saver's own entry and the HTP perf calls. X(id, member, apiName).
#define QNN_TRACE_SAVER_CALL_(X) X(1000, saverInitialize, "QnnSaver_initialize")
#define QNN_TRACE_FOR_EACH_CALL(X)     \
  QNN_FOR_EACH_INTERFACE_MEMBER(X)     \
  QNN_TRACE_SAVER_CALL_(X)             \
  QNN_TRACE_FOR_EACH_HTP_PERF_CALL(X)

// Every call id of the format, typed.
enum class Call : uint32_t {
#define QNN_TRACE_CALL_ENUM_(id, member, name) member = id,
  QNN_TRACE_FOR_EACH_CALL(QNN_TRACE_CALL_ENUM_)
#undef QNN_TRACE_CALL_ENUM_
};

// One slot of type H per call, named after the member: a consumer's handler
// table (replay, C generation). Slots start value-initialized (null); a consumer
// assigns those it has work for and treats the others with its default.
template <typename H>
struct PerCall {
#define QNN_TRACE_PER_CALL_SLOT_(id, member, name) H member{};
  QNN_TRACE_FOR_EACH_CALL(QNN_TRACE_PER_CALL_SLOT_)
#undef QNN_TRACE_PER_CALL_SLOT_

  // The slot of a call id; nullptr for an id this build does not know.
  const H* of(uint32_t callId) const {
    switch (callId) {
#define QNN_TRACE_PER_CALL_CASE_(id, member, name) \
  case id: return &member;
      QNN_TRACE_FOR_EACH_CALL(QNN_TRACE_PER_CALL_CASE_)
#undef QNN_TRACE_PER_CALL_CASE_
      default: return nullptr;
    }
  }
};

constexpr uint32_t kNumTableCalls = uint32_t(sdk::kNumInterfaceMembers);
constexpr uint32_t kCallSaverInitialize = uint32_t(Call::saverInitialize);
constexpr uint32_t kCallHtpPerfFirst = uint32_t(Call::htpPerfCreatePowerConfigId);
constexpr uint32_t kNumHtpPerfCalls = 4;
static_assert(uint32_t(Call::htpPerfSetMemoryConfig) == kCallHtpPerfFirst + kNumHtpPerfCalls - 1, "perf ids are dense");

// Name of a call id ("QnnBackend_create"); "unknown" for an unassigned id.
const char* callName(uint32_t callId);
inline const char* callName(Call call) { return callName(uint32_t(call)); }
// Table member name of a call id ("backendCreate").
const char* callMember(uint32_t callId);
inline const char* callMember(Call call) { return callMember(uint32_t(call)); }

// One recorded call: written after the call returned, so `result` and the
// outputs inside `args` are the real ones.
struct CallRecord {
  uint32_t callId = 0;    // a Call; a newer trace may hold ids this build does not know
  uint64_t seq = 0;       // position in the trace, from 0
  uint64_t threadId = 0;  // small per-process thread number
  uint64_t timeNs = 0;    // steady clock, ns since the trace was opened
  uint64_t result = 0;    // Qnn_ErrorHandle_t returned to the client
  Value args = Value::record();

  Call call() const { return Call(callId); }
};

}  // namespace qnn::trace
