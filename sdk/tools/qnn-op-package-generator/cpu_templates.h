// The fixed text of a generated CPU op package: the files templates/*.in, compiled
// in by the build (cmake/EmbedText.cmake). Placeholders are @NAME@ and are
// filled by cpu_package_sources.cpp; everything op-specific comes from there.
// The generated code includes public QNN headers only (CPU/QnnCpuOpPackage.h,
// QnnOpPackage.h, ...), so it builds against any installed SDK.
#pragma once

namespace qnn::tools::oppackage_gen {

// include/@PKG@Ops.h: what a kernel sees. @OP_DECLARATIONS@.
extern const char* const kCpuOpsHeader;
// src/@PKG@Package.h: rule tables and helpers shared by the generated sources.
extern const char* const kCpuPackageHeader;
// src/@PKG@Interface.cpp: the interface provider and the package lifecycle. @OP_TABLE@.
extern const char* const kCpuInterfaceSource;
// src/@PKG@Validation.cpp: the generic checks. @RULE_TABLES@, @PARAM_READERS@.
extern const char* const kCpuValidationSource;
// src/ops/@OP@.cpp: the author's kernel, written once.
extern const char* const kCpuOpSource;
// CMakeLists.txt: builds lib@PKG@.so with find_package(QNN). @OP_SOURCES@.
extern const char* const kCpuCMakeLists;

}  // namespace qnn::tools::oppackage_gen
