/* OpenQNN public header: HTP: QnnHtpSystemContext.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_SYSTEM_CONTEXT_H
#define QNN_HTP_SYSTEM_CONTEXT_H


#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_SYSTEM_CONTEXT_HTP_HW_INFO_BLOB_VERSION_V1 = 1,
  QNN_SYSTEM_CONTEXT_HTP_HW_INFO_BLOB_UNDEFINED = 2147483647,
} QnnHtpSystemContext_HwInfoBlobVersion_t;

typedef struct QnnHtpSystemContext_HwBlobInfoV1 {
  uint32_t graphListIndex;
  uint64_t spillFillBufferSize;
} QnnHtpSystemContext_HwBlobInfoV1_t;

typedef struct {
  QnnHtpSystemContext_HwInfoBlobVersion_t version;
  union {
    QnnHtpSystemContext_HwBlobInfoV1_t contextBinaryHwInfoBlobV1_t;
  };
} QnnHtpSystemContext_HwBlobInfo_t;

typedef enum {
  QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_VERSION_V1 = 1,
  QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_VERSION_V2 = 2,
  QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_UNDEFINED = 2147483647,
} QnnHtpSystemContext_GraphInfoBlobVersion_t;

typedef struct {
  uint64_t spillFillBufferSize;
  uint32_t vtcmSize;
  uint32_t optimizationLevel;
  uint8_t htpDlbc;
  uint64_t numHvxThreads;
} QnnHtpSystemContext_GraphBlobInfoV1_t;

typedef struct {
  QnnHtpSystemContext_GraphInfoBlobVersion_t version;
  uint64_t nativeKChannelSize;
  uint64_t nativeVChannelSize;
  uint32_t isSafeShareIO;
  uint64_t ioTensorSize;
  uint64_t opDataSize;
  uint64_t constSize;
  uint64_t ddrTensorSize;
  uint64_t sharedWeightsSize;
} QnnHtpSystemContext_GraphBlobInfoV2_t;

typedef struct {
  QnnHtpSystemContext_GraphInfoBlobVersion_t version;
  union {
    QnnHtpSystemContext_GraphBlobInfoV1_t contextBinaryGraphBlobInfoV1;
  };
} QnnHtpSystemContext_GraphBlobInfo_t;

typedef enum {
  QNN_SYSTEM_CONTEXT_HTP_CONTEXT_INFO_BLOB_VERSION_V1 = 1,
  QNN_SYSTEM_CONTEXT_HTP_CONTEXT_INFO_BLOB_UNDEFINED = 2147483647,
} QnnHtpSystemContext_ContextInfoBlobVersion_t;

typedef struct {
  uint32_t dspArch;
} QnnHtpSystemContext_ContextBlobInfoV1_t;

typedef struct {
  QnnHtpSystemContext_ContextInfoBlobVersion_t version;
  union {
    QnnHtpSystemContext_ContextBlobInfoV1_t contextBinaryContextBlobInfoV1;
  };
} QnnHtpSystemContext_ContextBlobInfo_t;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
