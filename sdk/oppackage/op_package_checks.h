// The rules that span elements, run after the XML was read into an
// OpPackageConfig: unique names, defaults legal for their datatype and
// enumeration, supplements that refer to existing ops and tensors, backends
// named, BACKEND_SPECIFIC resolved. Internal to sdk/oppackage.
#pragma once

#include <string>
#include <vector>

#include "oppackage/op_package_config.h"
#include "oppackage/op_package_xml.h"

namespace qnn::oppackage {

// Appends one diagnostic per broken rule to out (in file order, mostly).
void checkOpPackageConfig(const OpPackageConfig& config, std::vector<Diagnostic>& out);

}  // namespace qnn::oppackage
