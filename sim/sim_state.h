// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The whole mutable state of a Simulation between two steps, as a value: Simulation::state()
/// takes it, Simulation::setState() puts it back, and the run continues bit for bit as it did
/// from the moment it was taken (tests/sim/sim_state_test.cpp). A state belongs to the compiled
/// model it was taken from (same bodies, joints and drives); setState checks the counts.
///
/// Captured:
///   - clock: time, step count; the targets; the fall record (first fall time, maximum tilt);
///   - ODE's random stream: QuickStep shuffles its constraint rows with dRandInt, whose seed each
///     world keeps (dRandGetSeed after its step, dRandSetSeed before the next);
///   - per body: position, orientation (ODE's quaternion and the rotation matrix it derives from
///     it, both bit for bit), linear and angular velocity;
///   - the order of the robot's collision shapes in their space: ODE moves a clean shape to the
///     front of its space's list when its body moves, in the order the step visits the bodies,
///     and the next collision runs in list order (in the tested runs the order after each step is
///     the same; it is kept so that nothing depends on that);
///   - per joint: its drive (a clone: chains, delay lines, filters; motorgear/drive.h), the torques
///     queued for the next step, and the last step's feedback (what jointTorque_Nm reports);
///   - the coupled drives (clones), the compliant ground's bristles and its toes' last contact;
///   - the last step's contacts as the sensors report them (foot forces, contact points).
/// Not captured, because ODE 0.16 carries nothing of it from one step to the next:
///   - contact joints: created in collide() and destroyed after every step;
///   - warm starting: this QuickStep starts every step from zero impulses (no lambda is kept on
///     the joints between steps); the motor rows' targets and bounds are set again before every
///     step, the joints' anchors and axes are fixed at creation;
///   - force accumulators: empty between steps (external torques wait in the Simulation).
/// The controller's state is not the simulation's: a controller that keeps state (the ankle
/// balance's filters) is saved by its owner.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "motorgear/coupled_drive.h"
#include "motorgear/drive.h"
#include "motorgear/mabel_ground.h"

namespace gapsim {

struct SimState {
  /// Force and torque on both bodies of a joint (ODE's dJointFeedback: f1, t1, f2, t2, each x y z
  /// and a pad), kept so that the sensors read the same after setState.
  using Feedback = std::array<double, 16>;

  struct Body {
    std::array<double, 3> position_m{};
    std::array<double, 4> quaternion{};  ///< w x y z, as ODE keeps it
    std::array<double, 12> rotation{};   ///< ODE's 3x4 row-major matrix, derived from the quaternion
    std::array<double, 3> velocity_m_s{};
    std::array<double, 3> angular_velocity_rad_s{};
  };
  struct Joint {
    std::shared_ptr<const motorgear::Drive> drive;  ///< null: no drive (fixed, welded, mimic)
    double external_torque_Nm = 0;                  ///< queued by addJointTorque_Nm
    double applied_torque_Nm = 0;                   ///< explicit torque of the last step
    Feedback feedback{}, damper_feedback{};
  };
  struct QueuedForce {
    int body = 0;
    Eigen::Vector3d force_N = Eigen::Vector3d::Zero(), point_m = Eigen::Vector3d::Zero();
  };
  struct FootRecord {
    int foot = 0, side = 1;  ///< which foot, and whether it is body 1 or 2 of the contact
    Feedback feedback{};
  };

  double time_s = 0;
  long steps = 0;
  std::uint64_t rand_seed = 0;  ///< ODE's dRandGetSeed after the last step
  std::vector<double> targets_rad;
  std::optional<double> fall_time_s;
  double max_tilt_rad = 0;

  std::vector<Body> bodies;
  std::vector<int> shape_order;  ///< robot collision shapes in their space's list order (creation indices)
  std::vector<Joint> joints;
  std::vector<QueuedForce> queued_forces;
  std::vector<std::shared_ptr<const motorgear::CoupledDrive>> coupled_drives;
  std::vector<motorgear::CompliantGround::State> toe_states;
  std::vector<motorgear::CompliantGround::Output> toe_outputs;
  std::vector<bool> toe_has_feedback;
  std::vector<Feedback> toe_feedback;

  // The last step's contacts (sensors).
  int contact_count = 0;
  std::vector<Eigen::Vector3d> contact_points_m;
  std::vector<int> foot_points;
  std::vector<FootRecord> foot_records;

  /// A hash of the physical state (clock, RNG, bodies, targets) by its bytes: equal states hash
  /// equal; a golden value pins a run (tests/sim/sim_state_test.cpp). Drives' internal states are
  /// not hashed (they are opaque objects); they act on the bodies within a step.
  std::uint64_t hash() const;
};

}  // namespace gapsim
