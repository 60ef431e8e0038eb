// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// What the compile step (sim/compile.h) decides for a robot model, before anything exists in ODE:
/// the bodies with the mass and inertia ODE gets, the joints with their rows, the drives, the soft
/// segments, the solver and contact settings. Immutable once compiled; a Simulation instantiates
/// it in ODE without deciding anything more. Every value that runs differently from the robot
/// file's is listed in `changes`, with the file's value, the compiled one and the reason
/// (`gapsim-cli info ROBOT --compiled`).
///
/// Frames: the build configuration is every joint at zero and every welded joint at the value it
/// is welded at (ODE measures joint angles from the pose a joint is created in); `pose_build` and
/// the joint anchors and axes are world poses in it. `pose_initial` is the model's initial pose.

#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "motorgear/coupled_drive.h"
#include "motorgear/drive.h"
#include "sim/robot_model.h"

namespace gapsim {

/// A body whose inertia the solver's inertia floor raised (SolverSettings::min_inertia_kgm2).
struct InertiaFloorChange {
  std::string body;                       ///< body name (first link of its rigid group; segments link#k)
  Eigen::Vector3d principal_before_kgm2;  ///< principal moments before, ascending
  double floor_kgm2 = 0;                  ///< every moment below this was raised to it
};

struct CompiledModel {
  /// A value that runs differently from the file's.
  struct Change {
    std::string item;      ///< e.g. "LKneePitch: motor/B_v"
    std::string in_file;   ///< the file's value (text)
    std::string compiled;  ///< what runs instead
    std::string why;
  };

  /// A collision shape on a body: model.links[link].collisions[index], at `in_body`.
  struct Shape {
    int link = 0, index = 0;
    Eigen::Isometry3d in_body = Eigen::Isometry3d::Identity();  ///< geometry frame in the body frame
  };

  /// One ODE body: a rigid group of links (joined by fixed or welded joints) or a soft-link segment.
  struct Body {
    std::string name;                ///< first link of the rigid group (soft segments: link#k)
    std::vector<std::string> links;  ///< links merged into it (fixed joints); a soft link's last segment lists it too
    double mass_kg = 0;
    /// Inertia about the COM in the body frame, as ODE gets it (symmetric, armature and floors included).
    Eigen::Matrix3d inertia_kgm2 = Eigen::Matrix3d::Zero();
    Eigen::Vector3d principal_kgm2 = Eigen::Vector3d::Zero();  ///< of inertia_kgm2, ascending
    double armature_kgm2 = 0;  ///< reflected rotor inertia of the joint that moves it (file's value)
    Eigen::Isometry3d pose_build = Eigen::Isometry3d::Identity();    ///< COM frame, build configuration
    Eigen::Isometry3d pose_initial = Eigen::Isometry3d::Identity();  ///< COM frame, initial pose
    std::vector<Shape> shapes;                                       ///< in creation order
    int foot = -1;                                                   ///< index into model.foot_contacts, or -1
  };

  /// A robot joint as it runs.
  struct Joint {
    enum class Row { None, Hinge, Slider };  ///< None: fixed or welded (part of a body)
    Row row = Row::None;
    bool welded = false;                    ///< movable in the file, welded by the compile step
    double welded_q = 0;                    ///< the value a welded joint holds (fixed: 0)
    int child_body = -1, parent_body = -1;  ///< parent -1: the world
    Eigen::Vector3d anchor_m = Eigen::Vector3d::Zero(),
                    axis = Eigen::Vector3d::UnitZ();  ///< world, build configuration
    bool stops = false;  ///< ODE joint stops at [lower, upper] (hinges: only within (-pi, pi))
    double lower = 0, upper = 0;
    bool mimic = false;  ///< follows its master (no drive)
    std::string drive;   ///< what drives it, as it runs (e.g. "MoToFlex", "ideal servo")
    /// The drive as built (state at the initial pose); the Simulation runs a clone. Null: no drive.
    std::shared_ptr<const motorgear::Drive> prototype;
    double damper_Nm_s_rad = 0;  ///< b of the implicit damper row (0: none; hinges only)
    /// b of the joint's own viscous friction (URDF <dynamics damping>), N m s/rad (N s/m for a
    /// slider): a row of its own, velocity 0 with CFM = 1/b, so the damping is implicit and
    /// stable for any b dt / I (0: none).
    double viscous_Nm_s_rad = 0;
    /// The joint's own dry friction (URDF <dynamics friction>), N m (N for a slider): a row of its
    /// own, velocity 0 with FMax = the friction, so it holds the joint still below that torque and
    /// opposes its motion with exactly that torque above it, implicitly (0: none).
    double coulomb_Nm = 0;
  };

  /// A universal joint between two segments of a soft link, held at zero by its stops (spring-damper).
  struct SoftJoint {
    std::string name;          ///< <link>/soft<k>
    int body1 = 0, body2 = 0;  ///< segment k and k-1
    Eigen::Vector3d anchor_m = Eigen::Vector3d::Zero(), axis1 = Eigen::Vector3d::UnitX(),
                    axis2 = Eigen::Vector3d::UnitY();
    double stop_erp = 0, stop_cfm = 0;  ///< from D_B and the damping at dt
    double friction_Nm = 0;             ///< Coulomb friction row's bound (0: no row)
  };

  /// RobotModel::planar_base: motor rows hold the root body in a plane.
  struct PlanarBase {
    bool enabled = false;
    int body = -1;
    Eigen::Vector3d normal = Eigen::Vector3d::UnitY(), u = Eigen::Vector3d::UnitX(), v = Eigen::Vector3d::UnitZ();
    double offset_m = 0;  ///< normal . position at the start
    Eigen::Vector3d normal_in_body = Eigen::Vector3d::UnitY();
    double fmax = 0;  ///< bound of each row (N, N m)
  };

  // --- solver ---
  double dt_s = 0.001;
  bool quickstep = true;
  int iterations = 0;
  double sor_w = 1.3;  ///< QuickStep's over-relaxation (SolverSettings::sor_w)
  std::uint64_t seed = 0;
  std::string stepper;  ///< e.g. "QuickStep, 15 iterations, dt 0.001 s, ERP 0.2, CFM 1e-05"

  // --- sensors: the IMU biases of the reality effects (combinedEffects, sim/reality_effects.h) ---
  double imu_bias_rad = 0;     ///< added to the IMU's pitch and roll
  double gyro_bias_rad_s = 0;  ///< added to each gyro axis

  std::vector<Body> bodies;            ///< in creation order
  std::vector<Joint> joints;           ///< per model joint
  std::vector<SoftJoint> soft_joints;  ///< in creation order
  PlanarBase planar;
  /// A drive that moves several joints (sim/drive_registry.h, makeCoupledDrives), as built.
  struct CoupledDrive {
    std::shared_ptr<const motorgear::CoupledDrive> prototype;
    std::vector<int> joints;
    std::string element;  ///< the robot-file element that declared it
    int line = 0;
  };
  std::vector<CoupledDrive> coupled_drives;
  std::vector<int> link_body;                       ///< per link: its body, -1 static (fixed to world)
  std::vector<int> link_last_body;                  ///< soft links: the last segment; else link_body
  std::vector<Eigen::Isometry3d> link_in_body;      ///< link frame in its body frame
  std::vector<Eigen::Isometry3d> static_link_pose;  ///< world pose of static links
  std::vector<Change> changes;
  std::vector<InertiaFloorChange> inertia_floor_changes;
};

/// The name `gapsim-cli info --compiled` and the tests know the compiled model by.
using CompileReport = CompiledModel;

}  // namespace gapsim
