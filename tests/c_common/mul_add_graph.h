/* For the C test clients: loading a backend's interface table, and the float32 graph out = a * b + a (ElementWiseMultiply, then
 * ElementWiseAdd of the product and a), all three of the given rank-4 shape, built and finalized
 * in a context. Included by relative path, like float_tensor.h. */
#ifndef OPENQNN_TESTS_C_MUL_ADD_GRAPH_H
#define OPENQNN_TESTS_C_MUL_ADD_GRAPH_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "QnnInterface.h"
#include "tests/c_common/float_tensor.h"

/* Stops the client when a step it cannot go on without fails. */
#define REQUIRE(cond)                                                                    \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, "%s:%d: required %s; stopping\n", __FILE__, __LINE__, #cond);      \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

/* dlopens a backend library and returns its first provider's table, or NULL (reason on stderr). */
static inline const QNN_INTERFACE_VER_TYPE* loadQnnInterface(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    return NULL;
  }
  Qnn_ErrorHandle_t (*getProviders)(const QnnInterface_t***, uint32_t*);
  *(void**)&getProviders = dlsym(lib, "QnnInterface_getProviders");
  const QnnInterface_t** providers = NULL;
  uint32_t numProviders = 0;
  if (!getProviders || getProviders(&providers, &numProviders) != QNN_SUCCESS || numProviders == 0) {
    fprintf(stderr, "%s: no QNN interface provider\n", path);
    return NULL;
  }
  return &providers[0]->QNN_INTERFACE_VER_NAME;
}

struct MulAddGraph {
  Qnn_GraphHandle_t handle;
  Qnn_Tensor_t a, b, out; /* as created: ids set; clients copy them and set their buffers */
};

static inline Qnn_OpConfig_t mulAddNode(const char* name, const char* type, Qnn_Tensor_t* in, Qnn_Tensor_t* out) {
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1.name = name;
  op.v1.packageName = "qti.aisw";
  op.v1.typeName = type;
  op.v1.numOfInputs = 2;
  op.v1.inputTensors = in;
  op.v1.numOfOutputs = 1;
  op.v1.outputTensors = out;
  return op;
}

/* Returns the first failing call's code, or QNN_SUCCESS. `dims` must outlive the graph's use. */
static inline Qnn_ErrorHandle_t buildMulAddGraph(const QNN_INTERFACE_VER_TYPE* qnn, Qnn_ContextHandle_t ctx,
                                                 uint32_t* dims, struct MulAddGraph* g) {
  Qnn_ErrorHandle_t rc = qnn->graphCreate(ctx, "mul_add", NULL, &g->handle);
  if (rc != QNN_SUCCESS) return rc;
  g->a = floatTensor("a", QNN_TENSOR_TYPE_APP_WRITE, 4, dims);
  g->b = floatTensor("b", QNN_TENSOR_TYPE_APP_WRITE, 4, dims);
  Qnn_Tensor_t prod = floatTensor("prod", QNN_TENSOR_TYPE_NATIVE, 4, dims);
  g->out = floatTensor("out", QNN_TENSOR_TYPE_APP_READ, 4, dims);
  Qnn_Tensor_t* all[] = {&g->a, &g->b, &prod, &g->out};
  for (int i = 0; i < 4; ++i)
    if ((rc = qnn->tensorCreateGraphTensor(g->handle, all[i])) != QNN_SUCCESS) return rc;
  Qnn_Tensor_t mulIn[] = {g->a, g->b}, addIn[] = {prod, g->a};
  if ((rc = qnn->graphAddNode(g->handle, mulAddNode("mul", "ElementWiseMultiply", mulIn, &prod))) != QNN_SUCCESS)
    return rc;
  if ((rc = qnn->graphAddNode(g->handle, mulAddNode("add", "ElementWiseAdd", addIn, &g->out))) != QNN_SUCCESS)
    return rc;
  return qnn->graphFinalize(g->handle, NULL, NULL);
}

#endif
