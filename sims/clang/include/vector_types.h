/* Built-in vector types of CUDA C++ (CUDA C++ Programming Guide, "Built-in Vector Types"):
 * charN, ucharN, shortN, ushortN, intN, uintN, longN, ulongN, longlongN, ulonglongN, floatN,
 * doubleN for N = 1..4, with the alignments that guide's table gives, and dim3. */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

#include "host_defines.h"

#define __SCORD_VECTOR1(name, T, A) struct __align__(A) name { T x; };
#define __SCORD_VECTOR2(name, T, A) struct __align__(A) name { T x, y; };
#define __SCORD_VECTOR3(name, T, A) struct __align__(A) name { T x, y, z; };
#define __SCORD_VECTOR4(name, T, A) struct __align__(A) name { T x, y, z, w; };

__SCORD_VECTOR1(char1, signed char, 1)
__SCORD_VECTOR2(char2, signed char, 2)
__SCORD_VECTOR3(char3, signed char, 1)
__SCORD_VECTOR4(char4, signed char, 4)
__SCORD_VECTOR1(uchar1, unsigned char, 1)
__SCORD_VECTOR2(uchar2, unsigned char, 2)
__SCORD_VECTOR3(uchar3, unsigned char, 1)
__SCORD_VECTOR4(uchar4, unsigned char, 4)
__SCORD_VECTOR1(short1, short, 2)
__SCORD_VECTOR2(short2, short, 4)
__SCORD_VECTOR3(short3, short, 2)
__SCORD_VECTOR4(short4, short, 8)
__SCORD_VECTOR1(ushort1, unsigned short, 2)
__SCORD_VECTOR2(ushort2, unsigned short, 4)
__SCORD_VECTOR3(ushort3, unsigned short, 2)
__SCORD_VECTOR4(ushort4, unsigned short, 8)
__SCORD_VECTOR1(int1, int, 4)
__SCORD_VECTOR2(int2, int, 8)
__SCORD_VECTOR3(int3, int, 4)
__SCORD_VECTOR4(int4, int, 16)
__SCORD_VECTOR1(uint1, unsigned int, 4)
__SCORD_VECTOR2(uint2, unsigned int, 8)
__SCORD_VECTOR3(uint3, unsigned int, 4)
__SCORD_VECTOR4(uint4, unsigned int, 16)
__SCORD_VECTOR1(long1, long, sizeof(long))
__SCORD_VECTOR2(long2, long, 2 * sizeof(long))
__SCORD_VECTOR3(long3, long, sizeof(long))
__SCORD_VECTOR4(long4, long, 16)
__SCORD_VECTOR1(ulong1, unsigned long, sizeof(unsigned long))
__SCORD_VECTOR2(ulong2, unsigned long, 2 * sizeof(unsigned long))
__SCORD_VECTOR3(ulong3, unsigned long, sizeof(unsigned long))
__SCORD_VECTOR4(ulong4, unsigned long, 16)
__SCORD_VECTOR1(longlong1, long long, 8)
__SCORD_VECTOR2(longlong2, long long, 16)
__SCORD_VECTOR3(longlong3, long long, 8)
__SCORD_VECTOR4(longlong4, long long, 16)
__SCORD_VECTOR1(ulonglong1, unsigned long long, 8)
__SCORD_VECTOR2(ulonglong2, unsigned long long, 16)
__SCORD_VECTOR3(ulonglong3, unsigned long long, 8)
__SCORD_VECTOR4(ulonglong4, unsigned long long, 16)
__SCORD_VECTOR1(float1, float, 4)
__SCORD_VECTOR2(float2, float, 8)
__SCORD_VECTOR3(float3, float, 4)
__SCORD_VECTOR4(float4, float, 16)
__SCORD_VECTOR1(double1, double, 8)
__SCORD_VECTOR2(double2, double, 16)
__SCORD_VECTOR3(double3, double, 8)
__SCORD_VECTOR4(double4, double, 16)

#undef __SCORD_VECTOR1
#undef __SCORD_VECTOR2
#undef __SCORD_VECTOR3
#undef __SCORD_VECTOR4

/* Names CUDA 13 gives the explicitly aligned 256-bit types. */
typedef long4 long4_16a;
typedef ulong4 ulong4_16a;
typedef longlong4 longlong4_16a;
typedef ulonglong4 ulonglong4_16a;
typedef double4 double4_16a;

#if !defined(__cplusplus)
typedef struct char1 char1; typedef struct char2 char2; typedef struct char3 char3; typedef struct char4 char4;
typedef struct uchar1 uchar1; typedef struct uchar2 uchar2; typedef struct uchar3 uchar3; typedef struct uchar4 uchar4;
typedef struct short1 short1; typedef struct short2 short2; typedef struct short3 short3; typedef struct short4 short4;
typedef struct ushort1 ushort1; typedef struct ushort2 ushort2; typedef struct ushort3 ushort3; typedef struct ushort4 ushort4;
typedef struct int1 int1; typedef struct int2 int2; typedef struct int3 int3; typedef struct int4 int4;
typedef struct uint1 uint1; typedef struct uint2 uint2; typedef struct uint3 uint3; typedef struct uint4 uint4;
typedef struct long1 long1; typedef struct long2 long2; typedef struct long3 long3; typedef struct long4 long4;
typedef struct ulong1 ulong1; typedef struct ulong2 ulong2; typedef struct ulong3 ulong3; typedef struct ulong4 ulong4;
typedef struct longlong1 longlong1; typedef struct longlong2 longlong2; typedef struct longlong3 longlong3; typedef struct longlong4 longlong4;
typedef struct ulonglong1 ulonglong1; typedef struct ulonglong2 ulonglong2; typedef struct ulonglong3 ulonglong3; typedef struct ulonglong4 ulonglong4;
typedef struct float1 float1; typedef struct float2 float2; typedef struct float3 float3; typedef struct float4 float4;
typedef struct double1 double1; typedef struct double2 double2; typedef struct double3 double3; typedef struct double4 double4;
#endif

/* The launch-configuration type: unspecified components are 1. */
struct dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
#if !defined(__cplusplus)
typedef struct dim3 dim3;
#endif

#endif /* __VECTOR_TYPES_H__ */
