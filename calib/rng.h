// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The one random number generator of a calibration: xoshiro256** (Blackman and Vigna 2018),
/// seeded by four splitmix64 outputs of the seed. Normal deviates by Marsaglia's polar method,
/// which needs only +, *, log and sqrt (IEEE-correct sqrt; glibc's log is correctly rounded in
/// practice), so a seed gives the same sequence on every platform -- std::normal_distribution is
/// implementation-defined and does not.
///
///   uniform():  the top 53 bits of the next output times 2^-53, in [0, 1)
///   normal():   polar method: draw u, v uniform in (-1, 1) until 0 < s = u^2 + v^2 < 1, return
///               u sqrt(-2 ln s / s) and keep v sqrt(-2 ln s / s) for the next call.
///
/// The whole state (four words plus the kept deviate) is plain data, saved in checkpoints.

#include <array>
#include <cstdint>

namespace gapsim::calib {

/// splitmix64 (Steele, Lea, Flood 2014): advances `state` and returns the next output.
std::uint64_t splitmix64(std::uint64_t& state);

class Rng {
 public:
  struct State {
    std::array<std::uint64_t, 4> s{};
    bool has_spare = false;
    double spare = 0.0;
    bool operator==(const State&) const = default;
  };

  explicit Rng(std::uint64_t seed = 0);

  std::uint64_t next();
  /// Uniform in [0, 1).
  double uniform();
  /// Uniform integer in [0, n), n > 0 (Lemire's rejection, unbiased).
  std::uint64_t below(std::uint64_t n);
  /// Standard normal deviate (polar method, see the file comment).
  double normal();

  const State& state() const { return st_; }
  void setState(const State& s) { st_ = s; }

 private:
  State st_;
};

}  // namespace gapsim::calib
