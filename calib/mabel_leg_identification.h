// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// MABEL leg identification through simulation (paper 003, Section V, eqs. 16-20, Table V).
///
/// The experiment: the torso and the B_Spring pulley are fixed (the test stand,
/// robots/mabel/identification/leg_stand.urdf); one leg is driven by amplifier commands u(t) on
/// q_mLS or q_mLA with the other motor mechanically locked (SISO), or on both (MIMO); the motor
/// encoders are logged. The response is simulated with the real Simulation (ODE thigh and shin
/// with Table VIII's CAD inertias) and the leg's MabelTransmission (K_T, alpha, J of Tables III,
/// IV, IX, cable stretch of Table VII), and
///   eq. (19)  mu_Q = argmin J(mu_Q),  J = sqrt(sum_k (y_exp,k - y_sim,k(mu_Q))^2)   (SISO)
///   eq. (20)  b_Q  = argmin J(b_Q)    with mu from the SISO fits                     (MIMO)
/// (the paper prints sqrt(sum(y_exp - y_sim)) without the square: a typo, a sum of signed errors
/// has no minimum). y stacks the logged motor angles of the actuated motors, k = 1..n-1 (k = 0 is
/// the common start). The minimiser is Ceres' Levenberg-Marquardt with central numeric
/// derivatives (each residual evaluation is one simulation of the whole experiment); mu is
/// optimised as ln mu (stays positive), b in units of 0.01 N m. Confidence intervals:
/// s^2 (G^T G)^-1 at the optimum, s^2 = SSR / (N - p), Student-t quantile (as
/// calib/output_error_fit.h); they assume white measurement noise and a correct model.
///
/// Angles: motor angles in the rigid-cable convention of eqs. (5)-(6), q_mLA = gamma_LA q_LA,
/// q_mLS = gamma_LS q_LS (q_Bsp = 0 on the stand), so the first logged sample fixes the leg's pose
/// (a real log with encoder offsets needs them removed first).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "calib/mabel_identification.h"
#include "motorgear/mabel_transmission.h"
#include "sim/robot_model.h"

namespace gapsim::calib {

enum class LegSide { Left, Right };

/// The unknowns of Section V-C, per motor of the excited leg.
enum class LegParam { mu_mLA, mu_mLS, b_mLA, b_mLS };
const char* legParamName(LegParam p);  ///< "mu_mLA", ... (units: N m s/rad for mu, N m for b)

/// Which motors move: SISO = exactly one actuated (the other locked), MIMO = both.
struct LegExperiment {
  LegSide side = LegSide::Left;
  bool actuated_mLA = true, actuated_mLS = true;
  bool mimo() const { return actuated_mLA && actuated_mLS; }
};

/// A logged experiment: columns time_s, u_mLA_Nm, u_mLS_Nm (amplifier commands, held over each
/// sample), q_mLA_rad, q_mLS_rad (motor encoders). Uniformly sampled.
struct LegExperimentLog {
  std::string source;
  std::vector<double> time_s;
  std::vector<double> u_mLA_Nm, u_mLS_Nm;    ///< zeros for a locked motor whose column is absent
  std::vector<double> q_mLA_rad, q_mLS_rad;  ///< a locked motor's column may be absent: then empty
  double sample_time_s = 0.0;                ///< median step

  /// Reads `path`. An actuated motor needs u_<m>_Nm and q_<m>_rad; a locked motor's q_<m>_rad is
  /// optional (its first value is the locked angle) and its u is ignored. Throws InputError
  /// (file, line, column) for a missing column, a bad cell, time not strictly increasing, not
  /// uniformly sampled (each step within 1 % of the median), or fewer than 10 samples.
  static LegExperimentLog read(const std::string& path, const LegExperiment& e);

  /// Writes the five columns with a `#` comment line first (comment may be empty).
  void write(const std::string& path, const std::string& comment) const;
};

/// The stand's model and the leg under test. Throws std::invalid_argument unless the model has a
/// fixed base and a <mabel_leg> named mabel/left (mabel/right) for the side.
int standLegIndex(const RobotModel& stand, LegSide side);

/// Simulated motor angles at the log's sample instants (index 0 = the start).
struct LegResponse {
  std::vector<double> q_mLA_rad, q_mLS_rad;
};

/// Simulates the experiment on `stand`: the leg's transmission is `leg` (its mu and b are the
/// ones simulated) with B_Spring locked and, for SISO, the other motor locked; the other leg is
/// locked entirely. The leg starts at rest in the pose of the motor angles (q0_mLA, q0_mLS)
/// (rigid cables); u[k] is held from t_k to t_k+1. The sample time must be a whole number of the
/// stand's dt (within 1e-6 relative). Throws std::invalid_argument for mismatched lengths or a
/// bad sample time, DivergenceError if the physics blows up.
LegResponse simulateLegExperiment(const RobotModel& stand, const LegExperiment& e,
                                  const motorgear::MabelTransmission::Params& leg, double q0_mLA_rad, double q0_mLS_rad,
                                  std::span<const double> u_mLA_Nm, std::span<const double> u_mLS_Nm,
                                  double sample_time_s);

struct LegFitOptions {
  double confidence = 0.95;  ///< two-sided level of the intervals (0.5 .. 0.999)
  int max_iterations = 30;
  /// Also fit the start angle of each actuated motor (a nuisance parameter of the output-error
  /// fit): the first logged sample carries the encoder's noise, and a wrong start rings through
  /// the lightly damped leg for seconds, a correlated error the white-noise intervals ignore.
  bool fit_start = true;
};

struct LegFitEstimate {
  LegParam param{};
  double start = 0.0, value = 0.0, half_width = 0.0;  ///< SI (N m s/rad or N m)
};

struct LegFitResult {
  std::vector<LegFitEstimate> estimates;
  double cost_J_rad = 0.0;          ///< eq. (19)/(20): sqrt(sum residual^2) at the estimate
  double initial_cost_J_rad = 0.0;  ///< the same at the start
  double rms_rad = 0.0;             ///< rms residual per motor-angle sample
  std::size_t residuals = 0;
  int iterations = 0;
  int simulations = 0;  ///< experiment simulations the fit ran (incl. numeric derivatives)
  bool converged = false;
  double start_offset_mLA_rad = 0.0, start_offset_mLS_rad = 0.0;  ///< fitted start minus logStartPose
  LegResponse simulated;                                          ///< at the estimate
};

/// Fits `params` (each must belong to an actuated motor; no duplicates) by minimising J of eqs.
/// (19)-(20) over the log, every other parameter from `leg`. `start` gives the starting values in
/// the order of `params` (mu > 0). The start pose is logStartPose (plus the fitted offsets when
/// options.fit_start). Throws
/// std::invalid_argument on a bad request, InputError (log's time_s) for a sample time that is
/// not a whole number of the stand's dt, DivergenceError if the physics blows up at the start.
LegFitResult fitLegParameters(const RobotModel& stand, const LegExperiment& e,
                              const motorgear::MabelTransmission::Params& leg, const LegExperimentLog& log,
                              std::span<const LegParam> params, std::span<const double> start,
                              const LegFitOptions& options = {});

/// Motor angles of a pose (rigid cables, q_Bsp = 0).
struct LegPose {
  double q_mLA_rad = 0.0, q_mLS_rad = 0.0;
};
/// The stand model's initial pose of the leg (where `excite leg` starts).
LegPose standInitialPose(const RobotModel& stand, LegSide side);
/// The start pose of a logged experiment, used by fitLegParameters: an actuated motor's first
/// sample; a locked motor's column mean (it does not move; one noisy sample would offset the
/// response through gravity); a locked motor without a column: standInitialPose.
LegPose logStartPose(const RobotModel& stand, const LegExperiment& e, const LegExperimentLog& log);

/// The amplifier commands that hold the leg still at `pose` against gravity and the biases: both
/// motors locked for 2 s of settling, then u = K_T tau_cable - b (eq. 17 at rest). The natural
/// input offset of an experiment (the paper: "the magnitude and offset must be selected to keep
/// the links within the robot's work space"); without it gravity pulls a SISO mLS leg straight
/// into its knee stop.
struct LegHold {
  double u_mLA_Nm = 0.0, u_mLS_Nm = 0.0;
};
LegHold legHoldCommands(const RobotModel& stand, LegSide side, const motorgear::MabelTransmission::Params& leg,
                        const LegPose& pose);

/// A starting value for the biases of the actuated motors (u_mLA_Nm, u_mLS_Nm hold b here): the
/// hold command of the log's mean pose with b = 0, minus the mean command (the chirp averages out,
/// so the mean pose is about the static answer to the mean input). A locked motor keeps leg's b.
LegHold staticBiasEstimate(const RobotModel& stand, const LegExperiment& e,
                           const motorgear::MabelTransmission::Params& leg, const LegExperimentLog& log);

/// A synthetic experiment (`gapsim-cli excite leg`): the paper's chirp plus offset on each
/// actuated motor (chirpExcitation; for MIMO both chirps run at once, the shorter one continued
/// at its offset), simulated with `leg`, and the motor angles measured by an encoder.
struct LegExcitation {
  ChirpOptions mLA{}, mLS{};  ///< input of each actuated motor (a locked motor's is unused)
  double encoder_rad = 0.0;   ///< quantisation step of the motor encoders (0: exact)
  double noise_rad = 0.0;     ///< standard deviation of white Gaussian noise added before quantising
  std::uint64_t seed = 1;     ///< noise seed (calib/rng.h: the same on every platform)
};

/// Runs the experiment from `start` and returns its log (a locked motor: u = 0 and its constant
/// angle). The chirps' sample time must be a whole number of the stand's dt. Throws
/// std::invalid_argument for a bad chirp, noise or encoder step < 0; DivergenceError.
LegExperimentLog synthesizeLegExperiment(const RobotModel& stand, const LegExperiment& e,
                                         const motorgear::MabelTransmission::Params& leg, const LegPose& start,
                                         const LegExcitation& x);

/// Reads/writes one parameter of the transmission by LegParam.
double legParamValue(const motorgear::MabelTransmission::Params& p, LegParam q);
void setLegParam(motorgear::MabelTransmission::Params& p, LegParam q, double v);

/// Section IV's viscous friction of the whole transmission path, Table III mu_3^exp / K_T (the
/// first-order model's mu on the amplifier-command scale, converted to the motor torque of eq.
/// 17): the paper's natural start for eq. (19) ("mu_Q ... should be larger than the values from
/// Section IV, but not greatly different").
double tableIIIFriction_Nms(LegSide side, bool mLA);

/// Table V (the paper's results of eqs. 19-20).
double tableVFriction_Nms(LegSide side, bool mLA);
double tableVBias_Nm(LegSide side, bool mLA);

}  // namespace gapsim::calib
