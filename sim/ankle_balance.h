// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Gyro feedback on the stance ankles, added to a played motion's joint targets: the sensor
/// feedback of a walking engine in its simplest form (B-Human's and the Nao's own walks damp the
/// torso with the gyro on the ankles the same way).
///
/// Every period_s the controller reads the IMU's angular velocity w (IMU frame) and the vertical
/// force on each foot, and holds until the next period, for each foot i,
///   d_roll_i  = share_i * roll_rate_gain_s  * w_x * sign(roll axis . x)
///   d_pitch_i = share_i * pitch_rate_gain_s * w_y * sign(pitch axis . y)
/// where share_i = F_i / (F_left + F_right) is the foot's part of the load (1/2 each when the
/// feet carry less than min_load_N together). Those corrections are added to the motion's ankle
/// roll and pitch targets. Why: a position-servoed foot that pushes its ankle target along the
/// torso's rotation turns the servo's torque against that rotation through the ground, which is
/// viscous damping of the body's rocking on its stance foot; a foot in the air cannot push on
/// the ground, hence the load share. The damping shortens how long a perturbation lives, and so
/// how far two nearly equal runs drift apart (docs/walk.md, "Ankle balance").
///
/// Heading hold (key `heading`, off unless set): the torso's yaw psi is integrated from the gyro
/// every step (the Nao's AngleZ), the yaw the motion plans psi_plan from its own hip yaw targets
/// over the foot that carries the load. At each change of the supporting foot the swing
///   u = clamp(heading_gain * mean over the last two steps of (psi_plan - psi), +-max_yaw)
/// is set, and every period both hip yaw targets get u * sum_i share_i * (-sign a_z,i)
/// (a_z,i: the vertical component of leg i's hip yaw axis). Why: the Nao turns only through its
/// hip yaw joints, which dry friction holds against a PID that asks for less; where stick-slip
/// leaves them after each step sets the heading (docs/solver.md, "What holds the heading"), and
/// a real walking engine closes that loop with its inertial board. The swing is +u in one single
/// support and -u in the other, which turns the torso the same way over either foot with
/// mirrored axes, and 0 in double support, where the joint would twist the feet on the ground;
/// the mean over a gait cycle keeps the torso's yaw rocking with the steps out of it.
///
/// Applies to any robot with two foot contacts whose link is the child of a roll joint (axis
/// along x) whose parent link is the child of a pitch joint (axis along y), as the Nao's feet.
/// Update times are whole simulation steps, so a run stays deterministic.

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "motorgear/param_access.h"
#include "sim/motion.h"
#include "sim/robot_model.h"

namespace gapsim {

class Simulation;

struct BalanceParams {
  double roll_rate_gain_s = 0.1;          ///< ankle roll target change per torso roll rate (rad per rad/s)
  double pitch_rate_gain_s = 0.0;         ///< ankle pitch target change per torso pitch rate (rad per rad/s)
  double period_s = 0.01;                 ///< controller period (s): the Nao's 100 Hz motion cycle
  double min_load_N = 5.0;                ///< below this total foot force both feet count half (N)
  double heading_gain_rad_per_rad = 0.0;  ///< hip yaw swing per heading error (rad per rad); 0 = off
  double max_yaw_correction_rad = 0.05;   ///< bound on that swing (rad)

  /// Throws InputError(source, field) for non-finite gains or a period/load out of range.
  void validate(const std::string& source = "balance") const;
};

/// Parses "roll_rate=0.1;pitch_rate=0;period=0.01;min_load=5;heading=0.5" (';' or ',' between
/// items; keys roll_rate, pitch_rate, period, min_load, heading, max_yaw; others keep their
/// defaults). Throws InputError
/// (file = `source`, field = the key) for unknown keys and bad numbers.
BalanceParams parseBalanceParams(const std::string& spec, const std::string& source = "--balance");
/// The balance's parameters as a field table (`gapsim-cli params --controller balance`).
std::span<const motorgear::Field<BalanceParams>> balanceParamFields();

/// The controller a motion names (Motion::controller): "balance" or "balance:KEYS" (keys as
/// parseBalanceParams) gives the feedback's parameters, "" or "none" gives nullopt (open loop).
/// Throws InputError(file, line, "controller") for any other controller name.
std::optional<BalanceParams> parseMotionController(const std::string& spec, const std::string& file = {}, int line = 0);

/// parseMotionController of the controller `motion` names, located at its `# controller:` line.
std::optional<BalanceParams> motionController(const Motion& motion);

/// The feedback the walk generator writes into its motions (`# controller:` line) and `run --walk`
/// plays: roll and pitch rate damping on the stance ankles (docs/walk.md, "Ankle balance").
inline constexpr const char* kWalkController = "balance:roll_rate=0.1,pitch_rate=0.05,heading=0.5";

/// Each foot's share of the load: F_i / (F_0 + F_1), or 1/2 each below min_load_N in total.
std::array<double, 2> footLoadShares(double force0_N, double force1_N, double min_load_N);

/// What the balance reads, in the robot's sensor frame: what a Nao's inertial board and foot
/// sensors give (any engine can fill it: bench/mujoco_walk.cpp does from MuJoCo's state).
struct BalanceSensors {
  Eigen::Vector3d gyro_rad_s = Eigen::Vector3d::Zero();  ///< angular velocity in the IMU frame
  double roll_rad = 0, pitch_rad = 0;                    ///< the IMU's ZYX Euler angles (ImuReading)
  std::array<double, 2> foot_force_N{};                  ///< vertical force on foot contacts 0 and 1
};

class AnkleBalance {
 public:
  /// Finds the two feet's ankle joints; throws InputError(model source, "balance") if the model
  /// has fewer than two foot contacts or a foot is not carried by a roll and a pitch joint.
  AnkleBalance(const RobotModel& model, const BalanceParams& p);

  /// `target` (one value per model joint: the motion's) plus the held corrections, first
  /// recomputing them if this step starts a new controller period (never at step 0: nothing
  /// measured yet). The result lives until the next call; `target` is not changed, so joints
  /// the motion does not set never accumulate corrections.
  const std::vector<double>& adjust(const Simulation& sim, const std::vector<double>& target);
  /// The same law on sensors read by the caller before simulation step `step` of dt_s; they are
  /// read only where needsSensors(step, dt_s) says so (else any value is ignored).
  const std::vector<double>& adjust(long step, double dt_s, const BalanceSensors& sensors,
                                    const std::vector<double>& target);
  bool needsSensors(long step, double dt_s);
  /// The sensors of `sim`, as adjust(sim, target) reads them.
  BalanceSensors read(const Simulation& sim) const;

  const BalanceParams& params() const { return p_; }
  /// The corrections currently held (rad): per foot, roll then pitch.
  const std::array<std::array<double, 2>, 2>& corrections_rad() const { return corr_; }
  /// The heading integrated from the gyro and the heading the motion's hip yaw targets plan
  /// (rad, 0 at the start).
  double heading_rad() const { return heading_est_rad_; }
  double plannedHeading_rad() const { return heading_plan_rad_; }

 private:
  struct Foot {
    int contact = -1;
    int roll_joint = -1, pitch_joint = -1;
    double roll_sign = 1, pitch_sign = 1;
    int yaw_joint = -1;     ///< the leg's joint with a vertical axis component (hip yaw), or -1
    double yaw_axis_z = 0;  ///< that axis' vertical component in the zero pose
    /// Where that joint's target comes from: its own, or its master's for a mimic joint
    /// (target = multiplier * master's + offset).
    int yaw_target_joint = -1;
    double yaw_target_multiplier = 1, yaw_target_offset_rad = 0;
  };
  double yawTarget(const std::vector<double>& target, std::size_t foot) const;
  BalanceParams p_;
  std::array<Foot, 2> feet_;
  long period_steps_ = 0;  ///< set on the first adjust(), from the simulation's step
  std::array<std::array<double, 2>, 2> corr_{};
  std::vector<double> out_;
  bool heading_started_ = false;
  double heading_est_rad_ = 0;   ///< torso yaw integrated from the gyro (the Nao's AngleZ)
  double heading_plan_rad_ = 0;  ///< the yaw the motion's hip yaw targets imply
  std::array<double, 2> yaw_target_prev_rad_{};
  double yaw_correction_rad_ = 0;                  ///< added to both hip yaw targets
  double yaw_swing_rad_ = 0;                       ///< its amplitude, set at each change of the supporting foot
  int stance_sign_ = 0;                            ///< +1 / -1: which foot last carried the load alone; 0 before
  std::array<double, 2> heading_error_sum_rad_{};  ///< summed over the previous and the current step
  std::array<long, 2> heading_error_count_{};

  void updateYawCorrection(const BalanceSensors& s, const std::vector<double>& target);
};

}  // namespace gapsim
