// Lookup in a backend's constant table of {op type, kernel factory} rows (the
// one registration table each backend keeps).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace qnn::sdk {

// The factory of the first row whose opType equals opType, else nullptr.
template <typename Entry, size_t N>
auto findInOpTable(const Entry (&table)[N], const std::string& opType) -> decltype(table[0].factory) {
  for (const Entry& e : table)
    if (opType == e.opType) return e.factory;
  return nullptr;
}

// Every op type of the table, sorted.
template <typename Entry, size_t N>
std::vector<std::string> opTableNames(const Entry (&table)[N]) {
  std::vector<std::string> names;
  for (const Entry& e : table) names.emplace_back(e.opType);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace qnn::sdk
