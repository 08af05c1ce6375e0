#include "tests/conformance/op_case.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace qnn::conformance {
namespace {
std::map<std::string, CaseSource>& sources() {
  static std::map<std::string, CaseSource> s;
  return s;
}
std::map<std::string, CaseSource>& fixedPointSources() {
  static std::map<std::string, CaseSource> s;
  return s;
}
std::vector<OpCase> collect(const std::map<std::string, CaseSource>& from) {
  std::vector<OpCase> all;
  for (auto& [family, source] : from) {
    auto cases = source();
    for (auto& c : cases) all.push_back(std::move(c));
  }
  return all;
}
}  // namespace

bool registerCaseSource(const std::string& family, CaseSource source) {
  sources()[family] = std::move(source);
  return true;
}

std::vector<OpCase> allCases() { return collect(sources()); }

bool registerFixedPointCaseSource(const std::string& family, CaseSource source) {
  fixedPointSources()[family] = std::move(source);
  return true;
}

std::vector<OpCase> allFixedPointCases() { return collect(fixedPointSources()); }

}  // namespace qnn::conformance
