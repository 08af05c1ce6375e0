// Constants of the .qnntrace format and the stable call ids (one per member of
// the 71-entry function table, in table order, plus the Saver's own entry).
// Ids are part of the file format: append, never renumber.
#pragma once

#include <cstdint>
#include <string>

#include "trace_value.h"

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

constexpr uint32_t kNumTableCalls = 71;
constexpr uint32_t kCallSaverInitialize = 1000;
// The HTP perf infrastructure (QnnHtpDevice_PerfInfrastructure_t) a pass-through
// HTP backend hands out through QnnDevice_getInfrastructure, in struct order.
constexpr uint32_t kCallHtpPerfFirst = 1001;
constexpr uint32_t kNumHtpPerfCalls = 4;

// Name of a call id ("QnnBackend_create"); "unknown" for an unassigned id.
const char* callName(uint32_t callId);
// Table member name of a call id ("backendCreate").
const char* callMember(uint32_t callId);
// Call id of a table member name; 0 if none.
uint32_t callIdOf(const std::string& member);

// One recorded call: written after the call returned, so `result` and the
// outputs inside `args` are the real ones.
struct CallRecord {
  uint32_t callId = 0;
  uint64_t seq = 0;       // position in the trace, from 0
  uint64_t threadId = 0;  // small per-process thread number
  uint64_t timeNs = 0;    // steady clock, ns since the trace was opened
  uint64_t result = 0;    // Qnn_ErrorHandle_t returned to the client
  Value args = Value::record();
};

}  // namespace qnn::trace
