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

// Built once per process (every reference computed once): a test program reads them for several suites.
const std::vector<OpCase>& allCases() {
  static const std::vector<OpCase> cases = collect(sources());
  return cases;
}

bool registerFixedPointCaseSource(const std::string& family, CaseSource source) {
  fixedPointSources()[family] = std::move(source);
  return true;
}

const std::vector<OpCase>& allFixedPointCases() {
  static const std::vector<OpCase> cases = collect(fixedPointSources());
  return cases;
}

}  // namespace qnn::conformance
