// The shared main() wrapper: no exception escapes a tool. A ToolError becomes one
// "<tool>: error: ..." line on stderr (plus a usage hint for UsageError) and exit
// code 1; anything unexpected is reported the same way.
#pragma once

#include <functional>
#include <string>

#include "tools/common/arg_parser.h"

namespace qnn::tools {

int runToolMain(const std::string& toolName, const std::function<int()>& body);

// The main() of a tool with flags, under runToolMain: parses argv with
// `parser`, answers --help and --version (exit 0), else returns body(parser).
int runToolWithArgs(int argc, char** argv, ArgParser parser, const std::function<int(const ArgParser&)>& body);

}  // namespace qnn::tools
