// The shared main() wrapper: no exception escapes a tool. A ToolError becomes one
// "<tool>: error: ..." line on stderr (plus a usage hint for UsageError) and exit
// code 1; anything unexpected is reported the same way.
#pragma once

#include <functional>
#include <string>

namespace qnn::tools {

int runToolMain(const std::string& toolName, const std::function<int()>& body);

}  // namespace qnn::tools
