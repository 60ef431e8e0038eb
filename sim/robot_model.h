// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// The immutable robot model: what a robot file says, in SI units, with indices instead of
/// names. Parsed once (urdf_parser.h), copied freely (calibration maps parameters onto copies),
/// never mutated by a running simulation. See docs/robot-format.md for the file format.

#include <Eigen/Geometry>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/dynamixel_servo.h"
#include "motorgear/ideal_servo.h"
#include "motorgear/joint_drivetrain.h"
#include "motorgear/servo_drive.h"
#include "sim/mabel_spec.h"
#include "sim/mesh.h"
#include "sim/reality_effects.h"

namespace gapsim {

struct Geometry {
  enum class Type { Box, Sphere, Cylinder, Capsule, Mesh };
  Type type = Type::Box;
  /// Box: full lengths x, y, z (m). Sphere: radius in x. Cylinder, capsule: radius in x, length
  /// along local z in y (capsule: the cylinder part, without the caps).
  Eigen::Vector3d size_m = Eigen::Vector3d::Zero();
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();  ///< in the link frame
  std::string mesh_file;  ///< the URI as written (Type::Mesh; kept for messages when a mesh was replaced)
  Eigen::Vector3d mesh_scale = Eigen::Vector3d::Ones();
  /// Type::Mesh: the file read (sim/mesh.h), shared by every copy of the model. Collided as its
  /// convex hull, scaled by mesh_scale; drawn as it is.
  std::shared_ptr<const TriangleMesh> mesh;
  /// `<material>` colour of a visual (its own `<color>` or the named robot-level material); when
  /// absent a mesh is drawn in its file's material colours.
  bool has_color = false;
  Eigen::Vector4d rgba{0.7, 0.7, 0.7, 1.0};
  int line = 0;
};

struct Inertial {
  double mass_kg = 0.0;
  /// Frame of the centre of mass in the link frame (translation = COM, rotation = the frame the
  /// inertia tensor is expressed in).
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  Eigen::Matrix3d inertia_kgm2 = Eigen::Matrix3d::Zero();  ///< about the COM, in `origin`'s axes
};

struct Link {
  std::string name;
  bool has_inertial = false;
  Inertial inertial;
  std::vector<Geometry> collisions;
  std::vector<Geometry> visuals;
  int line = 0;
};

enum class JointType { Revolute, Continuous, Prismatic, Fixed };

/// The URDF name of a joint type ("revolute", "continuous", "prismatic", "fixed").
const char* jointTypeName(JointType t);
/// The joint type of a URDF name; none for any other name (URDF's floating and planar included).
std::optional<JointType> parseJointType(std::string_view name);

struct Mimic {
  int master = -1;  ///< joint index; -1 = not a mimic joint
  double multiplier = 1.0;
  double offset = 0.0;  ///< rad (m for prismatic)
};

/// What drives a movable joint. `Ideal` is the plain-ODE position servo (Joint::servo);
/// `MoToFlex` the PID -> battery clamp -> RL motor -> gear chain of motorgear::JointDrivetrain,
/// whose torque enters ODE with dJointAddHingeTorque; `Dynamixel` the BIOLOID servo law.
/// Dry friction is the ODE joint motor (target speed 0, FMax = dry_friction_Nm) for both.
/// `Torque` is a joint driven only by torques the caller adds each step
/// (Simulation::addJointTorque_Nm: a transmission model, a torque controller); its joint motor
/// carries the dry friction dry_friction_Nm and nothing else.
/// Dynamixel: the paper's identified law (dynamixel_servo.h); DynamixelVoltage: the voltage-domain
/// servo with firmware law, DC motor, gear friction M1..M6 and play (servo_drive.h).
enum class DriveKind { Ideal, MoToFlex, Dynamixel, Torque, DynamixelVoltage };

struct Drivetrain {
  DriveKind kind = DriveKind::Ideal;
  std::string group;  ///< parameter-name prefix shared by several joints, e.g. "legs/typeA"
  motorgear::JointDrivetrain::Params motoflex{};
  motorgear::DynamixelServo::Params dynamixel{};
  motorgear::DynamixelServoModel voltage_servo =
      motorgear::DynamixelServoModel::fromPreset(motorgear::dynamixelPreset("AX-18"));
  double dry_friction_Nm = 0.0;
};

/// A link simulated as `segments` rigid pieces along its length (MoToFlex Section 3.3), joined by
/// two-axis joints perpendicular to the link with torque -D_B * alpha per axis (implemented as
/// ODE's implicit spring, so any D_B is stable) plus a small damping and optional dry friction.
struct SoftLink {
  int link = -1;
  std::string group;  ///< parameter-name prefix, e.g. "legs/soft"
  int segments = 2;
  double D_B_Nm_rad = 2006.5;
  double damping_Nms_rad = 0.1;
  double friction_Nm = 0.0;
  int line = 0;
};

struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  int parent = -1;                                           ///< link index
  int child = -1;                                            ///< link index
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();  ///< joint frame in the parent link frame
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();           ///< unit, in the joint frame
  bool has_limits = false;
  double lower = -std::numeric_limits<double>::infinity();  ///< rad (m)
  double upper = std::numeric_limits<double>::infinity();   ///< rad (m)
  double effort = 0.0;                                      ///< N m (N); 0 = not given
  double velocity = 0.0;                                    ///< rad/s (m/s); 0 = not given
  double damping_Nms_rad = 0.0;
  double friction_Nm = 0.0;
  Mimic mimic;
  /// The ideal servo: what drives the joint when its drive is `Ideal`, and in plain runs (its
  /// defaults until the robot file says otherwise).
  motorgear::IdealServo::Params servo;
  Drivetrain drive;
  double encoder_resolution_rad = 0.0;  ///< 0 = exact
  int line = 0;

  bool movable() const { return type != JointType::Fixed; }
};

struct SolverSettings {
  double dt_s = 0.001;
  bool quickstep = true;  ///< dWorldQuickStep (iterative) or dWorldStep (direct, O(n^3))
  int iterations = 20;
  /// Floor on every simulated body's principal moments of inertia (kg m^2), applied when the
  /// world is built (0 = none). Light links between heavy ones (the Nao's pelvis and ankle links,
  /// 0.07-0.16 kg with moments near 1e-4) make the iterative solver's problem so ill-conditioned
  /// that QuickStep needs about 1000 iterations to hold a stance leg; raising their smallest
  /// moments to 1e-3 lets 15 iterations agree with dWorldStep (docs/solver.md). It changes those
  /// links' rotational inertia, so a robot file states it and `gapsim-cli info` lists every body it raises.
  double min_inertia_kgm2 = 0.0;
  /// The floor when the robot runs plain (makePlain: ideal position servos, rigid links), if the
  /// file states one; unset = min_inertia_kgm2. Ideal servos dictate the joints' motion, so a
  /// link's own rotational inertia barely changes a plain run's outcome on the exact solver (the
  /// Nao's 200 mm/s walk covers 1.8776 m on dWorldStep with a floor of 2e-3, 3e-3 or 4e-3), while
  /// QuickStep converges closer to it the larger the floor (docs/solver.md).
  std::optional<double> plain_min_inertia_kgm2;
  /// QuickStep's iterations when the robot runs plain, if the file states them; unset =
  /// iterations. Ideal servos hold every joint as a stiff velocity row, so the plain robot is the
  /// harder problem for the iterative solver and may need more sweeps than the full pipeline,
  /// whose compliant drives let it converge in fewer (docs/solver.md).
  std::optional<int> plain_iterations;
  /// QuickStep's over-relaxation factor w (ODE's default 1.3): each projected Gauss-Seidel sweep
  /// moves a row's impulse w times its own correction. The Nao's stance legs under a compliant
  /// drive converge slowly at 1.3 (the walks fell 2-3.6 % short of the exact solver's distance);
  /// at 1.5 and the same 15 iterations they come within 2.2 % (docs/solver.md). 0 < w < 2.
  double sor_w = 1.3;
  /// w when the robot runs plain, if the file states it; unset = sor_w.
  std::optional<double> plain_sor_w;
  /// A movable joint whose child subtree weighs less than this fraction of the robot (finger links
  /// of a few milligrams, a sensor frame on a joint) is welded at its initial value when the world
  /// is built: such a body against kilograms makes the solver's problem hopelessly ill-conditioned
  /// and has no effect on the robot's motion. Listed by `gapsim-cli info --compiled`. 0 = never.
  double weld_mass_ratio = 1e-4;
  /// A body moved by a movable joint that moves another body through one, lighter than this
  /// fraction of the lighter of those two neighbours (a servo bracket of a few grams between a
  /// torso and an arm), gets its principal moments raised to the smallest principal moment of
  /// that neighbour pair: QuickStep's sweeps converge slowly through such a body
  /// (sim/compile_light_links.cpp). Runs on QuickStep when min_inertia_kgm2 is 0; listed by
  /// `gapsim-cli info --compiled`. 0 = never.
  double light_link_mass_ratio = 0.2;
  double erp = 0.2;
  double cfm = 1e-5;
  Eigen::Vector3d gravity_m_s2{0.0, 0.0, -9.81};
};

struct ContactSettings {
  double mu = 1.0;
  double soft_erp = 0.2;
  double soft_cfm = 1e-5;
  double slip1 = 0.0;
  double slip2 = 0.0;
  int max_contacts = 4;  ///< per geometry pair
  double surface_layer_m = 0.001;
  bool self_collision = false;
};

struct ImuSpec {
  std::string name;
  int link = -1;
  /// The sensor frame in the link frame (x forward, y left, z up), from `<imu rpy="...">`; identity
  /// when the link frame already is one (the Nao). The BIOLOID's torso link has x left, -y forward.
  Eigen::Matrix3d R_link_sensor = Eigen::Matrix3d::Identity();
};

struct FootContactSpec {
  std::string name;
  int link = -1;
};

/// A static box in the scene (a wall to lean on, a seat): collides with the robot like the
/// ground, with the model's contact settings. Not part of the robot: tasks add them to a copy
/// of the model before building a Simulation.
struct SceneBox {
  std::string name;
  Eigen::Vector3d size_m = Eigen::Vector3d::Ones();        ///< full edge lengths x, y, z
  Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();  ///< box centre and orientation (world)
};

struct RobotModel {
  std::string name;
  std::string source_file;  ///< path it was read from
  std::string source_text;  ///< the <source> citation
  std::vector<Link> links;
  std::vector<Joint> joints;
  int root_link = -1;
  bool fixed_base = false;  ///< root is the `world` link
  /// The root moves in a plane only: a URDF `planar` joint from `world` (2 translations in the plane,
  /// the rotation about its normal). `planar_normal` is the joint axis in the world frame.
  bool planar_base = false;
  Eigen::Vector3d planar_normal = Eigen::Vector3d::UnitY();

  /// Root link frame at t = 0 (ignored for a fixed base: `world` is the identity).
  Eigen::Isometry3d initial_root_pose = Eigen::Isometry3d::Identity();
  std::vector<double> initial_q;     ///< per joint (0 for fixed joints)
  bool has_ground_clearance = true;  ///< on by default: a robot file that says nothing is put on the ground
  double ground_clearance_m = 0.0005;

  SolverSettings solver;
  ContactSettings contact;
  /// The drive and IMU reality effects the model carries as parameters (`reality/<name>`: command
  /// delay, backlash, Stribeck friction, IMU biases; sim/reality.h), all off by default, so that a
  /// calibration can fit them. A simulation runs with these and SimOptions::reality together
  /// (combinedEffects); the mass, COM, sensor-delay and encoder fields act from SimOptions only.
  RealityEffects reality;
  bool ground_plane = true;
  std::vector<SceneBox> scene_boxes;
  std::vector<ImuSpec> imus;
  std::vector<FootContactSpec> foot_contacts;
  double fall_tilt_rad = 60.0 * 3.14159265358979323846 / 180.0;
  double max_linear_speed_m_s = 50.0;
  double max_angular_speed_rad_s = 500.0;

  std::vector<SoftLink> soft_links;
  std::vector<MabelLegSpec> mabel_legs;                ///< MABEL transmissions (sim/mabel_spec.h)
  std::vector<CompliantGroundSpec> compliant_grounds;  ///< at most one: compliant ground at toe points

  std::vector<std::string> warnings;  ///< what the loader ignored or replaced

  int linkIndex(const std::string& name) const;
  int jointIndex(const std::string& name) const;
  double totalMass_kg() const;  ///< all links with inertial (the static `world` has none)
  /// Movable joints in file order: the joints a motion or log names.
  std::vector<int> movableJoints() const;
  std::vector<std::string> movableJointNames() const;
};

}  // namespace gapsim
