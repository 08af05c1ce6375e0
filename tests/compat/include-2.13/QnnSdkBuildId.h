/* OpenQNN public header: The SDK build identifier string.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SDK_BUILD_ID_H
#define QNN_SDK_BUILD_ID_H


#ifdef __cplusplus
extern "C" {
#endif

#define QNN_SDK_BUILD_ID "v2.43.0.260127150333_193827"
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
