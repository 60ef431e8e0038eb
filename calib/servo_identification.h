// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Identification of the Dynamixel actuator gains from a square-wave step test (BIOLOID paper 000,
/// Section "Actuator Model"). Model of the free joint (one rigid link about a fixed axis):
///   I qdd = -kp (q - qbar) - kd qd - kc sgn(qd)                                          (1)
/// q [rad] joint angle, qbar [rad] goal, I [kg m^2] link inertia about the axis, kp [N m/rad],
/// kd [N m s/rad], kc [N m]. Positive torque increases q; sgn(0) = 0.
///
/// Method (the paper's):
///  1. switching instants = the samples where qbar changes; segment k runs from switch k to
///     switch k+1 (the last to the end of the log). Samples before the first switch are not used
///     (the log starts from an arbitrary state, not from a step).
///  2. on each segment (or, if piece_s > 0, on consecutive pieces of it of about piece_s each) q(t)
///     is smoothed by a least-squares polynomial of degree 4 (poly_fit.h), and qd, qdd are its
///     analytic derivatives;
///  3. (1) is linear in theta = (kp, kd, kc): with one row per sample
///        A_i = [-(q_i - qbar_i), -qd_i, -sgn(qd_i)],  y_i = I qdd_i,
///     theta = argmin |A theta - y|^2 (column-pivoted QR). q_i is the smoothed value.
///  4. 95 % confidence intervals, half width t quantile x sqrt(Cov_jj): by default the
///     cluster-robust (sandwich) covariance with one cluster per polynomial piece and the
///     Student-t quantile (studentTQuantile) with pieces - 1 dof, because the residuals of one
///     piece share its polynomial and are correlated; ServoIdOptions::Intervals::Independent gives
///     the textbook sigma^2 (A^T A)^-1, sigma^2 = RSS / (n - 3), t(n - 3), which assumes
///     independent residuals and is far too narrow (tests: 59-66 of 100 noisy seeds covered).
///
/// Scaling with I: y is linear in I and A does not depend on it, so theta(c I) = c theta(I)
/// exactly, for all three gains, whatever the fit is dominated by. What I changes is only the
/// absolute scale: the data determine kp/I, kd/I, kc/I.

#include <array>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "calib/poly_fit.h"

namespace gapsim {
struct RobotModel;
}

namespace gapsim::calib {

/// A step-test log: columns time_s, q_target_rad, q_rad (further columns ignored). Times must
/// not decrease (the real logs have 1 ms stamps with repeats).
struct ServoStepLog {
  std::string source;
  std::vector<double> time_s;
  std::vector<double> q_target_rad;
  std::vector<double> q_rad;

  /// Throws InputError(file, line, column, ...) on bad input (sim/csv_table.h).
  static ServoStepLog read(const std::string& path);
};

struct ServoIdOptions {
  double inertia_kgm2 = 0.0;  ///< I of (1), > 0
  int poly_degree = 4;        ///< the paper's quartic
  double piece_s = 0.0;       ///< 0: one polynomial per segment (paper); > 0: pieces of ~piece_s
  int min_samples = 10;       ///< shorter segments/pieces are skipped
  double confidence = 0.95;   ///< two-sided level of the intervals
  /// Independent: the textbook sigma^2 (A^T A)^-1 with t(n - 3), which assumes independent
  /// residuals (far too narrow: the residuals of one polynomial piece are correlated).
  /// PieceClustered (default): cluster-robust sandwich covariance, one cluster per piece, t with
  /// (pieces - 1) dof; falls back to Independent with fewer than 4 pieces.
  enum class Intervals { Independent, PieceClustered };
  Intervals intervals = Intervals::PieceClustered;
  /// Throws std::invalid_argument naming the offending value.
  void validate() const;
};

struct GainEstimate {
  double value = 0.0;
  double std_error = 0.0;   ///< sqrt(Cov_jj)
  double half_width = 0.0;  ///< t quantile * std_error
};

/// One used sample, with everything the figure shows.
struct ServoIdSample {
  double time_s, q_target_rad, q_rad, q_smooth_rad, qd_rad_s, qdd_rad_s2;
  double tau_measured_Nm;   ///< I qdd
  double tau_predicted_Nm;  ///< right-hand side of (1) with the identified gains
};

struct ServoIdResult {
  GainEstimate kp_Nm_rad, kd_Nm_s_rad, kc_Nm;
  double inertia_kgm2 = 0.0;
  double residual_rms_Nm = 0.0;  ///< sqrt(RSS / n)
  double measured_rms_Nm = 0.0;  ///< rms of I qdd (the signal the gains explain)
  double r_squared = 0.0;        ///< 1 - RSS / sum (y - mean y)^2
  /// rms over the samples of the three identified torque terms kp e, kd qd, kc sgn(qd) [N m]:
  /// which of them the fit balances against I qdd.
  std::array<double, 3> term_rms_Nm{};
  double smoothing_rms_rad = 0.0;  ///< rms of q - polynomial (how well the quartic fits)
  int dof = 0;                     ///< n - 3
  double t_quantile = 0.0;
  bool clustered = false;             ///< intervals from the piece-clustered covariance
  int interval_dof = 0;               ///< dof of t_quantile: pieces - 1 (clustered) or n - 3
  std::vector<std::size_t> switches;  ///< sample indices where q_target changes
  int pieces = 0;                     ///< polynomials fitted
  std::vector<ServoIdSample> samples;
};

/// Indices i > 0 with q_target[i] != q_target[i-1].
std::vector<std::size_t> switchingInstants(std::span<const double> q_target_rad);

/// The identification above. Throws InputError(log.source, 0, ...) if the log has no switch or
/// too few usable samples, std::invalid_argument for bad options.
ServoIdResult identifyServo(const ServoStepLog& log, const ServoIdOptions& options);

/// Quantile of the standard normal distribution (Acklam's rational approximation refined by one
/// Halley step: |error| < 1e-12). p in (0, 1).
double normalQuantile(double p);
/// Quantile of Student's t with `dof` degrees of freedom: Cornish-Fisher expansion of the normal
/// quantile in 1/dof up to 1/dof^4 (Abramowitz & Stegun 26.7.5); error < 1e-4 for dof >= 10 at
/// p = 0.975 (t = 2.2281 there). Throws std::invalid_argument for dof < 3.
double studentTQuantile(double p, double dof);

/// Moment of inertia [kg m^2] about the axis of `joint` (through the joint origin) of everything
/// beyond it: the child link and every link further down the tree, all joints at 0 (their poses
/// relative to the axis do not matter for a leaf, as the BIOLOID's r_foot is). Throws
/// std::invalid_argument for an unknown joint.
double inertiaBeyondJoint_kgm2(const RobotModel& model, const std::string& joint);

/// The paper's own check: the same experiment simulated. A fixed-base robot file whose joint
/// `joint` has a Dynamixel drivetrain is driven with the log's q_target from its first switching
/// instant on, starting at rest at the recorded q there. `model_inertia_kgm2` is the link inertia
/// about the axis in that file; gains identified for `gains_inertia_kgm2` are scaled by
/// model_inertia / gains_inertia, which leaves (1) unchanged. The law is not clamped, as (1) is
/// not, unless torque_limit_Nm (for the gains' inertia, scaled likewise) is finite. Negative
/// gains are set to 0 (the servo law needs >= 0). Returns q_sim [rad] at every log sample from the
/// first switch on (true joint angle, linear interpolation between physics steps).
struct ServoReplay {
  std::vector<double> time_s, q_rad, q_sim_rad;
  double rms_rad = 0.0;  ///< rms of q_sim - q over those samples
  std::vector<std::string> notes;
};
ServoReplay replayServoExperiment(const ServoStepLog& log, const RobotModel& one_joint_model, const std::string& joint,
                                  double model_inertia_kgm2, double gains_inertia_kgm2, double kp_Nm_rad,
                                  double kd_Nm_s_rad, double kc_Nm,
                                  double torque_limit_Nm = std::numeric_limits<double>::infinity());

}  // namespace gapsim::calib
