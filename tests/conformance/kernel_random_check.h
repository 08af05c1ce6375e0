// The seeding contract of the random ops (RandomUniformLike, RandomNormalLike): a
// node seeded 42 repeats its values at every execute, one seeded 43 differs, an
// unseeded node advances. Node: build(p0, p1, seeded, seed) then run().
#pragma once

#include <gtest/gtest.h>

namespace qnn::conformance {

template <typename Node>
void expectSeedRepeatsUnseededAdvances(float p0, float p1) {
  Node a, b, c;
  ASSERT_TRUE(a.build(p0, p1, true, 42.f).isOk());
  ASSERT_TRUE(b.build(p0, p1, true, 43.f).isOk());
  ASSERT_TRUE(c.build(p0, p1, false).isOk());
  const auto first = a.run();
  EXPECT_EQ(first, a.run());
  EXPECT_NE(first, b.run());
  const auto c1 = c.run();
  EXPECT_NE(c1, c.run());
}

}  // namespace qnn::conformance
