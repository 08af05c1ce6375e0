/* OpenQNN public header: HTP backend specifics: Mem.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_MEMORY_INFRASTRUCTURE_2_H
#define QNN_HTP_MEMORY_INFRASTRUCTURE_2_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t QnnHtpMem_QurtAddress_t;

typedef struct {
  int32_t fd;
  uint64_t offset;
} QnnHtpMem_SharedBufferConfig_t;

typedef enum {
  QNN_HTP_MEM_QURT = 0,
  QNN_HTP_MEM_SHARED_BUFFER = 1,
  QNN_HTP_MEM_WEIGHTS_BUFFER = 2,
  QNN_HTP_MEM_SHARED_SPILLFILL_BUFFER = 3,
  QNN_HTP_MEM_UNDEFINED = 2147483647,
} QnnHtpMem_Type_t;

typedef struct {
  QnnHtpMem_Type_t type;
  uint64_t size;
  union {
    QnnHtpMem_QurtAddress_t qurtAddress;
    QnnHtpMem_SharedBufferConfig_t sharedBufferConfig;
    QnnHtpMem_SharedBufferConfig_t weightsBufferConfig;
    QnnHtpMem_SharedBufferConfig_t sharedSpillfillBufferConfig;
  };
} QnnMemHtp_Descriptor_t;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
