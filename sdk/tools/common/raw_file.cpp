#include "tools/common/raw_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "tools/common/tool_error.h"

namespace qnn::tools {

std::vector<uint8_t> readBinaryFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw ToolError("cannot open '" + path + "': " + std::strerror(errno));
  std::vector<uint8_t> data;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw ToolError("cannot read '" + path + "'");
  return data;
}

// Written whole or not at all: into a temporary file beside `path`, flushed to the disk, then
// renamed over `path`, so a tool killed mid-write never leaves a truncated file under the final
// name (an earlier file of that name stays as it was until the rename).
void writeBinaryFile(const std::string& path, const void* data, size_t size) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw ToolError("cannot create '" + path + "': " + std::strerror(errno));
  bool ok = std::fwrite(data, 1, size, f) == size && std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw ToolError("cannot write '" + path + "': " + std::strerror(err));
  }
}

void makeDirectories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw ToolError("cannot create directory '" + path + "': " + ec.message());
}

bool fileExists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

void requireFile(const std::string& path, const std::string& what) {
  if (!fileExists(path)) throw ToolError(what + " not found: " + path);
}

}  // namespace qnn::tools
