// SPDX-License-Identifier: BSD-3-Clause
#include "calib/log_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace gapsim {
namespace {

struct Owned {
  std::vector<double> t, v;
  SampledSignal s() const { return {t, v}; }
};

Owned sampled(double t0, double t1, double dt, double (*f)(double)) {
  Owned o;
  o.t = uniformGrid(t0, t1, dt);
  for (double t : o.t) o.v.push_back(f(t));
  return o;
}

double bump(double t) { return std::exp(-(t - 3.0) * (t - 3.0) / 0.2) + 0.3 * std::sin(1.3 * t); }

TEST(LogCompare, InterpolatesLinearlyAndIsUndefinedOutside) {
  const std::vector<double> t{0.0, 1.0, 3.0}, v{0.0, 2.0, 0.0};
  const SampledSignal s{t, v};
  EXPECT_DOUBLE_EQ(interpolateAt(s, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(interpolateAt(s, 2.0), 1.0);  // halfway down the second ramp
  EXPECT_DOUBLE_EQ(interpolateAt(s, 3.0), 0.0);  // the last sample itself
  EXPECT_TRUE(std::isnan(interpolateAt(s, -0.01)));
  EXPECT_TRUE(std::isnan(interpolateAt(s, 3.01)));
}

TEST(LogCompare, ResampleAppliesTheOffsetConvention) {
  // Shown with offset o, the other reads other(t - o): a ramp v = t shifted by 0.5 reads t - 0.5.
  const std::vector<double> t{0.0, 10.0}, v{0.0, 10.0};
  const std::vector<double> grid{0.0, 0.5, 1.0, 10.5, 11.0};
  const auto r = resample({t, v}, grid, 0.5);
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_DOUBLE_EQ(r[1], 0.0);
  EXPECT_DOUBLE_EQ(r[2], 0.5);
  EXPECT_DOUBLE_EQ(r[3], 10.0);
  EXPECT_TRUE(std::isnan(r[4]));
}

TEST(LogCompare, UniformGridIncludesTheEndAndValidates) {
  EXPECT_EQ(uniformGrid(0.0, 1.0, 0.1).size(), 11u);  // 0.0 ... 1.0: rounding must not drop 1.0
  EXPECT_TRUE(uniformGrid(1.0, 0.0, 0.1).empty());
  EXPECT_THROW(uniformGrid(0.0, 1.0, 0.0), std::invalid_argument);
}

TEST(LogCompare, RmsOfAConstantBiasIsTheBias) {
  // ref - other = 0.25 everywhere -> RMS 0.25 exactly (up to rounding of the sums).
  Owned a = sampled(0, 5, 0.01, bump), b = a;
  for (double& x : b.v) x -= 0.25;
  const auto r = rmsDifference(a.s(), b.s());
  EXPECT_EQ(r.samples, a.t.size());
  EXPECT_NEAR(r.rms, 0.25, 1e-12);
}

TEST(LogCompare, RmsOfASineAgainstZeroIsAmplitudeOverRootTwo) {
  // Whole periods of A sin: RMS = A / sqrt(2). 1 kHz sampling of 2 periods: error O(dt) tiny.
  Owned a;
  a.t = uniformGrid(0.0, 2.0, 0.001);
  a.t.pop_back();  // exactly two periods [0, 2)
  for (double t : a.t) a.v.push_back(3.0 * std::sin(2 * M_PI * t));
  const std::vector<double> zt{-1.0, 5.0}, zv{0.0, 0.0};
  EXPECT_NEAR(rmsDifference(a.s(), {zt, zv}).rms, 3.0 / std::sqrt(2.0), 1e-9);
}

TEST(LogCompare, RmsOnlyOverTheOverlapAndNanWithoutOne) {
  Owned a = sampled(0, 10, 0.01, bump);
  Owned b = sampled(0, 2, 0.01, bump);
  const auto r = rmsDifference(a.s(), b.s(), 1.0);  // b covers ref times [1, 3]
  EXPECT_EQ(r.samples, 201u);
  const auto none = rmsDifference(a.s(), b.s(), 20.0);
  EXPECT_EQ(none.samples, 0u);
  EXPECT_TRUE(std::isnan(none.rms));
}

TEST(LogCompare, RmsIsZeroOnceTheRightOffsetIsApplied) {
  // other(t) = ref(t + 0.37): shown with offset +0.37 it reads ref(t) again; the residual is the
  // linear interpolation error of a 100 Hz signal between samples (< 1e-3 for this bump).
  Owned ref = sampled(0, 6, 0.01, bump);
  Owned other;
  other.t = uniformGrid(0, 5, 0.01);
  for (double t : other.t) other.v.push_back(bump(t + 0.37));
  EXPECT_LT(rmsDifference(ref.s(), other.s(), 0.37).rms, 1e-3);
  EXPECT_GT(rmsDifference(ref.s(), other.s(), 0.0).rms, 0.1);
}

TEST(LogCompare, CrossCorrelationFindsAKnownOffset) {
  // A real log that starts 0.37 s late: other(t) = ref(t + 0.37), with a bias and a gain that
  // Pearson ignores. Grid 10 ms; the parabola refines below one step (tolerance 3 ms).
  Owned ref = sampled(0, 6, 0.01, bump);
  Owned other;
  other.t = uniformGrid(0.003, 5.003, 0.01);
  for (double t : other.t) other.v.push_back(0.2 + 1.5 * bump(t + 0.37));
  const auto e = estimateOffset(ref.s(), other.s(), 0.01, 1.0);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->offset_s, 0.37, 0.003);
  EXPECT_GT(e->correlation, 0.999);
  const auto back = estimateOffset(other.s(), ref.s(), 0.01, 1.0);  // symmetric: the opposite offset
  ASSERT_TRUE(back.has_value());
  EXPECT_NEAR(back->offset_s, -0.37, 0.003);
}

TEST(LogCompare, CrossCorrelationRespectsTheSearchRangeAndFlatSignals) {
  Owned ref = sampled(0, 6, 0.01, bump);
  Owned flat;
  flat.t = uniformGrid(0, 6, 0.01);
  flat.v.assign(flat.t.size(), 1.0);
  EXPECT_FALSE(estimateOffset(ref.s(), flat.s(), 0.01, 1.0).has_value());  // no variance: undefined
  EXPECT_THROW(estimateOffset(ref.s(), ref.s(), 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(estimateOffset(ref.s(), ref.s(), 0.01, -1.0), std::invalid_argument);
  const auto e = estimateOffset(ref.s(), ref.s(), 0.01, 0.0);  // only offset 0 allowed
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(e->offset_s, 0.0);
}

}  // namespace
}  // namespace gapsim
