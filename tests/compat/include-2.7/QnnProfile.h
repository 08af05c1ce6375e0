/* OpenQNN public header: Profiling: event collection at basic or detailed level.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_PROFILE_H
#define QNN_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_PROFILE_EVENTTYPE_BACKEND 1000
#define QNN_PROFILE_EVENTTYPE_DEINIT 500
#define QNN_PROFILE_EVENTTYPE_EXECUTE 400
#define QNN_PROFILE_EVENTTYPE_EXECUTE_DEVICE 407
#define QNN_PROFILE_EVENTTYPE_EXECUTE_POSTPROCESS 408
#define QNN_PROFILE_EVENTTYPE_EXECUTE_PREPROCESS 406
#define QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT 405
#define QNN_PROFILE_EVENTTYPE_FINALIZE 300
#define QNN_PROFILE_EVENTTYPE_INIT 100
#define QNN_PROFILE_EVENTTYPE_NODE 404
#define QNN_PROFILE_EVENTUNIT_BACKEND 1000
#define QNN_PROFILE_EVENTUNIT_BYTES 2
#define QNN_PROFILE_EVENTUNIT_COUNT 4
#define QNN_PROFILE_EVENTUNIT_CYCLES 3
#define QNN_PROFILE_EVENTUNIT_MICROSEC 1
#define QNN_PROFILE_LEVEL_BACKEND 1000
#define QNN_PROFILE_LEVEL_BASIC 1
#define QNN_PROFILE_LEVEL_DETAILED 2

typedef enum {
  QNN_PROFILE_MIN_ERROR = 12000,
  QNN_PROFILE_NO_ERROR = 0,
  QNN_PROFILE_ERROR_UNSUPPORTED = 1000,
  QNN_PROFILE_ERROR_INVALID_ARGUMENT = 1004,
  QNN_PROFILE_ERROR_MEM_ALLOC = 1002,
  QNN_PROFILE_ERROR_INVALID_HANDLE = 12000,
  QNN_PROFILE_ERROR_HANDLE_IN_USE = 12001,
  QNN_PROFILE_MAX_ERROR = 12999,
  QNN_PROFILE_ERROR_UNDEFINED = 0x7fffffff,
} QnnProfile_Error_t;

typedef uint64_t QnnProfile_EventId_t;

typedef uint32_t QnnProfile_EventType_t;

typedef uint32_t QnnProfile_EventUnit_t;

typedef uint64_t QnnProfile_EventValue_t;

typedef uint32_t QnnProfile_Level_t;

typedef struct {
  QnnProfile_EventType_t type;
  QnnProfile_EventUnit_t unit;
  QnnProfile_EventValue_t value;
  const char *identifier;
} QnnProfile_EventData_t;

QNN_API
Qnn_ErrorHandle_t QnnProfile_create(Qnn_BackendHandle_t backend, QnnProfile_Level_t level, Qnn_ProfileHandle_t *profile);

QNN_API
Qnn_ErrorHandle_t QnnProfile_free(Qnn_ProfileHandle_t profile);

QNN_API
Qnn_ErrorHandle_t QnnProfile_getEventData(QnnProfile_EventId_t eventId, QnnProfile_EventData_t *eventData);

QNN_API
Qnn_ErrorHandle_t QnnProfile_getEvents(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t **profileEventIds, uint32_t *numEvents);

QNN_API
Qnn_ErrorHandle_t QnnProfile_getSubEvents(QnnProfile_EventId_t eventId, const QnnProfile_EventId_t **subEventIds, uint32_t *numSubEvents);

#define QNN_PROFILE_EVENT_DATA_INIT \
  {0, 0, 0, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_PROFILE_H
