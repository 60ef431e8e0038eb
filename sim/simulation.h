// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// One simulated robot in its own ODE world. Built from an immutable RobotModel by the compile
/// step (sim/compile.h: every decision, in a CompiledModel) and its instantiation in ODE
/// (sim/simulation_build.cpp); owns every bit
/// of mutable state (ODE world, bodies, contacts, RNG seed of QuickStep, clocks), so any number of
/// Simulations coexist in one process. ODE handles never leave this class: the API speaks in
/// joint and link indices, SI units and Eigen types.
///
/// One step (default dt = 1 ms), in this order:
///   actuate (servo commands from the targets) -> collide -> ODE step -> clear contacts
///   -> divergence check -> fall check
/// Sensors are read on demand from the state after the step.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "motorgear/coupled_drive.h"
#include "motorgear/joint_drivetrain.h"
#include "sim/compile.h"
#include "sim/compiled_model.h"
#include "sim/reality.h"
#include "sim/robot_model.h"
#include "sim/sim_state.h"

namespace gapsim {

/// The physics blew up (NaN, or a body faster than the model's divergence bounds). The run must
/// stop; front ends exit with code 3.
class DivergenceError : public std::runtime_error {
 public:
  DivergenceError(double time_s, std::string body, const std::string& what)
      : std::runtime_error(what), time_s_(time_s), body_(std::move(body)) {}
  double time_s() const { return time_s_; }
  const std::string& body() const { return body_; }

 private:
  double time_s_;
  std::string body_;
};

struct ImuReading {
  double pitch_rad = 0;  ///< rotation about the world-horizontal y axis, positive nose down (ZYX Euler)
  double roll_rad = 0;   ///< rotation about x, positive left side up (ZYX Euler)
  double tilt_rad = 0;   ///< angle between the link's up axis and world up (BIOLOID papers' alpha)
  Eigen::Vector3d gyro_rad_s = Eigen::Vector3d::Zero();  ///< angular velocity in the IMU link frame
};

struct FootContactReading {
  bool contact = false;
  double force_N = 0;  ///< vertical ground reaction force on that foot
  int points = 0;
};

struct StageTimes {
  double collide_s = 0, step_s = 0, total_s = 0;
  long steps = 0;
};

class Simulation {
 public:
  /// compile(*model, options) (sim/compile.h), then the compiled model instantiated in ODE.
  explicit Simulation(std::shared_ptr<const RobotModel> model, const SimOptions& options = {});
  /// A world from a model compiled before (compile(*model, ...)): many worlds can share one
  /// compiled model. `profile`: time the stages.
  Simulation(std::shared_ptr<const RobotModel> model, std::shared_ptr<const CompiledModel> compiled,
             bool profile = false);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const RobotModel& model() const { return *model_; }
  double time_s() const { return time_s_; }
  double dt_s() const { return dt_s_; }
  long stepCount() const { return steps_; }

  /// Position targets, one per joint of the model (fixed joints and mimic joints are ignored:
  /// a mimic joint follows its master).
  void setTargets(std::span<const double> q_target_rad);
  const std::vector<double>& targets() const { return target_; }

  /// Advance by dt. Throws DivergenceError when the state stops being finite or bounded.
  void step();

  /// The whole mutable state between two steps (sim/sim_state.h: what it holds and what ODE
  /// carries nothing of). setState puts one back: the steps that follow are bit for bit those
  /// that followed when it was taken. Throws std::invalid_argument for a state of another model.
  SimState state() const;
  void setState(const SimState& s);

  // --- external actions, applied in the next step() only (then cleared) ---
  /// Adds a torque about a hinge's axis (a force along a slider's axis) acting on the child
  /// link, with the reaction on the parent: how a transmission model or torque controller drives
  /// a joint (use DriveKind::Torque so no servo acts as well). Reported in jointTorque_Nm.
  void addJointTorque_Nm(int joint, double tau_Nm);
  /// Adds a force (world frame, N) at a world point on a link's body (a compliant ground, a push).
  void addLinkForce_N(int link, const Eigen::Vector3d& force_world_N, const Eigen::Vector3d& point_world_m);
  /// Velocity (world frame) of a world point moving with a link's body.
  Eigen::Vector3d linkPointVelocity_m_s(int link, const Eigen::Vector3d& point_world_m) const;

  // --- drives that move several joints (motorgear/coupled_drive.h; MABEL's legs: sim/mabel_legs.h) ---
  int coupledDriveCount() const;
  /// The drive itself: its state after the last step, and what a controller sets for the next.
  motorgear::CoupledDrive& coupledDrive(int index);
  const motorgear::CoupledDrive& coupledDrive(int index) const;

  // --- compliant ground (sim/mabel_spec.h, sim/simulation_ground.cpp) ---
  int toeCount() const;
  /// Compliant-ground force at toe `toe` in the last step, and the toe's height above the ground.
  const motorgear::CompliantGround::Output& toeContact(int toe) const;
  double toeHeight_m(int toe) const;

  // --- sensors (after the last step) ---
  double jointAngle_rad(int joint) const;    ///< true angle (0 for fixed joints)
  double jointEncoder_rad(int joint) const;  ///< angle quantised to the encoder resolution
  double jointRate_rad_s(int joint) const;
  double jointTorque_Nm(int joint) const;  ///< actuator torque about the axis in the last step
  /// The MoToFlex chain of a joint (its probes and state), or null for other drivetrains.
  const motorgear::JointDrivetrain* drivetrain(int joint) const;
  /// Soft-link joints between segments, named <link>/soft<k>, and their two bending angles.
  std::vector<std::string> softJointNames() const;
  std::pair<double, double> softJointAngles_rad(int index) const;
  int bodyCount() const;
  /// What the compile step decided (bodies, joints, drives, implicit rows, changed values).
  const CompiledModel& compiled() const;
  const CompileReport& compileReport() const;  ///< the same, by its report name
  /// The bodies whose principal moments the robot file's inertia floor raised, in creation order.
  const std::vector<InertiaFloorChange>& inertiaFloorChanges() const;
  ImuReading imu(int index = 0) const;              ///< model.imus[index]; the root link if none
  FootContactReading footContact(int index) const;  ///< model.foot_contacts[index]
  Eigen::Vector3d com_m() const;                    ///< whole-robot centre of mass (world)
  Eigen::Isometry3d linkPose(int link) const;       ///< world pose of a link frame
  /// Time of the first fall (IMU tilt above the model's threshold), if any.
  std::optional<double> fallTime_s() const { return fall_time_s_; }
  double maxTilt_rad() const { return max_tilt_rad_; }
  int contactCount() const { return contact_count_; }
  /// World positions (m) of the contact points of the last step, robot against ground or scene.
  const std::vector<Eigen::Vector3d>& contactPoints_m() const;
  const StageTimes& stageTimes() const { return times_; }
  /// Reset the stage timers (e.g. after a warm-up).
  void resetStageTimes() { times_ = {}; }

  struct Impl;

 private:
  void actuate();
  void initCompliantGround();
  void applyCoupledDrives();                          ///< coupled drives -> queued joint torques
  void applyCompliantGround();                        ///< toe penetration -> contact rows
  motorgear::DriveInput driveInput(int joint) const;  ///< what a drive reads of a joint before the step
  void collide();
  void checkDivergence() const;

  std::shared_ptr<const RobotModel> model_;
  std::unique_ptr<Impl> impl_;
  double dt_s_ = 0.001;
  double time_s_ = 0.0;
  long steps_ = 0;
  std::vector<double> target_;
  std::optional<double> fall_time_s_;
  double max_tilt_rad_ = 0.0;
  int contact_count_ = 0;
  bool profile_ = false;
  bool quickstep_ = true;
  /// The public constructor's second half: `real_model` already carries the reality effects'
  /// model changes; compiles it (the compiled model carries the IMU biases).
  Simulation(std::shared_ptr<const RobotModel> real_model, const SimOptions& options, int real);
  double imu_bias_rad_ = 0.0, gyro_bias_rad_s_ = 0.0;  ///< RealityEffects
  StageTimes times_;
};

}  // namespace gapsim
