/* OpenQNN public header: HTP backend specifics: Mem.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_MEMORY_INFRASTRUCTURE_2_H
#define QNN_HTP_MEMORY_INFRASTRUCTURE_2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_HTP_MEM_QURT = 0,
  QNN_HTP_MEM_UNDEFINED = 0x7fffffff,
} QnnHtpMem_Type_t;

typedef uint32_t QnnHtpMem_QurtAddress_t;

typedef struct {
  QnnHtpMem_Type_t type;
  uint64_t size;
  union {
    QnnHtpMem_QurtAddress_t qurtAddress;
  };
} QnnMemHtp_Descriptor_t;


#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_HTP_MEMORY_INFRASTRUCTURE_2_H
