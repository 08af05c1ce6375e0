// Rebuilds recorded config arrays (docs/saver-trace-format.md, "config
// arrays") as NULL-terminated QNN config lists that own their strings and
// custom payloads. Entries whose payload was not recorded, or was recorded for
// another backend, are left out.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "trace/trace_reader.h"

namespace qnn::replay {

// A NULL-terminated list of configs made one from each recorded entry by
// `make`: the config types with no rebuild of their own (profile, global, HTP perf).
template <typename Config>
struct ConfigArray {
  template <typename Make>
  ConfigArray(const trace::Value& recorded, Make make) {
    for (const trace::Value& v : recorded.items) entries.push_back(make(v));
    for (const Config& c : entries) list.push_back(&c);
    list.push_back(nullptr);
  }
  std::vector<Config> entries;
  std::vector<const Config*> list;
};

template <typename Config>
struct OwnedConfigs {
  // The live backend's id (0: any). A custom payload recorded as another
  // backend's struct (customType "QnnHtp..." vs "QnnCpu...") is left out: the
  // live backend would read it as its own struct.
  uint32_t backendId = 0;
  std::vector<std::string> leftOut;  // customType of each entry left out for that reason
  std::deque<Config> entries;  // deque: stable addresses
  std::vector<const Config*> list;
  std::deque<std::string> strings;
  std::deque<std::vector<const char*>> nameLists;  // null-terminated name arrays (context graph lists)
  std::deque<std::vector<uint8_t>> payloads;
  // The list for the API call: null when none was recorded.
  const Config** get() { return list.empty() ? nullptr : list.data(); }
};

// Maps a recorded handle (a profile named in a graph config) to the live one.
using LiveHandle = std::function<void*(const trace::Value&)>;

void buildConfigs(const trace::Value& recorded, const trace::Trace& t, const LiveHandle& live,
                  OwnedConfigs<QnnBackend_Config_t>& out);
void buildConfigs(const trace::Value& recorded, const trace::Trace& t, const LiveHandle& live,
                  OwnedConfigs<QnnContext_Config_t>& out);
void buildConfigs(const trace::Value& recorded, const trace::Trace& t, const LiveHandle& live,
                  OwnedConfigs<QnnGraph_Config_t>& out);
void buildConfigs(const trace::Value& recorded, const trace::Trace& t, const LiveHandle& live,
                  OwnedConfigs<QnnDevice_Config_t>& out);
void buildConfigs(const trace::Value& recorded, const trace::Trace& t, const LiveHandle& live,
                  OwnedConfigs<QnnSignal_Config_t>& out);

}  // namespace qnn::replay
