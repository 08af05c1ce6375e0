// Reads an OpDefCollection XML file into an OpPackageConfig and checks it against
// the schema and its rules. Every problem found becomes a Diagnostic naming the
// file, the line of the offending element and the element; parsing continues
// after an error so one run reports all of them.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "oppackage/op_package_config.h"

namespace qnn::oppackage {

struct Diagnostic {
  std::string file;
  int line = 0;
  std::string message;
  // "file:line: message", the format the tests and the generator print.
  std::string format() const;
};

// Thrown by the parse functions; what() lists every diagnostic, one per line.
class OpPackageConfigError : public std::runtime_error {
 public:
  explicit OpPackageConfigError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// Reads and validates path. Throws OpPackageConfigError (an unreadable file is
// one diagnostic at line 0). The returned config owns all its data.
OpPackageConfig parseOpPackageConfigFile(const std::string& path);

// The same for XML held in memory; displayPath is what diagnostics call the file.
OpPackageConfig parseOpPackageConfigText(const std::string& xml, const std::string& displayPath);

}  // namespace qnn::oppackage
