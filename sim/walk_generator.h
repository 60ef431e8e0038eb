// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Open-loop walk generator for the Nao, as the MoToFlex paper's experiments use one (a ZMP
/// walking controller run without sensor feedback): footstep plan -> ZMP reference -> COM by ZMP
/// preview control (walk_zmp.h) -> torso and swing-foot poses -> leg joints by analytic IK
/// (walk_ik.h). The result is an ordinary keyframe Motion (joint targets every frame period), so
/// it can be written as a motion CSV and replayed by every tool.
///
/// Timing. `step_duration_s` is the period of the gait cycle, one step with each foot, as in the
/// walking engine of Czarnetzki et al. that the paper uses: at 200 mm/s and 1 s a single step
/// lasts 0.5 s and is 0.1 m long. Each single step is a single-support phase (the swing foot in
/// the air) of (1 - double_support_fraction) * step_duration_s / 2, then a double-support phase
/// in which the ZMP moves linearly from the old support foot to the new one.
///
/// Sequence: [0, prepare_s] joint-space blend from the robot's initial pose to the walking stance
/// (COM at com_height_m, feet foot_spacing_m apart); hold_s with the ZMP between the feet (the
/// preview controller already shifts the COM); a weight shift onto the first support foot (one
/// single-step time); `steps` steps, the last one closing the feet side by side; the ZMP back
/// between the feet (one single-step time) and settle_s of standing.
///
/// Footsteps. A virtual body pose advances by (vx, vy, omega) * T_step per step (T_step = half
/// the cycle); the swing foot lands at that pose +- foot_spacing_m / 2 sideways. The first swing
/// foot is the one on the side of the lateral motion (or of the turn), else the right one.
/// Swing foot: horizontal position and yaw follow the quintic smoothstep s^3 (10 - 15 s + 6 s^2)
/// of the single-support phase s in [0, 1] (zero velocity and acceleration at lift-off and
/// touch-down), height step_height_m * sin^2(pi s). Torso: yaw = mean of the two feet's yaw (so
/// the feet are yawed symmetrically about it, which the shared HipYawPitch can reach), pitch
/// torso_pitch_rad, roll 0; its position is corrected by fixed-point iteration until the
/// whole-body COM of the model (all link masses, forward kinematics) is on the planned COM.
///
/// Drive speed. A MoToFlex drive cannot turn its joint faster than its no-load speed
/// (sim/motion_speed_check.h); long steps in a short cycle ask more than that of the knees, which
/// then lag behind and the walk is played as the motors allow, not as planned. With
/// fit_drive_speed the generator then shortens the double support in steps of 0.05 down to 0, which
/// lengthens the swing and slows the legs, and keeps the first plan whose targets the drives can
/// follow; if none can, it keeps the requested one (WalkPlan says which it used).
///
/// Infeasible requests throw InputError naming the parameter or the joint, the value and the
/// limit: "LKneePitch: 2.2 rad is beyond the joint limit 2.1126 rad ... at t = 3.20 s",
/// "LLeg: out of reach: ...", "lateral_speed: ... feet would collide ...".

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "motorgear/param_access.h"
#include "sim/motion.h"
#include "sim/robot_model.h"
#include "sim/walk_ik.h"
#include "sim/walk_zmp.h"

namespace gapsim {

struct WalkParams {
  double forward_speed_m_s = 0.2;        ///< vx, along the torso's x (m/s)
  double lateral_speed_m_s = 0.0;        ///< vy, positive to the left (m/s)
  double turn_rate_rad_s = 0.0;          ///< omega, positive counter-clockwise (rad/s)
  double step_duration_s = 1.0;          ///< gait cycle: one step with each foot (s)
  double step_height_m = 0.03;           ///< swing foot clearance at mid-swing (m)
  double com_height_m = 0.25;            ///< COM height above the soles, the cart-table z_c (m)
  double double_support_fraction = 0.2;  ///< share of each single step with both feet down (0..0.9)
  double foot_spacing_m = 0.1;           ///< lateral distance between the two sole frames (m)
  int steps = 20;                        ///< single steps, the closing step included (>= 2)
  std::optional<double> duration_s;      ///< if set: walking time (s), replaces `steps`
  double torso_pitch_rad = 0.0;          ///< forward lean of the torso (rad)
  double zmp_offset_x_m = 0.01;          ///< ZMP reference ahead of the ankle, in the foot frame (m)
  double zmp_inset_y_m = 0.01;           ///< ZMP reference moved towards the other foot (m)
  double prepare_s = 1.0;                ///< blend from the initial pose into the walking stance (s)
  double hold_s = 1.0;                   ///< standing in the walking stance before the first shift (s)
  double settle_s = 1.5;                 ///< standing after the last step (s)
  double frame_period_s = 0.01;          ///< motion frame and preview-control period (s)
  double servo_lead_s = 0.0;             ///< targets are sent this much early (s): compensates a servo lag
  double preview_s = 1.6;                ///< preview horizon (s)
  /// Shorten the double support (see planWalk) until the leg targets stay within the drives'
  /// no-load speed; false: plan exactly as given.
  bool fit_drive_speed = true;

  /// Throws InputError(field = parameter name) for values out of their range.
  void validate() const;
  /// Single-step time: step_duration_s / 2.
  double stepTime_s() const { return 0.5 * step_duration_s; }
  /// The number of single steps implied by `steps` or `duration_s`.
  int stepCount() const;
};

/// Parses "speed=0.2,step_duration=1.0,..." (the CLI's --walk). Keys: speed (= forward_speed),
/// forward_speed, lateral_speed, turn_rate, step_duration, step_height, com_height,
/// double_support, foot_spacing, steps, duration, torso_pitch, zmp_offset_x, zmp_inset_y,
/// servo_lead, prepare, hold, settle, frame_period. Unknown keys and bad numbers throw
/// InputError(field = key) listing the keys.
WalkParams parseWalkParams(const std::string& spec, WalkParams base = {});
/// The keys parseWalkParams accepts, comma-separated.
std::string walkParamKeys();
/// The walk's parameters as a field table: name, unit, meaning, get, set (`gapsim-cli params
/// --controller walk` lists them with their defaults).
std::span<const motorgear::Field<WalkParams>> walkParamFields();

struct Footstep {
  LegSide side = LegSide::Left;          ///< the foot placed
  double x_m = 0, y_m = 0, yaw_rad = 0;  ///< sole frame on the ground (world)
  double lift_s = 0, land_s = 0;         ///< swing phase; lift == land for the initial stance
};

/// A generated keyframe motion: joint columns, frame times and values, ready to play or write.
struct GeneratedMotion {
  std::vector<std::string> joints;  ///< motion columns
  std::vector<double> frame_times_s;
  std::vector<std::vector<double>> frames_rad;  ///< [frame][joint]
  /// The controller the motion is meant to play with (Motion::controller), written as its first line.
  std::string controller;

  Motion motion(const std::string& source = "generated") const;
  /// Writes the motion as a keyframe CSV (`# controller:` line if any, time_s + one column per
  /// joint, radians).
  void writeCsv(const std::string& path) const;
};

/// Everything the walk generator computed, for tests and plots. Times are motion times (s).
struct WalkPlan : GeneratedMotion {
  WalkParams params;                             ///< as planned: double support as fitted to the drives
  double requested_double_support_fraction = 0;  ///< as asked for; differs when fitted to the drives

  /// What the fit to the drives changed, as one line for the user ("double support 0.05 instead
  /// of 0.20 ..."); empty when the walk is planned as asked.
  std::string driveFitNote() const;
  std::vector<Footstep> footsteps;  ///< the two initial feet first, then one per step
  double start_s = 0;               ///< time of the first preview sample (= params.prepare_s)
  double walk_start_s = 0;          ///< first lift-off
  double walk_end_s = 0;            ///< last touch-down
  std::vector<double> time_s;       ///< preview samples
  std::vector<double> zmp_ref_x_m, zmp_ref_y_m;
  ComTrajectory com_x, com_y;                                       ///< planned COM (cart-table model)
  std::vector<double> model_com_x_m, model_com_y_m, model_com_z_m;  ///< COM of the model's FK, per sample
};

/// Places the torso so that the model's whole-body COM (all links, forward kinematics) is at a
/// wanted point while both soles are at given world poses; the legs by NaoLegIk. The walk and
/// the kick use it sample by sample (it keeps the last torso-COM offset as the next first guess).
class ComPoser {
 public:
  /// Keeps a reference: the model must outlive it. `source` names the motion in error messages.
  explicit ComPoser(const RobotModel& model, std::string source = "walk");
  /// Joint vector of the model for: COM at com_world_m, torso yaw/pitch (rad), sole poses in
  /// the world. Throws InputError (reach, joint limits) with `context` appended.
  const std::vector<double>& solve(const Eigen::Vector3d& com_world_m, double torso_yaw_rad, double torso_pitch_rad,
                                   const Eigen::Isometry3d& left_sole, const Eigen::Isometry3d& right_sole,
                                   const std::string& context, Eigen::Isometry3d* torso_out = nullptr,
                                   Eigen::Vector3d* com_out = nullptr);
  const NaoLegIk& ik() const { return ik_; }
  /// The leg joints a motion sets (RHipYawPitch, a mimic, left out) and their values in q,
  /// rounded to 1e-6 rad (so a motion written to CSV reads back identical).
  std::vector<std::string> columnNames() const;
  std::vector<double> columns(const std::vector<double>& q) const;

 private:
  const RobotModel& model_;
  NaoLegIk ik_;
  std::vector<double> q_;
  Eigen::Vector3d torso_minus_com_;
  std::vector<int> columns_;
  std::string source_;
};

/// Plans a walk for a Nao-like model (NaoLegIk's requirements), fitting the double support to
/// the drives' speed when params.fit_drive_speed (see file comment). Throws InputError for bad
/// parameters and infeasible requests.
WalkPlan planWalk(const RobotModel& model, const WalkParams& params);

}  // namespace gapsim
