/* NVTX, the NVIDIA Tools Extension (NVTX documentation): annotations of ranges and marks for
 * profilers. The simulator has no profiler, so every annotation does nothing and the range
 * functions return the nesting depth a profiler would report. */
#ifndef __SCORD_NVTOOLSEXT_H__
#define __SCORD_NVTOOLSEXT_H__

#include <stddef.h>
#include <stdint.h>

#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

#if defined(__cplusplus)
extern "C" {
#endif

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;
typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0,
  NVTX_MESSAGE_TYPE_ASCII = 1,
  NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
  NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3,
  NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
  NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;
typedef union nvtxMessageValue_t {
  const char *ascii;
  const wchar_t *unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;
typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_t;

static int __scord_nvtx_depth = 0;

static inline void nvtxInitialize(const void *reserved) { (void)reserved; }
static inline void nvtxMarkA(const char *message) { (void)message; }
static inline void nvtxMarkEx(const nvtxEventAttributes_t *attributes) { (void)attributes; }
static inline nvtxRangeId_t nvtxRangeStartA(const char *message) { (void)message; return 0; }
static inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *attributes) { (void)attributes; return 0; }
static inline void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
static inline int nvtxRangePushA(const char *message) { (void)message; return __scord_nvtx_depth++; }
static inline int nvtxRangePushEx(const nvtxEventAttributes_t *attributes) { (void)attributes; return __scord_nvtx_depth++; }
static inline int nvtxRangePop(void) { return __scord_nvtx_depth > 0 ? --__scord_nvtx_depth : -1; }
static inline void nvtxNameOsThreadA(uint32_t threadId, const char *name) { (void)threadId; (void)name; }
static inline void nvtxNameCategoryA(uint32_t category, const char *name) { (void)category; (void)name; }
static inline nvtxDomainHandle_t nvtxDomainCreateA(const char *name) { (void)name; return 0; }
static inline void nvtxDomainDestroy(nvtxDomainHandle_t domain) { (void)domain; }
static inline void nvtxDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attributes) { (void)domain; (void)attributes; }
static inline int nvtxDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attributes) {
  (void)domain;
  (void)attributes;
  return __scord_nvtx_depth++;
}
static inline int nvtxDomainRangePop(nvtxDomainHandle_t domain) { (void)domain; return nvtxRangePop(); }
static inline nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t domain, const char *string) {
  (void)domain;
  (void)string;
  return 0;
}

#if defined(__cplusplus)
}
#endif

#endif
