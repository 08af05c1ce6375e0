/* OpenQNN public header: HTP backend specifics: Property.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_PROPERTY_H
#define QNN_HTP_PROPERTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnProperty.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_PROPERTY_CUSTOM_HTP_UNSIGNED_PD_SUPPORT 2002


#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_HTP_PROPERTY_H
