// SPDX-License-Identifier: BSD-3-Clause
// Instantiating a CompiledModel (sim/compiled_model.h) in a Simulation's ODE world: the world and
// its spaces, the bodies with their collision geometry, the soft joints, the robot joints with
// their drives and damper rows, the planar base's rows. Nothing is decided here (sim/compile.h
// decides); the creation order is part of the result (QuickStep's row order, the collision
// order), so it is fixed: bodies, soft joints, robot joints, planar rows. Everything is created
// at the build configuration and then moved to the initial pose.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "motorgear/drives.h"
#include "sim/drive_registry.h"
#include "sim/ode_init.h"
#include "sim/simulation_impl.h"

namespace gapsim {
namespace {

/// A motor row of its own about (along) the joint's axis with target velocity 0: the joint's
/// <dynamics> as implicit rows. ODE solves (J M^-1 J^T + CFM/h) lambda = (0 - J v)/h - J M^-1 f_ext
/// with |lambda| <= FMax, so
///   damping b:  CFM = 1/b, FMax unbounded: lambda = -b v(t+h), the damper at the end of the step
///     (implicit Euler, decay factor 1 / (1 + b h / I) per step, stable for any b h / I, where the
///     explicit torque -b v(t) diverges beyond b h / I = 2: a light link with high damping);
///   friction f: CFM 0, FMax = f: the joint held still below f, opposed by exactly f above it.
dJointID velocityZeroRow(dWorldID world, bool hinge, const Eigen::Vector3d& a, dBodyID child, dBodyID parent,
                         double cfm, double fmax) {
  const dJointID id = hinge ? dJointCreateAMotor(world, nullptr) : dJointCreateLMotor(world, nullptr);
  dJointAttach(id, child, parent);
  if (hinge) {
    dJointSetAMotorMode(id, dAMotorUser);
    dJointSetAMotorNumAxes(id, 1);
    dJointSetAMotorAxis(id, 0, parent ? 2 : 0, a.x(), a.y(), a.z());
    dJointSetAMotorParam(id, dParamVel, 0.0);
    dJointSetAMotorParam(id, dParamCFM, cfm);
    dJointSetAMotorParam(id, dParamFMax, fmax);
  } else {
    dJointSetLMotorNumAxes(id, 1);
    dJointSetLMotorAxis(id, 0, parent ? 2 : 0, a.x(), a.y(), a.z());
    dJointSetLMotorParam(id, dParamVel, 0.0);
    dJointSetLMotorParam(id, dParamCFM, cfm);
    dJointSetLMotorParam(id, dParamFMax, fmax);
  }
  return id;
}

void createDynamicsRows(dWorldID world, JointActuator& A, const CompiledModel::Joint& cj, dBodyID child,
                        dBodyID parent) {
  const bool hinge = cj.row == CompiledModel::Joint::Row::Hinge;
  if (cj.viscous_Nm_s_rad > 0)
    A.viscous = velocityZeroRow(world, hinge, cj.axis, child, parent, 1.0 / cj.viscous_Nm_s_rad, dInfinity);
  if (cj.coulomb_Nm > 0) A.coulomb = velocityZeroRow(world, hinge, cj.axis, child, parent, 0.0, cj.coulomb_Nm);
}

void toOde(const Eigen::Matrix3d& M, dMatrix3 R) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) R[4 * r + c] = M(r, c);
    R[4 * r + 3] = 0;
  }
}

void setPose(dBodyID b, const Eigen::Isometry3d& T) {
  dBodySetPosition(b, T.translation().x(), T.translation().y(), T.translation().z());
  dMatrix3 R;
  toOde(T.linear(), R);
  dBodySetRotation(b, R);
}

dBodyID createBody(dWorldID w, const CompiledModel::Body& cb) {
  dBodyID b = dBodyCreate(w);
  dMass dm;
  const Eigen::Matrix3d& I = cb.inertia_kgm2;
  dMassSetParameters(&dm, cb.mass_kg, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
  dBodySetMass(b, &dm);
  return b;
}

/// A mesh's convex hull at the geometry's scale, as ODE's dConvex wants it: about the hull's
/// vertex centroid (ConvexData::centre), which lies inside it. Faces are the hull's triangles; each
/// normal is oriented away from the centroid, which also holds for a mirroring (negative) scale.
std::unique_ptr<ConvexData> convexOf(const TriangleMesh& mesh, const Eigen::Vector3d& scale) {
  auto cd = std::make_unique<ConvexData>();
  std::vector<int> index(mesh.vertices.size(), -1);
  std::vector<Eigen::Vector3d> pts;
  for (const auto& t : mesh.hull)
    for (std::uint32_t v : t)
      if (index[v] < 0) {
        index[v] = static_cast<int>(pts.size());
        pts.push_back(mesh.vertices[v].cast<double>().cwiseProduct(scale));
      }
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (const auto& p : pts) centroid += p / static_cast<double>(pts.size());
  for (auto& p : pts) p -= centroid;
  cd->centre = centroid;
  centroid.setZero();
  for (const auto& p : pts) cd->points.insert(cd->points.end(), {p.x(), p.y(), p.z()});
  for (const auto& t : mesh.hull) {
    unsigned a = index[t[0]], b = index[t[1]], c = index[t[2]];
    Eigen::Vector3d n = (pts[b] - pts[a]).cross(pts[c] - pts[a]);
    if (n.norm() < 1e-15) continue;  // a sliver: its neighbours bound the hull
    n.normalize();
    if (n.dot(centroid - pts[a]) > 0) {
      n = -n;
      std::swap(b, c);
    }
    cd->planes.insert(cd->planes.end(), {n.x(), n.y(), n.z(), n.dot(pts[a])});
    cd->polygons.insert(cd->polygons.end(), {3u, a, b, c});
  }
  return cd;
}

dGeomID addGeometry(dSpaceID space, dBodyID body, const Geometry& gm, const Eigen::Isometry3d& off,
                    std::vector<std::unique_ptr<ConvexData>>& convex) {
  dGeomID gid = nullptr;
  switch (gm.type) {
    case Geometry::Type::Box:
      gid = dCreateBox(space, gm.size_m.x(), gm.size_m.y(), gm.size_m.z());
      break;
    case Geometry::Type::Sphere:
      gid = dCreateSphere(space, gm.size_m.x());
      break;
    case Geometry::Type::Capsule:
      gid = dCreateCapsule(space, gm.size_m.x(), gm.size_m.y());
      break;
    case Geometry::Type::Cylinder:
      gid = dCreateCylinder(space, gm.size_m.x(), gm.size_m.y());
      break;
    case Geometry::Type::Mesh: {  // with a hull (the compile step drops flat ones)
      convex.push_back(convexOf(*gm.mesh, gm.mesh_scale));
      const ConvexData& cd = *convex.back();
      gid = dCreateConvex(space, cd.planes.data(), static_cast<unsigned>(cd.planes.size() / 4), cd.points.data(),
                          static_cast<unsigned>(cd.points.size() / 3), cd.polygons.data());
      break;
    }
  }
  dGeomSetBody(gid, body);
  const Eigen::Vector3d at =
      gm.type == Geometry::Type::Mesh ? Eigen::Vector3d(off * convex.back()->centre) : off.translation();
  dGeomSetOffsetPosition(gid, at.x(), at.y(), at.z());
  dMatrix3 R;
  toOde(off.linear(), R);
  dGeomSetOffsetRotation(gid, R);
  return gid;
}

}  // namespace

void Simulation::Impl::releaseOde() {
  if (contacts) dJointGroupDestroy(contacts);
  if (ground) dGeomDestroy(ground);
  if (scene_space) {
    dSpaceSetCleanup(scene_space, 1);
    dSpaceDestroy(scene_space);
  }
  if (robot_space) {
    dSpaceSetCleanup(robot_space, 1);
    dSpaceDestroy(robot_space);
  }
  if (world) {
    dWorldSetStepThreadingImplementation(world, nullptr, nullptr);
    dWorldDestroy(world);  // its bodies and joints too
  }
  if (threading) detail::freeThreading(threading);
  contacts = nullptr;
  ground = nullptr;
  scene_space = robot_space = nullptr;
  world = nullptr;
  threading = nullptr;
}

void Simulation::Impl::createWorld() {
  const RobotModel& m = *model;
  const CompiledModel& c = *compiled;
  world = dWorldCreate();
  // One threading object per world: the default one that dInitODE2 creates is shared by all
  // worlds and is not thread-safe (DESIGN.md). Guarded: an OdeError out of a step leaves its jobs
  // queued, and the object must then not be freed (sim/ode_init.h).
  threading = dThreadingAllocateSelfThreadedImplementation();
  dWorldSetStepThreadingImplementation(world, detail::guardedThreadingFunctions(threading), threading);
  const Eigen::Vector3d& g = m.solver.gravity_m_s2;
  dWorldSetGravity(world, g.x(), g.y(), g.z());
  dWorldSetERP(world, m.solver.erp);
  dWorldSetCFM(world, m.solver.cfm);
  dWorldSetQuickStepNumIterations(world, c.iterations);
  dWorldSetQuickStepW(world, c.sor_w);
  dWorldSetContactSurfaceLayer(world, m.contact.surface_layer_m);
  dWorldSetAutoDisableFlag(world, 0);
  robot_space = dSimpleSpaceCreate(nullptr);
  contacts = dJointGroupCreate(0);
  if (m.ground_plane) ground = dCreatePlane(nullptr, 0, 0, 1, 0);
  if (!m.scene_boxes.empty()) {
    scene_space = dSimpleSpaceCreate(nullptr);
    for (const SceneBox& b : m.scene_boxes) {
      dGeomID box = dCreateBox(scene_space, b.size_m.x(), b.size_m.y(), b.size_m.z());
      const Eigen::Vector3d& t = b.pose.translation();
      dGeomSetPosition(box, t.x(), t.y(), t.z());
      const Eigen::Matrix3d R = b.pose.linear();
      dMatrix3 Rd = {R(0, 0), R(0, 1), R(0, 2), 0, R(1, 0), R(1, 1), R(1, 2), 0, R(2, 0), R(2, 1), R(2, 2), 0};
      dGeomSetRotation(box, Rd);
    }
  }
  foot_fb.resize(kMaxFootFeedback);
  foot_fb_owner.resize(kMaxFootFeedback);
  foot_fb_side.resize(kMaxFootFeedback);
  foot_points.assign(m.foot_contacts.size(), 0);
}

void Simulation::Impl::createBodies() {
  const CompiledModel& c = *compiled;
  for (const CompiledModel::Body& cb : c.bodies) {
    Body b;
    b.id = createBody(world, cb);
    b.name = cb.name;
    b.mass_kg = cb.mass_kg;
    b.foot = cb.foot;
    dBodySetData(b.id, reinterpret_cast<void*>(static_cast<intptr_t>(bodies.size())));
    bodies.push_back(b);
    for (const CompiledModel::Shape& s : cb.shapes) {
      dGeomID g = addGeometry(robot_space, b.id, model->links[s.link].collisions[s.index], s.in_body, convex);
      dGeomSetData(g, reinterpret_cast<void*>(static_cast<intptr_t>(shapes.size())));  // SimState::shape_order
      shapes.push_back(g);
    }
  }
  for (size_t bi = 0; bi < bodies.size(); ++bi) setPose(bodies[bi].id, c.bodies[bi].pose_build);
}

void Simulation::Impl::createSoftJoints() {
  for (const CompiledModel::SoftJoint& cs : compiled->soft_joints) {
    dJointID u = dJointCreateUniversal(world, nullptr);
    dJointAttach(u, bodies[cs.body1].id, bodies[cs.body2].id);
    dJointSetUniversalAnchor(u, cs.anchor_m.x(), cs.anchor_m.y(), cs.anchor_m.z());
    dJointSetUniversalAxis1(u, cs.axis1.x(), cs.axis1.y(), cs.axis1.z());
    dJointSetUniversalAxis2(u, cs.axis2.x(), cs.axis2.y(), cs.axis2.z());
    for (int p : {dParamLoStop, dParamHiStop, dParamLoStop2, dParamHiStop2}) dJointSetUniversalParam(u, p, 0.0);
    for (int p : {dParamStopERP, dParamStopERP2}) dJointSetUniversalParam(u, p, cs.stop_erp);
    for (int p : {dParamStopCFM, dParamStopCFM2}) dJointSetUniversalParam(u, p, cs.stop_cfm);
    SoftJoint sj;
    sj.id = u;
    sj.name = cs.name;
    if (cs.friction_Nm > 0) {
      // Coulomb friction between the segments: a two-axis angular motor, target speed 0.
      sj.friction = dJointCreateAMotor(world, nullptr);
      dJointAttach(sj.friction, bodies[cs.body1].id, bodies[cs.body2].id);
      dJointSetAMotorMode(sj.friction, dAMotorUser);
      dJointSetAMotorNumAxes(sj.friction, 2);
      dJointSetAMotorAxis(sj.friction, 0, 1, cs.axis1.x(), cs.axis1.y(), cs.axis1.z());
      dJointSetAMotorAxis(sj.friction, 1, 2, cs.axis2.x(), cs.axis2.y(), cs.axis2.z());
      for (int p : {dParamVel, dParamVel2}) dJointSetAMotorParam(sj.friction, p, 0.0);
      for (int p : {dParamFMax, dParamFMax2}) dJointSetAMotorParam(sj.friction, p, cs.friction_Nm);
    }
    soft.push_back(sj);
  }
}

void Simulation::Impl::createJoint(int ji) {
  const CompiledModel::Joint& cj = compiled->joints[static_cast<size_t>(ji)];
  JointActuator& A = act[static_cast<size_t>(ji)];
  dBodyID child = bodies[static_cast<size_t>(cj.child_body)].id;
  dBodyID parent = cj.parent_body >= 0 ? bodies[static_cast<size_t>(cj.parent_body)].id : nullptr;
  const Eigen::Vector3d& axis = cj.axis;
  // Attached (child, parent): ODE's angle is body1 relative to body2 about the axis, which is
  // URDF's convention for the child relative to the parent.
  const bool hinge = cj.row == CompiledModel::Joint::Row::Hinge;
  if (!hinge) {
    A.id = dJointCreateSlider(world, nullptr);
    dJointAttach(A.id, child, parent);
    dJointSetSliderAxis(A.id, axis.x(), axis.y(), axis.z());
  } else {
    A.id = dJointCreateHinge(world, nullptr);
    dJointAttach(A.id, child, parent);
    dJointSetHingeAnchor(A.id, cj.anchor_m.x(), cj.anchor_m.y(), cj.anchor_m.z());
    dJointSetHingeAxis(A.id, axis.x(), axis.y(), axis.z());
  }
  auto setParam = [&](int p, double v) {
    if (hinge)
      dJointSetHingeParam(A.id, p, v);
    else
      dJointSetSliderParam(A.id, p, v);
  };
  if (cj.stops) {
    setParam(dParamLoStop, cj.lower);
    setParam(dParamHiStop, cj.upper);
  }
  setParam(dParamFMax, 0.0);
  dJointSetFeedback(A.id, &A.fb);
  createDynamicsRows(world, A, cj, child, parent);
  if (!cj.prototype) return;  // a mimic joint: coupled to its master in actuate()
  A.drive = cj.prototype->clone();
  const motorgear::Drive* core = A.drive.get();
  while (core->wrapped()) core = core->wrapped();  // reality effects wrap the model's drive
  if (const auto* chain = dynamic_cast<const motorgear::MotoflexDrive*>(core)) A.chain = &chain->chain();
  A.damping_Nms_rad = cj.damper_Nm_s_rad;
  if (A.damping_Nms_rad > 0) {
    A.damper = dJointCreateAMotor(world, nullptr);
    dJointAttach(A.damper, child, parent);
    dJointSetAMotorMode(A.damper, dAMotorUser);
    dJointSetAMotorNumAxes(A.damper, 1);
    dJointSetAMotorAxis(A.damper, 0, parent ? 2 : 0, axis.x(), axis.y(), axis.z());
    dJointSetAMotorParam(A.damper, dParamVel, 0.0);
    dJointSetAMotorParam(A.damper, dParamCFM, 1.0 / A.damping_Nms_rad);
    dJointSetAMotorParam(A.damper, dParamFMax, 1e4);
    dJointSetFeedback(A.damper, &A.damper_fb);
  }
}

void Simulation::Impl::createPlanarBase() {
  const CompiledModel::PlanarBase& cp = compiled->planar;
  if (!cp.enabled) return;
  PlanarBase& P = planar;
  P.body = bodies[static_cast<size_t>(cp.body)].id;
  P.normal = cp.normal;
  P.u = cp.u;
  P.v = cp.v;
  P.offset_m = cp.offset_m;
  P.normal_in_body = cp.normal_in_body;
  P.linear = dJointCreateLMotor(world, nullptr);
  dJointAttach(P.linear, P.body, nullptr);
  dJointSetLMotorNumAxes(P.linear, 1);
  dJointSetLMotorAxis(P.linear, 0, 0, P.normal.x(), P.normal.y(), P.normal.z());
  dJointSetLMotorParam(P.linear, dParamFMax, cp.fmax);
  P.angular = dJointCreateAMotor(world, nullptr);
  dJointAttach(P.angular, P.body, nullptr);
  dJointSetAMotorMode(P.angular, dAMotorUser);
  dJointSetAMotorNumAxes(P.angular, 2);
  dJointSetAMotorAxis(P.angular, 0, 0, P.u.x(), P.u.y(), P.u.z());
  dJointSetAMotorAxis(P.angular, 1, 0, P.v.x(), P.v.y(), P.v.z());
  dJointSetAMotorParam(P.angular, dParamFMax, cp.fmax);
  dJointSetAMotorParam(P.angular, dParamFMax2, cp.fmax);
}

namespace {

/// The model a run simulates: the robot file's, with the reality effects' mass and COM changes.
std::shared_ptr<const RobotModel> realModel(std::shared_ptr<const RobotModel> model, const RealityEffects& r) {
  r.validate();
  if (!r.changesModel()) return model;
  return std::make_shared<const RobotModel>(applyRealityToModel(*model, r));
}

}  // namespace

Simulation::Simulation(std::shared_ptr<const RobotModel> model, const SimOptions& options)
    : Simulation(realModel(std::move(model), options.reality), options, 0) {}

Simulation::Simulation(std::shared_ptr<const RobotModel> real_model, const SimOptions& options, int /*real*/)
    : Simulation(real_model, std::make_shared<const CompiledModel>(compile(*real_model, options)), options.profile) {}

Simulation::Simulation(std::shared_ptr<const RobotModel> model, std::shared_ptr<const CompiledModel> compiled,
                       bool profile)
    : model_(std::move(model)), impl_(std::make_unique<Impl>()) {
  detail::ensureOdeInitialized();
  const RobotModel& m = *model_;
  Impl& I = *impl_;
  // A constructor that throws (an OdeError from a mass ODE refuses) gets no destructor call:
  // release what was created so far on the way out.
  struct ReleaseOnThrow {
    Impl& impl;
    bool constructed = false;
    ~ReleaseOnThrow() {
      if (constructed) return;
      try {
        impl.releaseOde();
      } catch (...) {  // an OdeError while unwinding would end in std::terminate
      }
    }
  } release_on_throw{I};
  I.model = &m;
  I.compiled = std::move(compiled);
  const CompiledModel& c = *I.compiled;
  dt_s_ = c.dt_s;
  profile_ = profile;
  quickstep_ = c.quickstep;
  imu_bias_rad_ = c.imu_bias_rad;
  gyro_bias_rad_s_ = c.gyro_bias_rad_s;
  I.rand_seed = static_cast<unsigned long>(c.seed);
  I.createWorld();
  I.createBodies();
  I.createSoftJoints();
  I.act.resize(m.joints.size());
  for (size_t ji = 0; ji < m.joints.size(); ++ji)
    if (c.joints[ji].row != CompiledModel::Joint::Row::None) I.createJoint(static_cast<int>(ji));
  for (size_t bi = 0; bi < I.bodies.size(); ++bi) setPose(I.bodies[bi].id, c.bodies[bi].pose_initial);
  I.createPlanarBase();
  target_ = m.initial_q;
  for (const CompiledModel::CoupledDrive& cd : c.coupled_drives)
    I.coupled_drives.push_back({cd.prototype->clone(), cd.joints, cd.element, cd.line});
  initCompliantGround();
  release_on_throw.constructed = true;
}

}  // namespace gapsim
