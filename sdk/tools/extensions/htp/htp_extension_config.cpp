#include "tools/extensions/htp/htp_extension_config.h"

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace qnn::htpext {
namespace {

using nlohmann::json;

// Keys of the vendor's format that mean something on a device but nothing the
// simulator's configs can express; read, then reported as not applied.
const char* const kPerfKeys[] = {"cores", "perf_profile", "rpc_control_latency", "rpc_polling_time", "num_cores"};

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw std::runtime_error("backend extension config '" + path_ + "': " + key + " " + what);
  }

  uint32_t count(const json& v, const std::string& key, uint32_t min, uint32_t max) const {
    double d = 0;
    if (v.is_number_integer()) {
      if (v.is_number_unsigned() || v.get<int64_t>() >= 0) d = static_cast<double>(v.get<uint64_t>());
      else d = -1;
    } else if (v.is_number_float()) {
      d = v.get<double>();
    } else {
      fail(key, "must be a number, got " + v.dump());
    }
    if (!(d >= min && d <= max) || d != std::floor(d))
      fail(key, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + v.dump());
    return static_cast<uint32_t>(d);
  }

  bool flag(const json& v, const std::string& key) const {
    if (v.is_boolean()) return v.get<bool>();
    return count(v, key, 0, 1) != 0;
  }

  // The vendor writes some sections as one object and others as a list of objects.
  std::vector<json> objects(const json& v, const std::string& key) const {
    std::vector<json> out;
    if (v.is_object()) out.push_back(v);
    else if (v.is_array()) out.assign(v.begin(), v.end());
    else fail(key, "must be an object or a list of objects");
    for (size_t i = 0; i < out.size(); ++i)
      if (!out[i].is_object()) fail(key + "[" + std::to_string(i) + "]", "must be an object");
    return out;
  }

  void note(const std::string& key, const std::string& why) { warnings.push_back(path_ + ": " + key + " " + why); }

  void perfOrUnknown(const std::string& where, const std::string& key) {
    for (const char* perf : kPerfKeys)
      if (key == perf) {
        note(where + key, "is not applied: the tools leave performance settings to --perf_profile");
        return;
      }
    note(where + key, "is not a key OpenQNN knows; ignored");
  }

  std::vector<std::string> warnings;

 private:
  std::string path_;
};

GraphSettings readGraph(Reader& r, const json& g, const std::string& where) {
  GraphSettings s;
  for (const auto& [key, v] : g.items()) {
    const std::string k = where + "." + key;
    if (key == "graph_names") {
      if (v.is_string()) {
        s.names.push_back(v.get<std::string>());
        continue;
      }
      if (!v.is_array()) r.fail(k, "must be a list of graph names");
      for (const auto& n : v) {
        if (!n.is_string() || n.get<std::string>().empty()) r.fail(k, "must hold non-empty strings, got " + n.dump());
        s.names.push_back(n.get<std::string>());
      }
    } else if (key == "vtcm_mb") {
      s.vtcmMB = r.count(v, k, 0, 1024);
    } else if (key == "fp16_relaxed_precision") {
      s.fp16 = r.flag(v, k);
    } else if (key == "O") {
      s.optimizationLevel = r.count(v, k, 0, 3);
    } else if (key == "hvx_threads") {
      s.hvxThreads = r.count(v, k, 1, 1024);
    } else if (key == "dlbc") {
      s.dlbc = r.flag(v, k);
    } else {
      r.perfOrUnknown(where + ".", key);
    }
  }
  return s;
}

uint32_t readArch(const Reader& r, const json& v, const std::string& key) {
  uint32_t arch = 0;
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.erase(0, 1);
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 3)
      r.fail(key, "must name an HTP architecture such as \"v73\", got " + v.dump());
    arch = static_cast<uint32_t>(std::stoul(s));
  } else {
    arch = r.count(v, key, 0, 999);
  }
  if (arch != 68 && arch != 69 && arch != 73 && arch != 75 && arch != 79 && arch != 81)
    r.fail(key, "must be v68, v69, v73, v75, v79 or v81, got " + v.dump());
  return arch;
}

DeviceSettings readDevice(Reader& r, const json& d, const std::string& where) {
  DeviceSettings s;
  for (const auto& [key, v] : d.items()) {
    const std::string k = where + "." + key;
    if (key == "soc_model" || key == "soc_id") {
      s.socModel = r.count(v, k, 0, 0xFFFFFFFFu);
    } else if (key == "dsp_arch") {
      s.arch = readArch(r, v, k);
    } else if (key == "device_id") {
      s.deviceId = r.count(v, k, 0, 0xFFFFFFFFu);
    } else if (key == "pd_session") {
      const std::string pd = v.is_string() ? v.get<std::string>() : std::string();
      if (pd != "signed" && pd != "unsigned") r.fail(k, "must be \"signed\" or \"unsigned\", got " + v.dump());
      s.signedPd = pd == "signed";
    } else {
      r.perfOrUnknown(where + ".", key);
    }
  }
  return s;
}

}  // namespace

ExtensionConfig readExtensionConfig(const std::string& path) {
  ExtensionConfig c;
  if (path.empty()) return c;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("backend extension config not found: " + path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error("malformed backend extension config '" + path + "': " + e.what());
  }
  Reader r(path);
  if (!doc.is_object()) r.fail("the file", "must hold a JSON object");
  std::map<std::string, std::string> graphOwner;  // graph name -> the entry that configures it
  for (const auto& [section, value] : doc.items()) {
    if (section == "graphs") {
      auto entries = r.objects(value, "graphs");
      for (size_t i = 0; i < entries.size(); ++i) {
        const std::string where = "graphs[" + std::to_string(i) + "]";
        GraphSettings g = readGraph(r, entries[i], where);
        if (g.names.empty()) {
          r.note(where, "names no graph (graph_names), so its settings apply to no graph");
          continue;
        }
        for (const auto& n : g.names)
          if (auto [it, fresh] = graphOwner.emplace(n, where); !fresh)
            r.fail(where + ".graph_names", "names graph '" + n + "', which " + it->second + " configures already");
        c.graphs.push_back(std::move(g));
      }
    } else if (section == "devices") {
      auto entries = r.objects(value, "devices");
      if (entries.size() > 1) r.fail("devices", "lists " + std::to_string(entries.size()) + " devices; the simulator has one");
      if (!entries.empty()) c.device = readDevice(r, entries[0], "devices[0]");
    } else if (section == "context") {
      auto entries = r.objects(value, "context");
      for (size_t i = 0; i < entries.size(); ++i)
        for (const auto& [key, v] : entries[i].items()) {
          const std::string where = "context" + (value.is_array() ? "[" + std::to_string(i) + "]" : std::string()) + "." + key;
          if (key == "weight_sharing_enabled") c.weightSharing = r.flag(v, where);
          else r.note(where, "is not applied: the simulator has no setting for it");
        }
    } else if (section == "memory" || section == "groupContext") {
      r.note(section, "is not applied: this API version has no HTP custom config for it");
    } else {
      r.perfOrUnknown("", section);
    }
  }
  c.warnings = std::move(r.warnings);
  return c;
}

}  // namespace qnn::htpext
