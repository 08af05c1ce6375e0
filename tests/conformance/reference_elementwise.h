// Reference implementations of the element-wise, data-movement, reduction and
// conversion ops, written from the op definitions as plain loops over output
// multi-indices. They share no code with the kernels (own broadcasting and
// index math) so that the conformance cases check the kernels independently.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace qnn::conformance::ref {

using Dims = std::vector<uint32_t>;

size_t count(const Dims& dims);
// Multi-index of flat position `flat` in row-major dims.
std::vector<size_t> unravel(size_t flat, const Dims& dims);
// Flat position of a multi-index.
size_t ravel(const std::vector<size_t>& idx, const Dims& dims);
// numpy broadcast of two shapes (assumes they are compatible).
Dims broadcast(const Dims& a, const Dims& b);
// x (dims `dims`) transposed by perm: out dims[i] = dims[perm[i]].
std::vector<float> transposeN(const std::vector<float>& x, const Dims& dims, const std::vector<size_t>& perm);
// Flat position in an input of dims `in` read by output multi-index `outIdx`
// under right-aligned broadcasting (size-1 input dims read index 0).
size_t broadcastSource(const std::vector<size_t>& outIdx, const Dims& in);

template <typename T, typename O, typename F>
std::vector<O> binary(const std::vector<T>& a, const Dims& da, const std::vector<T>& b, const Dims& db, F f) {
  Dims out = broadcast(da, db);
  std::vector<O> r(count(out));
  for (size_t i = 0; i < r.size(); ++i) {
    auto idx = unravel(i, out);
    r[i] = static_cast<O>(f(a[broadcastSource(idx, da)], b[broadcastSource(idx, db)]));
  }
  return r;
}

template <typename T>
std::vector<T> select(const std::vector<uint8_t>& c, const Dims& dc, const std::vector<T>& a, const Dims& da,
                      const std::vector<T>& b, const Dims& db) {
  Dims out = broadcast(broadcast(dc, da), db);
  std::vector<T> r(count(out));
  for (size_t i = 0; i < r.size(); ++i) {
    auto idx = unravel(i, out);
    r[i] = c[broadcastSource(idx, dc)] ? a[broadcastSource(idx, da)] : b[broadcastSource(idx, db)];
  }
  return r;
}

template <typename T, typename F>
std::vector<T> map(const std::vector<T>& x, F f) {
  std::vector<T> r(x.size());
  for (size_t i = 0; i < x.size(); ++i) r[i] = static_cast<T>(f(x[i]));
  return r;
}

template <typename T>
std::vector<T> transpose(const std::vector<T>& x, const Dims& in, const std::vector<uint32_t>& perm) {
  Dims out;
  for (uint32_t p : perm) out.push_back(in[p]);
  std::vector<T> r(x.size());
  for (size_t i = 0; i < r.size(); ++i) {
    auto o = unravel(i, out);
    std::vector<size_t> src(in.size());
    for (size_t d = 0; d < perm.size(); ++d) src[perm[d]] = o[d];
    r[i] = x[ravel(src, in)];
  }
  return r;
}

template <typename T>
std::vector<T> tile(const std::vector<T>& x, const Dims& in, const std::vector<uint32_t>& multiples) {
  Dims out;
  for (size_t d = 0; d < in.size(); ++d) out.push_back(in[d] * multiples[d]);
  std::vector<T> r(count(out));
  for (size_t i = 0; i < r.size(); ++i) {
    auto o = unravel(i, out);
    for (size_t d = 0; d < o.size(); ++d) o[d] %= in[d];
    r[i] = x[ravel(o, in)];
  }
  return r;
}

// Elements of `x` (dims `in`) at the box [begin[d], begin[d] + size[d]) with
// step[d] on each axis, in row-major order of the box.
template <typename T>
std::vector<T> slice(const std::vector<T>& x, const Dims& in, const std::vector<int64_t>& begin,
                     const std::vector<int64_t>& step, const Dims& size) {
  std::vector<T> r(count(size));
  for (size_t i = 0; i < r.size(); ++i) {
    auto o = unravel(i, size);
    std::vector<size_t> src(in.size());
    for (size_t d = 0; d < in.size(); ++d) src[d] = static_cast<size_t>(begin[d] + int64_t(o[d]) * step[d]);
    r[i] = x[ravel(src, in)];
  }
  return r;
}

template <typename T>
std::vector<T> concat(const std::vector<std::vector<T>>& xs, const std::vector<Dims>& dims, size_t axis) {
  Dims out = dims[0];
  out[axis] = 0;
  for (auto& d : dims) out[axis] += d[axis];
  std::vector<T> r(count(out));
  for (size_t i = 0; i < r.size(); ++i) {
    auto o = unravel(i, out);
    size_t k = 0;
    while (o[axis] >= dims[k][axis]) o[axis] -= dims[k++][axis];
    r[i] = xs[k][ravel(o, dims[k])];
  }
  return r;
}

template <typename T, typename I>
std::vector<T> gather(const std::vector<T>& x, const Dims& in, const std::vector<I>& indices, const Dims& di,
                      size_t axis) {
  Dims out(in.begin(), in.begin() + axis);
  out.insert(out.end(), di.begin(), di.end());
  out.insert(out.end(), in.begin() + axis + 1, in.end());
  std::vector<T> r(count(out));
  for (size_t i = 0; i < r.size(); ++i) {
    auto o = unravel(i, out);
    std::vector<size_t> idxPos(o.begin() + axis, o.begin() + axis + di.size());
    int64_t v = static_cast<int64_t>(indices[ravel(idxPos, di)]);
    if (v < 0) v += in[axis];
    std::vector<size_t> src(o.begin(), o.begin() + axis);
    src.push_back(static_cast<size_t>(v));
    src.insert(src.end(), o.begin() + axis + di.size(), o.end());
    r[i] = x[ravel(src, in)];
  }
  return r;
}

// scheme: 0 constant, 1 mirror-symmetric, 2 mirror-reflect, 3 edge.
template <typename T>
std::vector<T> pad(const std::vector<T>& x, const Dims& in, const std::vector<uint32_t>& amounts, int scheme,
                   T constant) {
  Dims out;
  for (size_t d = 0; d < in.size(); ++d) out.push_back(in[d] + amounts[2 * d] + amounts[2 * d + 1]);
  std::vector<T> r(count(out));
  for (size_t i = 0; i < r.size(); ++i) {
    auto o = unravel(i, out);
    bool inside = true;
    std::vector<size_t> src(in.size());
    for (size_t d = 0; d < in.size(); ++d) {
      int64_t p = int64_t(o[d]) - amounts[2 * d], n = in[d];
      if (p < 0 || p >= n) {
        if (scheme == 0) inside = false;
        else if (scheme == 1) p = p < 0 ? -1 - p : 2 * n - 1 - p;  // reflected incl. the edge element
        else if (scheme == 2) p = p < 0 ? -p : 2 * n - 2 - p;      // reflected about the edge element
        else p = p < 0 ? 0 : n - 1;
      }
      src[d] = static_cast<size_t>(p);
    }
    r[i] = inside ? x[ravel(src, in)] : constant;
  }
  return r;
}

// kind: 0 mean, 1 sum, 2 max, 3 min, 4 prod. Output in the kept-dims layout.
std::vector<float> reduce(const std::vector<float>& x, const Dims& in, const std::vector<uint32_t>& axes, int kind);
// Index of the max (or min) along axis; first index on ties.
std::vector<int32_t> argExtreme(const std::vector<float>& x, const Dims& in, size_t axis, bool isMax);
// k largest along the last axis, descending, ties by lower index.
void topK(const std::vector<float>& x, const Dims& in, uint32_t k, std::vector<float>* values,
          std::vector<int32_t>* indices);

// q = clamp(round_half_even(x / scale) - offset, lo, hi)  (QNN: real = scale * (q + offset)).
int64_t quantize(double x, double scale, int32_t offset, int64_t lo, int64_t hi);
double dequantize(int64_t q, double scale, int32_t offset);

}  // namespace qnn::conformance::ref
