#include "tools/common/output_path.h"

#include <sys/stat.h>

#include "tools/common/tool_error.h"

namespace qnn::tools {

void requireParentDirectory(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw ToolError("output directory '" + dir + "' does not exist");
}

}  // namespace qnn::tools
