/* Channel format descriptors of CUDA arrays and textures (CUDA Runtime API reference,
 * cudaCreateChannelDesc). */
#ifndef __CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__

#include "driver_types.h"

static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                               enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc desc = {x, y, z, w, f};
  return desc;
}

#if defined(__cplusplus)
/* The descriptor of an element type: its components' bit widths and their kind. */
template <class T> struct __scord_channel;
#define __SCORD_CHANNEL(T, n, kind)                                                          \
  template <> struct __scord_channel<T> {                                                    \
    static __host__ struct cudaChannelFormatDesc get() {                                     \
      const int b = (int)(8 * sizeof(T) / n);                                                \
      return cudaCreateChannelDesc(b, n > 1 ? b : 0, n > 2 ? b : 0, n > 3 ? b : 0, kind);    \
    }                                                                                        \
  };
#define __SCORD_CHANNELS(base, scalar, kind)                                                 \
  __SCORD_CHANNEL(scalar, 1, kind)                                                           \
  __SCORD_CHANNEL(base##1, 1, kind)                                                          \
  __SCORD_CHANNEL(base##2, 2, kind)                                                          \
  __SCORD_CHANNEL(base##4, 4, kind)
__SCORD_CHANNEL(char, 1, ((char)-1 < 0) ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned)
__SCORD_CHANNELS(char, signed char, cudaChannelFormatKindSigned)
__SCORD_CHANNELS(uchar, unsigned char, cudaChannelFormatKindUnsigned)
__SCORD_CHANNELS(short, short, cudaChannelFormatKindSigned)
__SCORD_CHANNELS(ushort, unsigned short, cudaChannelFormatKindUnsigned)
__SCORD_CHANNELS(int, int, cudaChannelFormatKindSigned)
__SCORD_CHANNELS(uint, unsigned int, cudaChannelFormatKindUnsigned)
__SCORD_CHANNELS(long, long, cudaChannelFormatKindSigned)
__SCORD_CHANNELS(ulong, unsigned long, cudaChannelFormatKindUnsigned)
__SCORD_CHANNELS(float, float, cudaChannelFormatKindFloat)
#undef __SCORD_CHANNELS
#undef __SCORD_CHANNEL

template <class T> static __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return __scord_channel<T>::get();
}
#endif

#endif /* __CHANNEL_DESCRIPTOR_H__ */
