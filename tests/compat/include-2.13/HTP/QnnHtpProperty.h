/* OpenQNN public header: HTP backend specifics: Property.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_PROPERTY_H
#define QNN_HTP_PROPERTY_H

#include "QnnProperty.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_PROPERTY_CUSTOM_HTP_UNSIGNED_PD_SUPPORT QNN_PROPERTY_GROUP_CUSTOM + 1
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
