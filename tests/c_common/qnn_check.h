/* For the C test clients: CHECK(call) ends the program with exit code 1, naming the call and
 * its error code, when a QNN call does not return QNN_SUCCESS. Included by relative path, so a
 * client whose include path holds only a vendor-like header set (tests/compat) can use it too. */
#ifndef OPENQNN_TESTS_C_QNN_CHECK_H
#define OPENQNN_TESTS_C_QNN_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "QnnCommon.h"

#define CHECK(call)                                                    \
  do {                                                                 \
    Qnn_ErrorHandle_t err_ = (call);                                   \
    if (err_ != QNN_SUCCESS) {                                         \
      fprintf(stderr, "%s failed: %lu\n", #call, (unsigned long)err_); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

#endif
