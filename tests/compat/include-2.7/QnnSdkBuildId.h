/* OpenQNN public header: The SDK build identifier string.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SDK_BUILD_ID_H
#define QNN_SDK_BUILD_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_SDK_BUILD_ID "v2.13.0.230725130242_60412"


#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SDK_BUILD_ID_H
