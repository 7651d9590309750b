/* cuda::std: libcu++'s names of the C++ standard library. Here they are the standard library's
 * own (libc++, whose constexpr functions clang also compiles for the device), plus this folder's
 * atomics; names declared in cuda::std itself take precedence. */
#ifndef __SCORD_CUDA_STD_H__
#define __SCORD_CUDA_STD_H__
namespace std {}
namespace cuda {
namespace std {
using namespace ::std;
} // namespace std
} // namespace cuda
#endif
