/* OpenQNN public header: The SDK build identifier string.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SDK_BUILD_ID_H
#define QNN_SDK_BUILD_ID_H


#ifdef __cplusplus
extern "C" {
#endif

/* OpenQNN's own build of the 2.43 SDK interface (QNN API 2.32.0), in the vendor's
 * form v<sdk version>.<yymmddHHMMSS>_<build>: clients split it at the dots (ONNX
 * Runtime reads the SDK version from the first three parts). Every OpenQNN library and
 * tool reports this one string (QnnBackend_getBuildId, --version); the vendor's
 * value for its 2.43 build is a recorded deviation (docs/abi-deviations-2.32.txt). */
#define QNN_SDK_BUILD_ID "v2.43.0.261128000000_openqnn"
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
