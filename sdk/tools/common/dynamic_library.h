// DynamicLibrary: dlopen in one place. Owns the handle; closes it on
// destruction unless released. Used by every tool that loads a backend, a model
// library, the system library or an op package.
#pragma once

#include <string>

namespace qnn::tools {

class DynamicLibrary {
 public:
  DynamicLibrary() = default;
  ~DynamicLibrary();
  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  // Loads path (RTLD_NOW | RTLD_LOCAL). False with error() set on failure.
  bool open(const std::string& path);
  bool isOpen() const { return handle_ != nullptr; }
  // Address of an exported symbol, or nullptr (error() says why).
  void* symbol(const char* name);
  template <typename Fn>
  Fn function(const char* name) {
    return reinterpret_cast<Fn>(symbol(name));
  }
  const std::string& error() const { return error_; }
  // Leaves the library loaded for the rest of the process (no dlclose on destruction): for a library
  // whose state is meant to outlive its users, such as the Saver's recording.
  void keepLoaded() { handle_ = nullptr; }
  const std::string& path() const { return path_; }

 private:
  void* handle_ = nullptr;
  std::string path_;
  std::string error_;
};

}  // namespace qnn::tools
