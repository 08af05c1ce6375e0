#include "tools/common/tool_main.h"

#include <cstdio>
#include <exception>
#include <new>

#include "tools/common/tool_error.h"

namespace qnn::tools {

int runToolMain(const std::string& toolName, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s (see %s --help)\n", toolName.c_str(), e.what(), toolName.c_str());
  } catch (const ToolError& e) {
    std::fprintf(stderr, "%s: error: %s\n", toolName.c_str(), e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory\n", toolName.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: internal error: %s\n", toolName.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: error: internal error\n", toolName.c_str());
  }
  return 1;
}

int runToolWithArgs(int argc, char** argv, ArgParser parser, const std::function<int(const ArgParser&)>& body) {
  const std::string tool = parser.toolName();
  return runToolMain(tool, [&] {
    parser.parse(argc, argv);
    return parser.answeredHelpOrVersion() ? 0 : body(parser);
  });
}

}  // namespace qnn::tools
