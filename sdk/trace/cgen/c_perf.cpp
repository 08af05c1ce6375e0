// The HTP perf infrastructure calls the Saver records (call ids 1001-1004) ->
// C: made on the infrastructure the replayed QnnDevice_getInfrastructure gave
// (`perfInfra`, skipped without one), recorded power config ids mapped to the
// ones this run created (also in a DCVS vote's contextId).
#include <functional>
#include <utility>

#include "trace/cgen/c_generator.h"

namespace qnn::trace::cgen {
namespace {

// The fields of each power config union member the Saver records, in struct order.
constexpr const char* kDcvsFields[] = {
    "setDcvsEnable",       "dcvsEnable",           "powerMode",           "setSleepLatency",
    "sleepLatency",        "setSleepDisable",      "sleepDisable",        "setBusParams",
    "busVoltageCornerMin", "busVoltageCornerTarget", "busVoltageCornerMax", "setCoreParams",
    "coreVoltageCornerMin", "coreVoltageCornerTarget", "coreVoltageCornerMax"};
constexpr const char* kHmxFields[] = {"hmxPickDefault", "hmxVoltageCornerMin", "hmxVoltageCornerTarget",
                                      "hmxVoltageCornerMax", "hmxPerfMode"};
// Scalar members: recorded name -> union member.
constexpr std::pair<const char*, const char*> kScalars[] = {
    {"rpcControlLatency", "rpcControlLatencyConfig"},   {"rpcPollingTime", "rpcPollingTimeConfig"},
    {"hmxTimeoutIntervalUs", "hmxTimeoutIntervalUsConfig"}, {"adaptivePollingTime", "adaptivePollingTimeConfig"},
    {"ddrPerfMode", "ddrPerfModeConfig"}};
constexpr ConfigArraySpec kPowerConfigs{"QnnHtpPerfInfrastructure_PowerConfig_t", "perfConfig", nullptr, false};
constexpr ConfigArraySpec kMemoryConfigs{"QnnHtpPerfInfrastructure_MemoryConfig_t", "perfConfig", nullptr, false};

}  // namespace

std::string CGenerator::configArray(const Value& list, const ConfigArraySpec& spec,
                                    const std::function<void(const std::string&, const Value&)>& fill) {
  if (list.kind != Value::Kind::List || (spec.emptyIsNull && list.items.empty())) return "NULL";
  std::string array = fresh(spec.stem), items;
  for (size_t k = 0; k < list.items.size(); ++k) {
    std::string v = array + "_" + std::to_string(k);
    if (spec.init) {
      line(std::string(spec.type) + " " + v + " = " + spec.init + ";");
    } else {
      line(std::string(spec.type) + " " + v + ";");
      line("memset(&" + v + ", 0, sizeof " + v + ");");
    }
    fill(v, list.items[k]);
    items += "&" + v + ", ";
  }
  line("const " + std::string(spec.type) + "* " + array + "[] = {" + items + "NULL};");
  return array;
}

bool CGenerator::perfBlock(const std::function<void()>& statements) {
  line("if (perfInfra) {");
  ++indent_;
  statements();
  --indent_;
  line("}");
  return true;
}

namespace {
std::string livePowerId(const std::string& recorded) { return "mapId(&powerIds, " + recorded + ")"; }
}  // namespace

template <>
bool CGenerator::on<Call::htpPerfCreatePowerConfigId>(const CallRecord& c) {
  const Args<Call::htpPerfCreatePowerConfigId> a(c);
  return perfBlock([&] {
    line("uint32_t id = 0;");
    line("if (CHECK(PERF(createPowerConfigId, " + literal(a.deviceId) + ", " + literal(a.coreId) +
         ", &id))) bindId(&powerIds, " + literal(a.powerConfigId) + ", id);");
  });
}

template <>
bool CGenerator::on<Call::htpPerfDestroyPowerConfigId>(const CallRecord& c) {
  const Args<Call::htpPerfDestroyPowerConfigId> a(c);
  return perfBlock([&] { line("CHECK(PERF(destroyPowerConfigId, " + livePowerId(literal(a.powerConfigId)) + "));"); });
}

template <>
bool CGenerator::on<Call::htpPerfSetPowerConfig>(const CallRecord& c) {
  const Args<Call::htpPerfSetPowerConfig> a(c);
  return perfBlock([&] {
    std::string array = configArray(a.config, kPowerConfigs, [&](const std::string& v, const Value& c) {
      line(v + ".option = (QnnHtpPerfInfrastructure_PowerConfigOption_t)" + field(c, "option") + ";");
      if (const Value* d = c.field("dcvsV3")) {
        line(v + ".dcvsV3Config.contextId = " + livePowerId(field(*d, "contextId")) + ";");
        for (const char* f : kDcvsFields) line(v + ".dcvsV3Config." + f + " = " + field(*d, f) + ";");
      } else if (const Value* h = c.field("hmxV2")) {
        for (const char* f : kHmxFields) line(v + ".hmxV2Config." + f + " = " + field(*h, f) + ";");
      }
      for (const auto& [rec, member] : kScalars)
        if (c.field(rec)) line(v + "." + member + " = " + field(c, rec) + ";");
    });
    line("CHECK(PERF(setPowerConfig, " + livePowerId(literal(a.powerConfigId)) + ", " + array + "));");
  });
}

template <>
bool CGenerator::on<Call::htpPerfSetMemoryConfig>(const CallRecord& c) {
  const Args<Call::htpPerfSetMemoryConfig> a(c);
  return perfBlock([&] {
    std::string array = configArray(a.config, kMemoryConfigs, [&](const std::string& v, const Value& c) {
      line(v + ".option = (QnnHtpPerfInfrastructure_MemoryConfigOption_t)" + field(c, "option") + ";");
      if (c.field("memGrowSize")) line(v + ".memGrowSizeConfig = " + field(c, "memGrowSize") + ";");
    });
    line("CHECK(PERF(setMemoryConfig, " + literal(a.deviceId) + ", " + literal(a.coreId) + ", " + array + "));");
  });
}

}  // namespace qnn::trace::cgen
