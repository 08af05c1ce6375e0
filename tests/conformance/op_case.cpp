#include "op_case.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace qnn::conformance {
namespace {
std::map<std::string, CaseSource>& sources() {
  static std::map<std::string, CaseSource> s;
  return s;
}
}  // namespace

bool registerCaseSource(const std::string& family, CaseSource source) {
  sources()[family] = std::move(source);
  return true;
}

std::vector<OpCase> allCases() {
  std::vector<OpCase> all;
  for (auto& [family, source] : sources()) {
    auto cases = source();
    for (auto& c : cases) all.push_back(std::move(c));
  }
  return all;
}

}  // namespace qnn::conformance
