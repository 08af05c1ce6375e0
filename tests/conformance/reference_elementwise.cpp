#include "tests/conformance/reference_elementwise.h"

#include <algorithm>
#include <limits>

namespace qnn::conformance::ref {

size_t count(const Dims& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::vector<size_t> unravel(size_t flat, const Dims& dims) {
  std::vector<size_t> idx(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    idx[d] = flat % dims[d];
    flat /= dims[d];
  }
  return idx;
}

size_t ravel(const std::vector<size_t>& idx, const Dims& dims) {
  size_t flat = 0;
  for (size_t d = 0; d < dims.size(); ++d) flat = flat * dims[d] + idx[d];
  return flat;
}

std::vector<float> transposeN(const std::vector<float>& x, const Dims& dims, const std::vector<size_t>& perm) {
  Dims od(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) od[i] = dims[perm[i]];
  std::vector<float> out(x.size());
  for (size_t o = 0; o < out.size(); ++o) {
    auto oi = unravel(o, od);
    std::vector<size_t> ii(dims.size());
    for (size_t i = 0; i < perm.size(); ++i) ii[perm[i]] = oi[i];
    out[o] = x[ravel(ii, dims)];
  }
  return out;
}

Dims broadcast(const Dims& a, const Dims& b) {
  size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (size_t i = 0; i < rank; ++i) {
    uint32_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    uint32_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[rank - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

size_t broadcastSource(const std::vector<size_t>& outIdx, const Dims& in) {
  std::vector<size_t> idx(in.size());
  const size_t shift = outIdx.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) idx[d] = in[d] == 1 ? 0 : outIdx[d + shift];
  return ravel(idx, in);
}

std::vector<float> reduce(const std::vector<float>& x, const Dims& in, const std::vector<uint32_t>& axes, int kind) {
  Dims kept = in;
  for (uint32_t a : axes) kept[a] = 1;
  std::vector<double> acc(count(kept));
  std::vector<bool> seen(acc.size(), false);
  for (size_t i = 0; i < x.size(); ++i) {
    auto idx = unravel(i, in);
    for (uint32_t a : axes) idx[a] = 0;
    size_t o = ravel(idx, kept);
    double v = x[i];
    if (!seen[o]) acc[o] = v;
    else if (kind <= 1) acc[o] += v;
    else if (kind == 2) acc[o] = std::max(acc[o], v);
    else if (kind == 3) acc[o] = std::min(acc[o], v);
    else acc[o] *= v;
    seen[o] = true;
  }
  size_t n = 1;
  for (uint32_t a : axes) n *= in[a];
  std::vector<float> r(acc.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = static_cast<float>(kind == 0 ? acc[i] / n : acc[i]);
  return r;
}

std::vector<int32_t> argExtreme(const std::vector<float>& x, const Dims& in, size_t axis, bool isMax) {
  Dims kept = in;
  kept[axis] = 1;
  std::vector<int32_t> r(count(kept));
  for (size_t o = 0; o < r.size(); ++o) {
    auto idx = unravel(o, kept);
    int32_t best = 0;
    for (uint32_t a = 1; a < in[axis]; ++a) {
      auto cand = idx, cur = idx;
      cand[axis] = a;
      cur[axis] = best;
      float v = x[ravel(cand, in)], b = x[ravel(cur, in)];
      if (isMax ? v > b : v < b) best = static_cast<int32_t>(a);
    }
    r[o] = best;
  }
  return r;
}

void topK(const std::vector<float>& x, const Dims& in, uint32_t k, std::vector<float>* values,
          std::vector<int32_t>* indices) {
  const size_t len = in.back(), rows = x.size() / len;
  values->clear();
  indices->clear();
  for (size_t r = 0; r < rows; ++r) {
    std::vector<bool> taken(len, false);
    for (uint32_t i = 0; i < k; ++i) {  // selection: pick the best untaken, largest index on ties
      size_t best = len;
      for (size_t j = 0; j < len; ++j)
        if (!taken[j] && (best == len || x[r * len + j] >= x[r * len + best])) best = j;
      taken[best] = true;
      values->push_back(x[r * len + best]);
      indices->push_back(static_cast<int32_t>(best));
    }
  }
}

int64_t quantize(double x, double scale, int32_t offset, int64_t lo, int64_t hi) {
  double q = std::nearbyint(x / scale) - offset;
  return static_cast<int64_t>(std::min<double>(std::max<double>(q, lo), hi));
}

double dequantize(int64_t q, double scale, int32_t offset) { return scale * (static_cast<double>(q) + offset); }

}  // namespace qnn::conformance::ref
