#include "oppackage/op_package_config.h"

#include <algorithm>

namespace qnn::oppackage {

namespace {

void addUnique(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

void applySupplement(std::vector<TensorDef>& tensors, const std::vector<SupplementalTensor>& supplements) {
  for (const auto& s : supplements)
    for (auto& t : tensors) {
      if (t.name != s.name) continue;
      if (!s.datatypes.empty()) t.datatypes = s.datatypes;
      if (!s.layout.empty()) t.layout = s.layout;
      t.onlyDefaultSupported = s.onlyDefaultSupported;
    }
}

}  // namespace

std::vector<std::string> packageBackends(const OpPackageConfig& config) {
  std::vector<std::string> families;
  for (const auto& op : config.ops)
    for (const auto& b : op.supportedBackends) addUnique(families, backendFamily(b));
  for (const auto& list : config.supplements)
    if (!list.supportedOps.empty()) addUnique(families, backendFamily(list.backend));
  return families;
}

std::vector<OpDef> opsForBackend(const OpPackageConfig& config, const std::string& family) {
  std::vector<OpDef> result;
  for (const auto& op : config.ops) {
    bool supported = std::any_of(op.supportedBackends.begin(), op.supportedBackends.end(),
                                 [&](const std::string& b) { return backendFamily(b) == family; });
    for (const auto& list : config.supplements)
      if (backendFamily(list.backend) == family)
        supported = supported || std::find(list.supportedOps.begin(), list.supportedOps.end(), op.name) !=
                                     list.supportedOps.end();
    if (!supported) continue;
    OpDef narrowed = op;
    for (const auto& list : config.supplements) {
      if (backendFamily(list.backend) != family) continue;
      for (const auto& def : list.defs) {
        if (def.name != op.name) continue;
        applySupplement(narrowed.inputs, def.inputs);
        applySupplement(narrowed.outputs, def.outputs);
        applySupplement(narrowed.params, def.params);
      }
    }
    result.push_back(std::move(narrowed));
  }
  return result;
}

}  // namespace qnn::oppackage
