/* A small part of Thrust (Thrust documentation: containers, algorithms, iterators, random
 * numbers), written for the ScoRD simulator. Algorithms run sequentially on the host: a
 * device_vector keeps its elements in managed memory (cudaMallocManaged), so kernels reach them
 * through raw_pointer_cast and the host program's algorithms through ordinary pointers. The
 * simulator thus sees the program's own kernels and none of Thrust's, which is what it checks.
 * What is here: host_vector, device_vector, device_ptr, device_malloc/device_free, tuples and
 * zip/counting/discard/transform iterators, copy, copy_if, fill, sequence, generate, transform,
 * for_each, sort, stable_sort, sort_by_key, is_sorted, reduce, reduce_by_key, inclusive/exclusive
 * scans and their by-key forms, unique and its copy and by-key forms, adjacent difference,
 * find_if, count, the functional objects, and the random engines and
 * distributions. Everything else of Thrust is absent. Like Thrust's own headers, this brings in
 * <iostream>, which programs using Thrust often rely on without including it. */
#ifndef __SCORD_THRUST_H__
#define __SCORD_THRUST_H__

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <iterator>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#define THRUST_VERSION 200800
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 8

namespace thrust {

/* Execution policies: accepted and ignored (everything runs on the host). */
struct __policy {};
struct host_t : __policy {};
struct device_t : __policy {};
static const host_t host = {};
static const device_t device = {};
namespace cuda {
static const device_t par = {};
}

/* Containers. */
template <class T, class Alloc = std::allocator<T>> using host_vector = std::vector<T, Alloc>;

/* device_ptr<void> is an untyped device address (reference is void: nothing to dereference). */
template <class T> class device_ptr {
  T *__p;

public:
  typedef T element_type;
  typedef T value_type;
  typedef std::ptrdiff_t difference_type;
  typedef T *pointer;
  typedef typename std::add_lvalue_reference<T>::type reference;
  typedef std::random_access_iterator_tag iterator_category;
  __host__ __device__ device_ptr() : __p(nullptr) {}
  __host__ __device__ explicit device_ptr(T *p) : __p(p) {}
  template <class U, class = typename std::enable_if<std::is_convertible<U *, T *>::value>::type>
  __host__ __device__ device_ptr(const device_ptr<U> &o) : __p(o.get()) {}
  __host__ __device__ T *get() const { return __p; }
  __host__ __device__ reference operator*() const { return *__p; }
  __host__ __device__ T *operator->() const { return __p; }
  __host__ __device__ reference operator[](std::ptrdiff_t i) const { return __p[i]; }
  __host__ __device__ device_ptr &operator++() { ++__p; return *this; }
  __host__ __device__ device_ptr &operator--() { --__p; return *this; }
  __host__ __device__ device_ptr operator++(int) { device_ptr r = *this; ++__p; return r; }
  __host__ __device__ device_ptr operator--(int) { device_ptr r = *this; --__p; return r; }
  __host__ __device__ device_ptr &operator+=(std::ptrdiff_t n) { __p += n; return *this; }
  __host__ __device__ device_ptr &operator-=(std::ptrdiff_t n) { __p -= n; return *this; }
  __host__ __device__ device_ptr operator+(std::ptrdiff_t n) const { return device_ptr(__p + n); }
  __host__ __device__ device_ptr operator-(std::ptrdiff_t n) const { return device_ptr(__p - n); }
  __host__ __device__ std::ptrdiff_t operator-(const device_ptr &o) const { return __p - o.__p; }
  __host__ __device__ bool operator==(const device_ptr &o) const { return __p == o.__p; }
  __host__ __device__ bool operator!=(const device_ptr &o) const { return __p != o.__p; }
  __host__ __device__ bool operator<(const device_ptr &o) const { return __p < o.__p; }
  __host__ __device__ bool operator>(const device_ptr &o) const { return __p > o.__p; }
  __host__ __device__ bool operator<=(const device_ptr &o) const { return __p <= o.__p; }
  __host__ __device__ bool operator>=(const device_ptr &o) const { return __p >= o.__p; }
};
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *p) { return device_ptr<T>(p); }
template <class T> __host__ __device__ T *raw_pointer_cast(T *p) { return p; }
template <class T> __host__ __device__ T *raw_pointer_cast(const device_ptr<T> &p) { return p.get(); }

/* Where an iterator's elements lie, when they lie next to each other in memory (pointers, device
 * pointers, iterators of std::vector): copies and sorts through such iterators work on the memory
 * itself. The host program is compiled without optimisation, where every layer of a library
 * iterator is a function call per element. */
namespace __detail {
template <class T> T *__address(T *p) { return p; }
template <class T> T *__address(device_ptr<T> p) { return p.get(); }
template <class It, class = void> struct __vector_iterator : std::false_type {};
template <class It>
struct __vector_iterator<It, typename std::enable_if<std::is_same<It, typename std::vector<typename std::iterator_traits<It>::value_type>::iterator>::value &&
                                                     !std::is_same<typename std::iterator_traits<It>::value_type, bool>::value>::type>
    : std::true_type {};
template <class It> typename std::enable_if<__vector_iterator<It>::value, typename std::iterator_traits<It>::value_type *>::type __address(It it) {
  return &*it;
}
template <class It, class = void> struct __contiguous : std::false_type {};
template <class It> struct __contiguous<It, decltype((void)__address(std::declval<It>()))> : std::true_type {};

/* Copies n elements to out: one memcpy when the source is contiguous memory of the same trivially copyable type. */
template <class It, class T> void __copy_to(It first, std::size_t n, T *out, std::true_type) {
  if (n) std::memcpy(out, __address(first), n * sizeof(T));
}
template <class It, class T> void __copy_to(It first, std::size_t n, T *out, std::false_type) {
  for (std::size_t i = 0; i < n; ++i, ++first) out[i] = *first;
}
template <class It, class T> void __copy_to(It first, std::size_t n, T *out) {
  typedef std::integral_constant<bool, __contiguous<It>::value && std::is_trivially_copyable<T>::value &&
                                           std::is_same<typename std::remove_cv<typename std::iterator_traits<It>::value_type>::type, T>::value>
      __memcpy_able;
  __copy_to(first, n, out, __memcpy_able());
}
} // namespace __detail

template <class T> device_ptr<T> device_malloc(std::size_t n) {
  void *p = nullptr;
  cudaMallocManaged(&p, n * sizeof(T));
  return device_ptr<T>(static_cast<T *>(p));
}
/* Found by argument-dependent lookup for Thrust's types; std::swap, more specialised, wins where
 * both are visible. */
template <class A, class B> __host__ __device__ void swap(A &a, B &b) {
  A t = a;
  a = b;
  b = t;
}

/* device_malloc(n) without a type: n bytes. */
inline device_ptr<void> device_malloc(std::size_t n) {
  void *p = nullptr;
  cudaMallocManaged(&p, n);
  return device_ptr<void>(p);
}
template <class T> void device_free(device_ptr<T> p) { cudaFree((void *)p.get()); }

template <class T> class device_vector {
  T *__data = nullptr;
  std::size_t __size = 0, __capacity = 0;

  void __reserve(std::size_t n) {
    if (n <= __capacity) return;
    void *p = nullptr;
    cudaMallocManaged(&p, (n ? n : 1) * sizeof(T));
    T *fresh = static_cast<T *>(p);
    __detail::__copy_to(__data, __size, fresh);
    if (__data) cudaFree(__data);
    __data = fresh;
    __capacity = n;
  }

public:
  typedef T value_type;
  typedef T *iterator;
  typedef const T *const_iterator;
  typedef T &reference;
  typedef const T &const_reference;
  typedef std::size_t size_type;
  typedef device_ptr<T> pointer;

  device_vector() = default;
  explicit device_vector(std::size_t n, const T &value = T()) { resize(n, value); }
  device_vector(const device_vector &o) { assign(o.begin(), o.end()); }
  template <class A> device_vector(const std::vector<T, A> &v) { assign(v.begin(), v.end()); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category> device_vector(It first, It last) {
    assign(first, last);
  }
  ~device_vector() {
    if (__data) cudaFree(__data);
  }
  device_vector &operator=(const device_vector &o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  template <class A> device_vector &operator=(const std::vector<T, A> &v) {
    assign(v.begin(), v.end());
    return *this;
  }
  template <class A> operator std::vector<T, A>() const { return std::vector<T, A>(begin(), end()); }

  template <class It> void assign(It first, It last) {
    std::size_t n = (std::size_t)std::distance(first, last);
    __reserve(n);
    __detail::__copy_to(first, n, __data);
    __size = n;
  }
  void resize(std::size_t n, const T &value = T()) {
    __reserve(n);
    for (std::size_t i = __size; i < n; ++i) __data[i] = value;
    __size = n;
  }
  void reserve(std::size_t n) { __reserve(n); }
  void clear() { __size = 0; }
  void shrink_to_fit() {}
  void push_back(const T &v) {
    if (__size == __capacity) __reserve(__capacity ? 2 * __capacity : 8);
    __data[__size++] = v;
  }
  std::size_t size() const { return __size; }
  std::size_t capacity() const { return __capacity; }
  bool empty() const { return __size == 0; }
  T *begin() { return __data; }
  T *end() { return __data + __size; }
  const T *begin() const { return __data; }
  const T *end() const { return __data + __size; }
  const T *cbegin() const { return __data; }
  const T *cend() const { return __data + __size; }
  T &operator[](std::size_t i) { return __data[i]; }
  const T &operator[](std::size_t i) const { return __data[i]; }
  T &front() { return __data[0]; }
  T &back() { return __data[__size - 1]; }
  device_ptr<T> data() { return device_ptr<T>(__data); }
  device_ptr<const T> data() const { return device_ptr<const T>(__data); }
  void swap(device_vector &o) {
    std::swap(__data, o.__data);
    std::swap(__size, o.__size);
    std::swap(__capacity, o.__capacity);
  }
};

/* Tuples. */
using std::get;
using std::make_pair;
using std::make_tuple;
using std::pair;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;

/* Iterators. */
template <class T> class counting_iterator {
  T __v;

public:
  typedef T value_type;
  typedef std::ptrdiff_t difference_type;
  typedef const T *pointer;
  typedef T reference;
  typedef std::random_access_iterator_tag iterator_category;
  __host__ __device__ explicit counting_iterator(T v = T()) : __v(v) {}
  __host__ __device__ T operator*() const { return __v; }
  __host__ __device__ T operator[](difference_type i) const { return __v + (T)i; }
  __host__ __device__ counting_iterator &operator++() { ++__v; return *this; }
  __host__ __device__ counting_iterator operator++(int) { counting_iterator r = *this; ++__v; return r; }
  __host__ __device__ counting_iterator &operator--() { --__v; return *this; }
  __host__ __device__ counting_iterator &operator+=(difference_type n) { __v += (T)n; return *this; }
  __host__ __device__ counting_iterator operator+(difference_type n) const { return counting_iterator(__v + (T)n); }
  __host__ __device__ counting_iterator operator-(difference_type n) const { return counting_iterator(__v - (T)n); }
  __host__ __device__ difference_type operator-(const counting_iterator &o) const { return (difference_type)(__v - o.__v); }
  __host__ __device__ bool operator==(const counting_iterator &o) const { return __v == o.__v; }
  __host__ __device__ bool operator!=(const counting_iterator &o) const { return __v != o.__v; }
  __host__ __device__ bool operator<(const counting_iterator &o) const { return __v < o.__v; }
};
template <class T> __host__ __device__ counting_iterator<T> make_counting_iterator(T v) { return counting_iterator<T>(v); }

/* An output iterator that drops what is written to it. */
class discard_iterator {
  std::ptrdiff_t __i;
  struct __sink {
    template <class V> __sink &operator=(const V &) { return *this; }
  };

public:
  typedef void value_type;
  typedef std::ptrdiff_t difference_type;
  typedef void pointer;
  typedef __sink reference;
  typedef std::random_access_iterator_tag iterator_category;
  explicit discard_iterator(std::ptrdiff_t i = 0) : __i(i) {}
  __sink operator*() const { return __sink(); }
  discard_iterator &operator++() { ++__i; return *this; }
  discard_iterator operator++(int) { discard_iterator r = *this; ++__i; return r; }
  discard_iterator operator+(std::ptrdiff_t n) const { return discard_iterator(__i + n); }
  std::ptrdiff_t operator-(const discard_iterator &o) const { return __i - o.__i; }
  bool operator==(const discard_iterator &o) const { return __i == o.__i; }
  bool operator!=(const discard_iterator &o) const { return __i != o.__i; }
};
inline discard_iterator make_discard_iterator(std::ptrdiff_t i = 0) { return discard_iterator(i); }

/* Iterates a tuple of iterators together; dereferencing gives a tuple of their references. */
template <class IteratorTuple> struct __zip_reference;
template <class... Its> struct __zip_reference<std::tuple<Its...>> {
  typedef std::tuple<typename std::iterator_traits<Its>::reference...> type;
  typedef std::tuple<typename std::iterator_traits<Its>::value_type...> value;
};
template <class IteratorTuple> class zip_iterator {
  IteratorTuple __its;
  template <std::size_t... I> typename __zip_reference<IteratorTuple>::type __deref(std::index_sequence<I...>) const {
    return typename __zip_reference<IteratorTuple>::type(*std::get<I>(__its)...);
  }
  template <std::size_t... I> void __advance(std::ptrdiff_t n, std::index_sequence<I...>) {
    int unused[] = {0, ((void)(std::get<I>(__its) += n), 0)...};
    (void)unused;
  }
  static constexpr std::size_t __n = std::tuple_size<IteratorTuple>::value;

public:
  typedef std::ptrdiff_t difference_type;
  typedef std::random_access_iterator_tag iterator_category;
  typedef typename __zip_reference<IteratorTuple>::type reference;
  typedef typename __zip_reference<IteratorTuple>::value value_type;
  typedef void pointer;
  explicit zip_iterator(IteratorTuple its) : __its(its) {}
  reference operator*() const { return __deref(std::make_index_sequence<__n>()); }
  zip_iterator &operator++() { __advance(1, std::make_index_sequence<__n>()); return *this; }
  zip_iterator operator++(int) { zip_iterator r = *this; ++*this; return r; }
  zip_iterator &operator--() { __advance(-1, std::make_index_sequence<__n>()); return *this; }
  zip_iterator operator--(int) { zip_iterator r = *this; --*this; return r; }
  zip_iterator &operator+=(difference_type n) { __advance(n, std::make_index_sequence<__n>()); return *this; }
  zip_iterator &operator-=(difference_type n) { __advance(-n, std::make_index_sequence<__n>()); return *this; }
  zip_iterator operator+(difference_type n) const { zip_iterator r = *this; r += n; return r; }
  zip_iterator operator-(difference_type n) const { zip_iterator r = *this; r -= n; return r; }
  reference operator[](difference_type n) const { return *(*this + n); }
  bool operator<(const zip_iterator &o) const { return std::get<0>(__its) < std::get<0>(o.__its); }
  difference_type operator-(const zip_iterator &o) const { return std::get<0>(__its) - std::get<0>(o.__its); }
  bool operator==(const zip_iterator &o) const { return std::get<0>(__its) == std::get<0>(o.__its); }
  bool operator!=(const zip_iterator &o) const { return !(*this == o); }
  const IteratorTuple &get_iterator_tuple() const { return __its; }
};
template <class IteratorTuple> zip_iterator<IteratorTuple> make_zip_iterator(IteratorTuple its) {
  return zip_iterator<IteratorTuple>(its);
}
template <class... Its> zip_iterator<std::tuple<Its...>> make_zip_iterator(Its... its) {
  return zip_iterator<std::tuple<Its...>>(std::make_tuple(its...));
}

/* Dereferences to f(*it): the elements of a sequence as a function makes them. */
template <class F, class It> class transform_iterator {
  It __it;
  F __f;

public:
  typedef typename std::decay<decltype(std::declval<const F &>()(*std::declval<It>()))>::type value_type;
  typedef value_type reference;
  typedef void pointer;
  typedef std::ptrdiff_t difference_type;
  typedef std::random_access_iterator_tag iterator_category;
  transform_iterator(It it, F f) : __it(it), __f(f) {}
  reference operator*() const { return __f(*__it); }
  reference operator[](difference_type n) const { return __f(__it[n]); }
  transform_iterator &operator++() { ++__it; return *this; }
  transform_iterator operator++(int) { transform_iterator r = *this; ++__it; return r; }
  transform_iterator &operator--() { --__it; return *this; }
  transform_iterator &operator+=(difference_type n) { __it += n; return *this; }
  transform_iterator operator+(difference_type n) const { return transform_iterator(__it + n, __f); }
  transform_iterator operator-(difference_type n) const { return transform_iterator(__it - n, __f); }
  difference_type operator-(const transform_iterator &o) const { return __it - o.__it; }
  bool operator==(const transform_iterator &o) const { return __it == o.__it; }
  bool operator!=(const transform_iterator &o) const { return __it != o.__it; }
  bool operator<(const transform_iterator &o) const { return __it < o.__it; }
  const It &base() const { return __it; }
};
template <class F, class It> transform_iterator<F, It> make_transform_iterator(It it, F f) { return transform_iterator<F, It>(it, f); }

/* Functional objects. */
template <class T = void> struct plus : std::plus<T> {};
template <class T = void> struct minus : std::minus<T> {};
template <class T = void> struct multiplies : std::multiplies<T> {};
template <class T = void> struct divides : std::divides<T> {};
template <class T = void> struct modulus : std::modulus<T> {};
template <class T = void> struct negate : std::negate<T> {};
template <class T = void> struct equal_to : std::equal_to<T> {};
template <class T = void> struct not_equal_to : std::not_equal_to<T> {};
template <class T = void> struct less : std::less<T> {};
template <class T = void> struct greater : std::greater<T> {};
template <class T = void> struct less_equal : std::less_equal<T> {};
template <class T = void> struct greater_equal : std::greater_equal<T> {};
template <class T = void> struct logical_and : std::logical_and<T> {};
template <class T = void> struct logical_or : std::logical_or<T> {};
template <class T = void> struct bit_and : std::bit_and<T> {};
template <class T = void> struct bit_or : std::bit_or<T> {};
template <class T = void> struct bit_xor : std::bit_xor<T> {};
template <class T = void> struct minimum {
  __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T = void> struct maximum {
  __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T = void> struct identity {
  __host__ __device__ const T &operator()(const T &x) const { return x; }
};

/* Algorithms (an execution policy as first argument is accepted and ignored). */
#define __SCORD_THRUST_POLICY(NAME)                                                                       \
  template <class P, class... A, class = typename std::enable_if<std::is_base_of<__policy, P>::value>::type> \
  auto NAME(const P &, A &&...a)->decltype(NAME(std::forward<A>(a)...)) {                                  \
    return NAME(std::forward<A>(a)...);                                                                    \
  }

template <class In, class Out> Out copy(In first, In last, Out out) { return std::copy(first, last, out); }
template <class In, class Size, class Out> Out copy_n(In first, Size n, Out out) { return std::copy_n(first, n, out); }
template <class In, class Out, class Pred> Out copy_if(In first, In last, Out out, Pred pred) {
  return std::copy_if(first, last, out, pred);
}
template <class In, class Stencil, class Out, class Pred> Out copy_if(In first, In last, Stencil s, Out out, Pred pred) {
  for (; first != last; ++first, ++s)
    if (pred(*s)) *out++ = *first;
  return out;
}
template <class It, class T> void fill(It first, It last, const T &value) {
  for (; first != last; ++first) *first = value;
}
template <class It, class Size, class T> It fill_n(It first, Size n, const T &value) {
  for (Size i = 0; i < n; ++i, ++first) *first = value;
  return first;
}
template <class It> void sequence(It first, It last) {
  typename std::iterator_traits<It>::value_type v = 0;
  for (; first != last; ++first, ++v) *first = v;
}
template <class It, class T> void sequence(It first, It last, T init) {
  for (; first != last; ++first, ++init) *first = init;
}
template <class It, class T> void sequence(It first, It last, T init, T step) {
  for (; first != last; ++first, init += step) *first = init;
}
template <class It, class Gen> void generate(It first, It last, Gen gen) {
  for (; first != last; ++first) *first = gen();
}
template <class In, class Out, class F> Out transform(In first, In last, Out out, F f) {
  for (; first != last; ++first, ++out) *out = f(*first);
  return out;
}
template <class In1, class In2, class Out, class F> Out transform(In1 first, In1 last, In2 second, Out out, F f) {
  for (; first != last; ++first, ++second, ++out) *out = f(*first, *second);
  return out;
}
template <class It, class F> It for_each(It first, It last, F f) {
  for (; first != last; ++first) f(*first);
  return first;
}
/* Sorting as Thrust dispatches it: arithmetic keys in contiguous memory compared with less or
 * greater go through a radix sort (stable, linear in the number of keys), anything else through
 * the standard library's stable sort. Both give the order a stable comparison sort gives. */
namespace __detail {
template <class Cmp, class K> struct __radix_order : std::integral_constant<int, 0> {};
template <class K> struct __radix_order<std::less<K>, K> : std::integral_constant<int, 1> {};
template <class K> struct __radix_order<std::less<void>, K> : std::integral_constant<int, 1> {};
template <class K> struct __radix_order<thrust::less<K>, K> : std::integral_constant<int, 1> {};
template <class K> struct __radix_order<thrust::less<void>, K> : std::integral_constant<int, 1> {};
template <class K> struct __radix_order<std::greater<K>, K> : std::integral_constant<int, 2> {};
template <class K> struct __radix_order<std::greater<void>, K> : std::integral_constant<int, 2> {};
template <class K> struct __radix_order<thrust::greater<K>, K> : std::integral_constant<int, 2> {};
template <class K> struct __radix_order<thrust::greater<void>, K> : std::integral_constant<int, 2> {};

template <class K>
struct __radix_key_type
    : std::integral_constant<bool, (std::is_integral<K>::value || std::is_floating_point<K>::value) &&
                                       (sizeof(K) == 1 || sizeof(K) == 2 || sizeof(K) == 4 || sizeof(K) == 8)> {};
template <class K>
using __radix_bits = typename std::conditional<
    sizeof(K) == 1, std::uint8_t,
    typename std::conditional<sizeof(K) == 2, std::uint16_t, typename std::conditional<sizeof(K) == 4, std::uint32_t, std::uint64_t>::type>::type>::type;

/* The key as an unsigned number in the same order: the sign bit flipped for signed integers, and
 * for floating point all bits of a negative number, the sign bit of a positive one (-0.0 counts as
 * +0.0: they compare equal); complemented for a descending sort. */
template <class K> __radix_bits<K> __radix_key(K k, bool descending) {
  typedef __radix_bits<K> U;
  const U top = (U)((U)1 << (sizeof(K) * 8 - 1));
  if (std::is_floating_point<K>::value && k == 0) k = 0;
  U u;
  std::memcpy(&u, &k, sizeof u);
  if (std::is_floating_point<K>::value) u = (u & top) ? (U)~u : (U)(u | top);
  else if (std::is_signed<K>::value) u = (U)(u ^ top);
  return descending ? (U)~u : u;
}

struct __no_values {};

/* Least significant byte first; a pass whose byte is the same in every key is skipped. Keys and
 * values are moved once, at the end, by the sorted positions. */
template <class K, class V> void __radix_sort(K *keys, V *values, std::size_t n, bool descending) {
  typedef __radix_bits<K> U;
  if (n < 2) return;
  U *const digits = new U[2 * n];
  std::size_t *const positions = new std::size_t[2 * n];
  U *key = digits, *keyOut = digits + n;
  std::size_t *at = positions, *atOut = positions + n;
  for (std::size_t i = 0; i < n; ++i) {
    key[i] = __radix_key(keys[i], descending);
    at[i] = i;
  }
  for (unsigned shift = 0; shift < sizeof(U) * 8; shift += 8) {
    std::size_t start[256] = {};
    for (std::size_t i = 0; i < n; ++i) ++start[(key[i] >> shift) & 255];
    if (start[(key[0] >> shift) & 255] == n) continue;
    std::size_t sum = 0;
    for (unsigned d = 0; d < 256; ++d) {
      std::size_t c = start[d];
      start[d] = sum;
      sum += c;
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t p = start[(key[i] >> shift) & 255]++;
      keyOut[p] = key[i];
      atOut[p] = at[i];
    }
    std::swap(key, keyOut);
    std::swap(at, atOut);
  }
  K *const keysBefore = new K[n];
  std::memcpy(keysBefore, keys, n * sizeof(K));
  for (std::size_t i = 0; i < n; ++i) keys[i] = keysBefore[at[i]];
  delete[] keysBefore;
  if (values) {
    V *const valuesBefore = static_cast<V *>(::operator new(n * sizeof(V)));
    std::memcpy(valuesBefore, values, n * sizeof(V));
    for (std::size_t i = 0; i < n; ++i) std::memcpy(values + i, valuesBefore + at[i], sizeof(V));
    ::operator delete(valuesBefore);
  }
  delete[] digits;
  delete[] positions;
}

template <class Keys, class Values, class Cmp>
struct __radix_sortable
    : std::integral_constant<bool, __radix_order<Cmp, typename std::iterator_traits<Keys>::value_type>::value != 0 &&
                                       __radix_key_type<typename std::iterator_traits<Keys>::value_type>::value && __contiguous<Keys>::value &&
                                       __contiguous<Values>::value &&
                                       std::is_trivially_copyable<typename std::iterator_traits<Values>::value_type>::value> {};

/* True when the radix sort did the sort. */
template <class Keys, class Values, class Cmp> bool __radix_sort_by_key(Keys kf, Keys kl, Values vf, Cmp, std::true_type) {
  __radix_sort(__address(kf), __address(vf), (std::size_t)(__address(kl) - __address(kf)),
               __radix_order<Cmp, typename std::iterator_traits<Keys>::value_type>::value == 2);
  return true;
}
template <class Keys, class Values, class Cmp> bool __radix_sort_by_key(Keys, Keys, Values, Cmp, std::false_type) { return false; }
template <class Keys, class Values, class Cmp> bool __radix_sort_by_key(Keys kf, Keys kl, Values vf, Cmp cmp) {
  return __radix_sort_by_key(kf, kl, vf, cmp, __radix_sortable<Keys, Values, Cmp>());
}
template <class Keys, class Cmp> bool __radix_sort_keys(Keys kf, Keys kl, Cmp cmp) {
  return __radix_sort_by_key(kf, kl, static_cast<__no_values *>(nullptr), cmp);
}

/* Iterators whose elements are real objects (pointers, std::vector's) are sorted in place; others
 * (a zip iterator's element is a tuple of references) through a copy of their values. */
template <class It>
struct __proxy_reference
    : std::integral_constant<bool, !std::is_same<typename std::iterator_traits<It>::reference, typename std::iterator_traits<It>::value_type &>::value> {};
template <class It, class Cmp> void __comparison_sort(It first, It last, Cmp cmp, std::false_type) { std::stable_sort(first, last, cmp); }
template <class It, class Cmp> void __comparison_sort(It first, It last, Cmp cmp, std::true_type) {
  std::vector<typename std::iterator_traits<It>::value_type> values;
  for (It i = first; i != last; ++i) values.push_back(*i);
  std::stable_sort(values.begin(), values.end(), cmp);
  for (std::size_t i = 0; i < values.size(); ++i, ++first) *first = values[i];
}
} // namespace __detail

template <class It, class Cmp> void stable_sort(It first, It last, Cmp cmp) {
  if (!__detail::__radix_sort_keys(first, last, cmp)) __detail::__comparison_sort(first, last, cmp, __detail::__proxy_reference<It>());
}
template <class It> void stable_sort(It first, It last) { thrust::stable_sort(first, last, thrust::less<typename std::iterator_traits<It>::value_type>()); }
template <class It, class Cmp> void sort(It first, It last, Cmp cmp) { thrust::stable_sort(first, last, cmp); }
template <class It> void sort(It first, It last) { thrust::stable_sort(first, last); }
template <class Keys, class Values, class Cmp> void stable_sort_by_key(Keys kf, Keys kl, Values vf, Cmp cmp) {
  if (__detail::__radix_sort_by_key(kf, kl, vf, cmp)) return;
  typedef typename std::iterator_traits<Keys>::value_type K;
  typedef typename std::decay<decltype(*vf)>::type V;
  const std::ptrdiff_t n = kl - kf;
  std::vector<std::ptrdiff_t> order((std::size_t)n);
  for (std::ptrdiff_t i = 0; i < n; ++i) order[(std::size_t)i] = i;
  std::vector<K> keys(kf, kl);
  std::stable_sort(order.begin(), order.end(), [&](std::ptrdiff_t a, std::ptrdiff_t b) {
    return cmp(keys[(std::size_t)a], keys[(std::size_t)b]);
  });
  std::vector<V> values((std::size_t)n);
  for (std::ptrdiff_t i = 0; i < n; ++i) values[(std::size_t)i] = vf[i];
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    kf[i] = keys[(std::size_t)order[(std::size_t)i]];
    vf[i] = values[(std::size_t)order[(std::size_t)i]];
  }
}
template <class Keys, class Values> void stable_sort_by_key(Keys kf, Keys kl, Values vf) {
  stable_sort_by_key(kf, kl, vf, std::less<typename std::iterator_traits<Keys>::value_type>());
}
template <class Keys, class Values> void sort_by_key(Keys kf, Keys kl, Values vf) { stable_sort_by_key(kf, kl, vf); }
template <class Keys, class Values, class Cmp> void sort_by_key(Keys kf, Keys kl, Values vf, Cmp cmp) {
  stable_sort_by_key(kf, kl, vf, cmp);
}
template <class It> bool is_sorted(It first, It last) { return std::is_sorted(first, last); }
template <class It, class Cmp> bool is_sorted(It first, It last, Cmp cmp) { return std::is_sorted(first, last, cmp); }
template <class It> typename std::iterator_traits<It>::value_type reduce(It first, It last) {
  typename std::iterator_traits<It>::value_type sum = typename std::iterator_traits<It>::value_type();
  for (; first != last; ++first) sum = sum + *first;
  return sum;
}
template <class It, class T> T reduce(It first, It last, T init) {
  for (; first != last; ++first) init = init + *first;
  return init;
}
template <class It, class T, class Op> T reduce(It first, It last, T init, Op op) {
  for (; first != last; ++first) init = op(init, *first);
  return init;
}
template <class In, class Out> Out inclusive_scan(In first, In last, Out out) { return std::partial_sum(first, last, out); }
template <class In, class Out, class Op> Out inclusive_scan(In first, In last, Out out, Op op) {
  return std::partial_sum(first, last, out, op);
}
template <class In, class Out, class T, class Op> Out exclusive_scan(In first, In last, Out out, T init, Op op) {
  for (; first != last; ++first, ++out) {
    T v = *first;
    *out = init;
    init = op(init, v);
  }
  return out;
}
template <class In, class Out, class T> Out exclusive_scan(In first, In last, Out out, T init) {
  return exclusive_scan(first, last, out, init, std::plus<T>());
}
template <class In, class Out> Out exclusive_scan(In first, In last, Out out) {
  return exclusive_scan(first, last, out, typename std::iterator_traits<In>::value_type());
}
template <class In, class Out> Out adjacent_difference(In first, In last, Out out) {
  return std::adjacent_difference(first, last, out);
}
template <class In, class Out, class Op> Out adjacent_difference(In first, In last, Out out, Op op) {
  return std::adjacent_difference(first, last, out, op);
}
/* Segmented algorithms: consecutive keys for which pred(previous, next) holds form one segment
 * (equal_to by default), as Thrust defines them. */
template <class Keys, class Values, class Out, class Pred, class Op>
Out inclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out, Pred pred, Op op) {
  typedef typename std::iterator_traits<Values>::value_type V;
  if (kf == kl) return out;
  typename std::iterator_traits<Keys>::value_type key = *kf;
  V sum = *vf;
  *out = sum;
  for (++kf, ++vf, ++out; kf != kl; ++kf, ++vf, ++out) {
    typename std::iterator_traits<Keys>::value_type next = *kf;
    V v = *vf;
    sum = pred(key, next) ? V(op(sum, v)) : v;
    key = next;
    *out = sum;
  }
  return out;
}
template <class Keys, class Values, class Out, class Pred> Out inclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out, Pred pred) {
  return thrust::inclusive_scan_by_key(kf, kl, vf, out, pred, std::plus<typename std::iterator_traits<Values>::value_type>());
}
template <class Keys, class Values, class Out> Out inclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out) {
  return thrust::inclusive_scan_by_key(kf, kl, vf, out, std::equal_to<typename std::iterator_traits<Keys>::value_type>());
}
template <class Keys, class Values, class Out, class T, class Pred, class Op>
Out exclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out, T init, Pred pred, Op op) {
  if (kf == kl) return out;
  typename std::iterator_traits<Keys>::value_type key = *kf;
  T sum = init;
  for (bool first = true; kf != kl; ++kf, ++vf, ++out, first = false) {
    typename std::iterator_traits<Keys>::value_type next = *kf;
    typename std::iterator_traits<Values>::value_type v = *vf;
    if (!first && !pred(key, next)) sum = init;
    key = next;
    *out = sum;
    sum = op(sum, v);
  }
  return out;
}
template <class Keys, class Values, class Out, class T, class Pred> Out exclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out, T init, Pred pred) {
  return thrust::exclusive_scan_by_key(kf, kl, vf, out, init, pred, std::plus<T>());
}
template <class Keys, class Values, class Out, class T> Out exclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out, T init) {
  return thrust::exclusive_scan_by_key(kf, kl, vf, out, init, std::equal_to<typename std::iterator_traits<Keys>::value_type>());
}
template <class Keys, class Values, class Out> Out exclusive_scan_by_key(Keys kf, Keys kl, Values vf, Out out) {
  return thrust::exclusive_scan_by_key(kf, kl, vf, out, typename std::iterator_traits<Values>::value_type());
}
template <class Keys, class Values, class KeysOut, class ValuesOut, class Pred, class Op>
std::pair<KeysOut, ValuesOut> reduce_by_key(Keys kf, Keys kl, Values vf, KeysOut ko, ValuesOut vo, Pred pred, Op op) {
  typedef typename std::iterator_traits<Values>::value_type V;
  if (kf == kl) return std::make_pair(ko, vo);
  typename std::iterator_traits<Keys>::value_type key = *kf;
  V sum = *vf;
  for (++kf, ++vf; kf != kl; ++kf, ++vf) {
    typename std::iterator_traits<Keys>::value_type next = *kf;
    V v = *vf;
    if (pred(key, next)) sum = op(sum, v);
    else {
      *ko = key;
      *vo = sum;
      ++ko;
      ++vo;
      sum = v;
    }
    key = next;
  }
  *ko = key;
  *vo = sum;
  return std::make_pair(++ko, ++vo);
}
template <class Keys, class Values, class KeysOut, class ValuesOut, class Pred>
std::pair<KeysOut, ValuesOut> reduce_by_key(Keys kf, Keys kl, Values vf, KeysOut ko, ValuesOut vo, Pred pred) {
  return thrust::reduce_by_key(kf, kl, vf, ko, vo, pred, std::plus<typename std::iterator_traits<Values>::value_type>());
}
template <class Keys, class Values, class KeysOut, class ValuesOut>
std::pair<KeysOut, ValuesOut> reduce_by_key(Keys kf, Keys kl, Values vf, KeysOut ko, ValuesOut vo) {
  return thrust::reduce_by_key(kf, kl, vf, ko, vo, std::equal_to<typename std::iterator_traits<Keys>::value_type>());
}
template <class Keys, class Values, class KeysOut, class ValuesOut, class Pred>
std::pair<KeysOut, ValuesOut> unique_by_key_copy(Keys kf, Keys kl, Values vf, KeysOut ko, ValuesOut vo, Pred pred) {
  if (kf == kl) return std::make_pair(ko, vo);
  typename std::iterator_traits<Keys>::value_type kept = *kf;
  *ko = kept;
  *vo = *vf;
  ++ko;
  ++vo;
  for (++kf, ++vf; kf != kl; ++kf, ++vf) {
    typename std::iterator_traits<Keys>::value_type next = *kf;
    if (pred(kept, next)) continue;
    kept = next;
    *ko = kept;
    *vo = *vf;
    ++ko;
    ++vo;
  }
  return std::make_pair(ko, vo);
}
/* The first element of each run of equal elements: unique_by_key_copy with the elements as their own keys. */
template <class In, class Out, class Pred> Out unique_copy(In first, In last, Out out, Pred pred) {
  return thrust::unique_by_key_copy(first, last, first, out, discard_iterator(), pred).first;
}
template <class In, class Out> Out unique_copy(In first, In last, Out out) {
  return thrust::unique_copy(first, last, out, std::equal_to<typename std::iterator_traits<In>::value_type>());
}
template <class It, class Pred> It unique(It first, It last, Pred pred) {
  std::vector<typename std::iterator_traits<It>::value_type> kept;
  thrust::unique_copy(first, last, std::back_inserter(kept), pred);
  for (std::size_t i = 0; i < kept.size(); ++i, ++first) *first = kept[i];
  return first;
}
template <class It> It unique(It first, It last) { return thrust::unique(first, last, std::equal_to<typename std::iterator_traits<It>::value_type>()); }
template <class Keys, class Values, class KeysOut, class ValuesOut>
std::pair<KeysOut, ValuesOut> unique_by_key_copy(Keys kf, Keys kl, Values vf, KeysOut ko, ValuesOut vo) {
  return thrust::unique_by_key_copy(kf, kl, vf, ko, vo, std::equal_to<typename std::iterator_traits<Keys>::value_type>());
}
template <class Keys, class Values, class Pred> std::pair<Keys, Values> unique_by_key(Keys kf, Keys kl, Values vf, Pred pred) {
  std::vector<typename std::iterator_traits<Keys>::value_type> keys;
  std::vector<typename std::iterator_traits<Values>::value_type> values;
  thrust::unique_by_key_copy(kf, kl, vf, std::back_inserter(keys), std::back_inserter(values), pred);
  for (std::size_t i = 0; i < keys.size(); ++i, ++kf, ++vf) {
    *kf = keys[i];
    *vf = values[i];
  }
  return std::make_pair(kf, vf);
}
template <class Keys, class Values> std::pair<Keys, Values> unique_by_key(Keys kf, Keys kl, Values vf) {
  return thrust::unique_by_key(kf, kl, vf, std::equal_to<typename std::iterator_traits<Keys>::value_type>());
}
template <class It, class Pred> It find_if(It first, It last, Pred pred) { return std::find_if(first, last, pred); }
template <class It, class T> It find(It first, It last, const T &v) { return std::find(first, last, v); }
template <class It, class T> std::ptrdiff_t count(It first, It last, const T &v) { return std::count(first, last, v); }
template <class It, class Pred> std::ptrdiff_t count_if(It first, It last, Pred pred) {
  return std::count_if(first, last, pred);
}

__SCORD_THRUST_POLICY(copy)
__SCORD_THRUST_POLICY(copy_n)
__SCORD_THRUST_POLICY(copy_if)
__SCORD_THRUST_POLICY(fill)
__SCORD_THRUST_POLICY(fill_n)
__SCORD_THRUST_POLICY(sequence)
__SCORD_THRUST_POLICY(generate)
__SCORD_THRUST_POLICY(transform)
__SCORD_THRUST_POLICY(for_each)
__SCORD_THRUST_POLICY(sort)
__SCORD_THRUST_POLICY(stable_sort)
__SCORD_THRUST_POLICY(sort_by_key)
__SCORD_THRUST_POLICY(stable_sort_by_key)
__SCORD_THRUST_POLICY(is_sorted)
__SCORD_THRUST_POLICY(reduce)
__SCORD_THRUST_POLICY(inclusive_scan)
__SCORD_THRUST_POLICY(exclusive_scan)
__SCORD_THRUST_POLICY(adjacent_difference)
__SCORD_THRUST_POLICY(find_if)
__SCORD_THRUST_POLICY(inclusive_scan_by_key)
__SCORD_THRUST_POLICY(exclusive_scan_by_key)
__SCORD_THRUST_POLICY(reduce_by_key)
__SCORD_THRUST_POLICY(unique)
__SCORD_THRUST_POLICY(unique_copy)
__SCORD_THRUST_POLICY(unique_by_key)
__SCORD_THRUST_POLICY(unique_by_key_copy)
__SCORD_THRUST_POLICY(find)
__SCORD_THRUST_POLICY(count)
__SCORD_THRUST_POLICY(count_if)
#undef __SCORD_THRUST_POLICY

/* Random numbers: the standard library's engines and distributions. */
namespace random {
typedef std::minstd_rand default_random_engine;
typedef std::minstd_rand0 minstd_rand0;
typedef std::minstd_rand minstd_rand;
typedef std::ranlux24 ranlux24;
typedef std::ranlux48 ranlux48;
typedef std::knuth_b taus88;
template <class T = float> using uniform_real_distribution = std::uniform_real_distribution<T>;
template <class T = int> using uniform_int_distribution = std::uniform_int_distribution<T>;
template <class T = float> using normal_distribution = std::normal_distribution<T>;
} // namespace random
using random::default_random_engine;
using random::minstd_rand;
using random::minstd_rand0;
using random::normal_distribution;
using random::uniform_int_distribution;
using random::uniform_real_distribution;

/* Errors. */
class system_error : public std::runtime_error {
public:
  explicit system_error(const std::string &what) : std::runtime_error(what) {}
};

} // namespace thrust

#endif
