// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The plausible ranges of the numbers that enter the physics, in one place: what the readers of
/// robot files, motions, parameter files, scenario sets and the command line accept. A finite
/// but absurd number (1e308 in an origin, 1e-320 as a motor constant, 2^32 m as a box size, a
/// 1e308 s duration) used to reach ODE, whose assertions abort() the process, or to run nonsense
/// (zero steps of an infinite run). Readers refuse it with check(), which names file, line,
/// field, the value and the range.
///
/// The bounds are generous on purpose: orders of magnitude beyond any robot gapsim simulates
/// (a 0.1 g link to a 1000 t machine, 1 us to 0.1 s steps), tight enough that nothing beyond them
/// overflows or underflows in ODE's solver (products of two such numbers stay far inside the
/// double range, reciprocals stay finite). A registry of parameters can take them over as its
/// validity ranges.

#include <string>
#include <string_view>

namespace gapsim::plausible {

/// Accepted values: lo <= v <= hi, or lo < v <= hi when `lo_open`. A `magnitude` range bounds
/// |v| of a value of either sign, and 0 ("off", "none") is accepted as well: the parameters of
/// a component, whose own validate() decides signs and zeros.
struct Range {
  double lo;
  double hi;
  const char* unit;
  bool lo_open = false;
  bool magnitude = false;
};

// --- robot files (URDF and <gapsim>) ---
inline constexpr Range kPosition_m{-1e3, 1e3, "m"};   ///< origins, COMs, poses, toe points
inline constexpr Range kAngle_rad{-1e3, 1e3, "rad"};  ///< rpy of origins and sensors
inline constexpr Range kSize_m{0, 1e3, "m", true};    ///< box sizes, radii
inline constexpr Range kLength_m{0, 1e3, "m"};        ///< cylinder and capsule lengths
inline constexpr Range kSorW{0.01, 1.99, ""};         ///< QuickStep's over-relaxation: SOR converges for 0 < w < 2
/// Link masses: from a picogram (CAD exports give sensor frames micrograms) to 1000 t. Not
/// (0, 1e6]: a subnormal mass passes ODE's mass check and its inverse overflows in the step.
inline constexpr Range kMass_kg{1e-12, 1e6, "kg"};
/// Principal moments of inertia (the tensor's eigenvalues; each element is bounded by the upper
/// limit too): a picogram point 10 nm from its axis has 1e-28 kg m^2.
inline constexpr Range kInertia_kgm2{1e-28, 1e6, "kg m^2"};
inline constexpr Range kInertiaElement_kgm2{1e-300, 1e6, "kg m^2", false, true};    ///< ixx .. iyz as read
inline constexpr Range kJointPosition{-1e3, 1e3, "rad (m for a prismatic joint)"};  ///< limits, initial pose
inline constexpr Range kEffort{0, 1e9, "N m (N for a prismatic joint)"};            ///< limit@effort, fmax
inline constexpr Range kJointSpeed{0, 1e6, "rad/s (m/s for a prismatic joint)"};    ///< limit@velocity
inline constexpr Range kMimicFactor{-1e3, 1e3, "-"};                                ///< mimic multiplier
inline constexpr Range kFraction{0, 1, "-"};                                        ///< ERP
inline constexpr Range kCfm{0, 1e3, "-"};                                           ///< CFM (m/N, rad/(N m))
inline constexpr Range kAcceleration_m_s2{-1e3, 1e3, "m/s^2"};                      ///< gravity components
inline constexpr Range kFriction{0, 1e6, "-"};                                      ///< Coulomb mu
inline constexpr Range kGain_1_s{0, 1e6, "1/s", true};                              ///< ideal servo gain
/// Any number of a robot file that has no range of its own: 0, or a magnitude in this range
/// (it catches the overflowing and the subnormal).
inline constexpr Range kAnyNumber{1e-300, 1e12, "", false, true};

// --- motions ---
inline constexpr Range kJointTarget{-1e3, 1e3, "rad (m for a prismatic joint)"};
inline constexpr Range kMotionTime_s{-1e6, 1e6, "s"};
inline constexpr Range kFramePeriod_s{1e-6, 1e3, "s"};

// --- runs (command line, scenario sets, robot file's solver) ---
inline constexpr Range kDuration_s{0, 1e6, "s", true};  ///< 11.6 days of simulated time
inline constexpr Range kTimeStep_s{1e-6, 0.1, "s"};     ///< the physics step dt
inline constexpr Range kLogPeriod_s{1e-6, 1e6, "s"};

/// The range of a component parameter with this unit (ParamInfo::unit, "N*m" and "N m" alike):
/// a magnitude range, 0 accepted. Units not in the table get kAnyNumber.
Range parameterRange(std::string_view unit);

/// Whether `v` lies in `r` (NaN never does).
bool accepts(const Range& r, double v);

/// "[-1000, 1000] m", "(0, 1e+06] kg", "0 or |v| in [1e-06, 1000] V s/rad".
std::string describe(const Range& r);

/// Throws InputError(file, line, field, "<v> is outside the accepted range <describe(r)>") unless
/// accepts(r, v). `what` (e.g. "box size") is put before the value when given.
void check(double v, const Range& r, const std::string& file, int line, const std::string& field,
           const std::string& what = "");

}  // namespace gapsim::plausible
