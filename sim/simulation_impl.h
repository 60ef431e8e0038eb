// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// Internal to sim/: the ODE side of a Simulation (handles, per-joint actuator state). Shared by
/// simulation_build.cpp (construction) and simulation.cpp (the step and the sensors).

#include <ode/ode.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "motorgear/drive.h"
#include "motorgear/joint_drivetrain.h"
#include "sim/drive_registry.h"
#include "sim/simulation.h"

namespace gapsim {

constexpr int kMaxFootFeedback = 256;  // contact joints with force feedback per step

/// Per movable joint: its ODE hinge (or slider) and what drives it.
struct JointActuator {
  dJointID id = nullptr;
  dJointFeedback fb{};
  /// Second motor row about the same axis, for the implicit viscous part of a drivetrain
  /// (MoToFlex speed friction and back-EMF, Dynamixel kd): a velocity motor with CFM = 1/b acts as a damper
  /// b with implicit Euler, which stays stable for any b/J (the explicit torque -b qd needs
  /// b dt / J < 2, violated by the Nao's light distal links at b = sigma B_v ~ 10 N m s/rad).
  dJointID damper = nullptr;
  dJointFeedback damper_fb{};
  double damping_Nms_rad = 0.0;
  /// The joint's own viscous friction (<dynamics damping>), implicit in the same way: a velocity-0
  /// motor row (angular for hinges, linear for sliders) with CFM = 1/b. Null: none.
  dJointID viscous = nullptr;
  /// The joint's own dry friction (<dynamics friction>): a velocity-0 motor row with FMax = the
  /// friction. Null: none.
  dJointID coulomb = nullptr;
  /// What drives the joint (sim/drive_registry.h); null for mimic joints, which follow their master.
  std::unique_ptr<motorgear::Drive> drive;
  const motorgear::JointDrivetrain* chain = nullptr;  ///< MoToFlex joints: the drive's chain (probes)
  double applied_torque_Nm = 0.0;                     ///< explicit torque added this step
  double external_torque_Nm = 0.0;                    ///< queued by addJointTorque_Nm for the next step
};

/// A force queued by addLinkForce_N for the next step.
struct QueuedForce {
  dBodyID body = nullptr;
  Eigen::Vector3d force_N, point_m;
};

/// The arrays of one ODE convex geometry (a mesh's hull at its scale): ODE keeps pointers to them.
struct ConvexData {
  std::vector<dReal> planes;       ///< a b c d per face: a x + b y + c z = d, normal outward
  std::vector<dReal> points;       ///< x y z per hull vertex, relative to `centre` (m)
  std::vector<unsigned> polygons;  ///< per face: 3, then three indices into points
  /// The hull's vertex centroid in the geometry frame: ODE's dConvex wants its origin inside the
  /// hull (every plane's d >= 0; it orients faces and tests points against that origin), and a
  /// link's mesh rarely holds the link origin (a foot below its ankle), so the points are stored
  /// about this centre and the geom is offset by it.
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
};

struct SoftJoint {
  dJointID id = nullptr;  ///< universal joint between two segments
  dJointID friction = nullptr;
  std::string name;  ///< e.g. LThigh/soft1
};

struct Simulation::Impl {
  struct Body {
    dBodyID id = nullptr;
    std::string name;  ///< the first link of the group (segments: link#k)
    double mass_kg = 0;
    int foot = -1;  ///< index into model.foot_contacts, or -1
  };
  dWorldID world = nullptr;
  dSpaceID robot_space = nullptr;
  dGeomID ground = nullptr;
  dSpaceID scene_space = nullptr;  ///< static scene boxes (walls, seats); null if none
  dJointGroupID contacts = nullptr;
  dThreadingImplementationID threading = nullptr;
  std::vector<Body> bodies;
  std::vector<JointActuator> act;  ///< per joint (id null for fixed and welded)
  std::vector<SoftJoint> soft;
  std::vector<dJointFeedback> foot_fb;
  std::vector<int> foot_fb_owner;
  std::vector<int> foot_fb_side;  ///< 1 if the foot body is body1 of the contact joint, 2 if body2
  int foot_fb_used = 0;
  std::vector<int> foot_points;
  unsigned long rand_seed = 0;
  const RobotModel* model = nullptr;
  /// What this world instantiates (link-to-body maps, welded values, the report): shared, immutable.
  std::shared_ptr<const CompiledModel> compiled;
  int contacts_this_step = 0;
  std::vector<Eigen::Vector3d> contact_points;  ///< of this step (contactPoints_m)
  std::vector<QueuedForce> queued_forces;
  std::vector<CoupledDriveSlot> coupled_drives;
  /// Scratch of applyCoupledDrives, kept so that the 1 ms step allocates nothing (not state).
  std::vector<motorgear::DriveInput> coupled_in;
  std::vector<double> coupled_tau_Nm;
  std::vector<motorgear::CompliantGround::State> toe_state;
  std::vector<motorgear::CompliantGround::Output> toe_out;
  std::vector<dJointFeedback> toe_fb;   ///< force of each toe's contact row (stable addresses: sized once)
  std::vector<bool> toe_link_feedback;  ///< the toe had a contact row in the last step
  /// A planar base (RobotModel::planar_base): two motor rows hold the root body in its plane and
  /// about its normal: a linear one along the normal, an angular one about two in-plane axes, each
  /// with the velocity that closes half the drift in one step (as the mimic coupling does).
  struct PlanarBase {
    dJointID linear = nullptr, angular = nullptr;
    dBodyID body = nullptr;
    Eigen::Vector3d normal = Eigen::Vector3d::UnitY(), u = Eigen::Vector3d::UnitX(), v = Eigen::Vector3d::UnitZ();
    double offset_m = 0;  ///< normal . position at the start
    Eigen::Vector3d normal_in_body = Eigen::Vector3d::UnitY();
  } planar;
  std::vector<dGeomID> shapes;                      ///< robot collision shapes, in creation order
  std::vector<std::unique_ptr<ConvexData>> convex;  ///< of the mesh geometries (stable addresses)
  /// Destroys every ODE object of this world (idempotent): for ~Simulation and for a constructor
  /// that throws, whose destructor does not run.
  void releaseOde();
  // Instantiation of the compiled model (sim/simulation_build.cpp), in this order.
  void createWorld();
  void createBodies();
  void createSoftJoints();
  void createJoint(int joint);
  void createPlanarBase();
  // SimState (sim/simulation_state.cpp).
  static SimState::Body bodyState(dBodyID b);
  static void setBodyState(dBodyID b, const SimState::Body& s);
  std::vector<int> shapeOrder() const;
  void setShapeOrder(const std::vector<int>& order);
  static void nearCallback(void* data, dGeomID o1, dGeomID o2);
  void addContacts(dGeomID o1, dGeomID o2);
};

}  // namespace gapsim
