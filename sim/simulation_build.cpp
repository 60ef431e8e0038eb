// SPDX-License-Identifier: BSD-3-Clause
// Building a Simulation's ODE world from a RobotModel: bodies (links joined by fixed joints form
// one rigid body; soft links become chains of segments), collision geometry, joints and their
// actuators. Everything is created at the zero configuration (ODE measures joint angles from the
// pose a joint is created in) and then moved to the initial pose.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <functional>
#include <cmath>

#include "motorgear/drives.h"
#include "sim/drive_registry.h"
#include "sim/input_error.h"
#include "sim/kinematics.h"
#include "sim/ode_init.h"
#include "sim/simulation_impl.h"

namespace gapsim {
namespace {

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

/// Mass, COM and inertia (about the COM) of a set of parts, in one frame.
struct MassProps {
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

struct Part {
  double mass;
  Eigen::Isometry3d frame;  // COM frame (rotation = inertia axes) in the common frame
  Eigen::Matrix3d inertia;
};

MassProps combine(const std::vector<Part>& parts) {
  MassProps r;
  for (const Part& p : parts) {
    r.mass += p.mass;
    r.com += p.mass * p.frame.translation();
  }
  if (r.mass > 0) r.com /= r.mass;
  for (const Part& p : parts) {
    const Eigen::Matrix3d R = p.frame.linear();
    const Eigen::Vector3d d = p.frame.translation() - r.com;
    // Parallel-axis theorem: I_c + m (|d|^2 E - d d^T).
    r.inertia += R * p.inertia * R.transpose() +
                 p.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return r;
}

bool positiveDefinite(const Eigen::Matrix3d& I) { return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues().minCoeff() > 0; }

/// `I` with every principal moment raised to at least `floor_kgm2` (same principal axes): the
/// solver's inertia floor (SolverSettings::min_inertia_kgm2).
Eigen::Matrix3d withInertiaFloor(const Eigen::Matrix3d& I, double floor_kgm2) {
  if (floor_kgm2 <= 0) return I;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(I);
  if (es.eigenvalues().minCoeff() >= floor_kgm2) return I;
  const Eigen::Vector3d raised = es.eigenvalues().cwiseMax(floor_kgm2);
  return es.eigenvectors() * raised.asDiagonal() * es.eigenvectors().transpose();
}

dBodyID createBody(dWorldID w, const MassProps& mp) {
  dBodyID b = dBodyCreate(w);
  dMass dm;
  const Eigen::Matrix3d& I = mp.inertia;
  dMassSetParameters(&dm, mp.mass, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2));
  dBodySetMass(b, &dm);
  return b;
}

/// A mesh's convex hull at the geometry's scale, as ODE's dConvex wants it. Faces are the hull's
/// triangles; each normal is oriented away from the hull's centroid, which also holds for a
/// mirroring (negative) scale.
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

void addGeometry(dSpaceID space, dBodyID body, const Geometry& gm, const Eigen::Isometry3d& link_in_body,
                 std::vector<std::unique_ptr<ConvexData>>& convex) {
  dGeomID gid = nullptr;
  switch (gm.type) {
    case Geometry::Type::Box: gid = dCreateBox(space, gm.size_m.x(), gm.size_m.y(), gm.size_m.z()); break;
    case Geometry::Type::Sphere: gid = dCreateSphere(space, gm.size_m.x()); break;
    case Geometry::Type::Capsule: gid = dCreateCapsule(space, gm.size_m.x(), gm.size_m.y()); break;
    case Geometry::Type::Cylinder: gid = dCreateCylinder(space, gm.size_m.x(), gm.size_m.y()); break;
    case Geometry::Type::Mesh: {
      // The parser replaced missing meshes; a flat one (no hull) is drawn but not collided.
      if (!gm.mesh || gm.mesh->hull.empty()) return;
      convex.push_back(convexOf(*gm.mesh, gm.mesh_scale));
      const ConvexData& cd = *convex.back();
      gid = dCreateConvex(space, cd.planes.data(), static_cast<unsigned>(cd.planes.size() / 4), cd.points.data(),
                          static_cast<unsigned>(cd.points.size() / 3), cd.polygons.data());
      break;
    }
  }
  dGeomSetBody(gid, body);
  const Eigen::Isometry3d off = link_in_body * gm.origin;
  dGeomSetOffsetPosition(gid, off.translation().x(), off.translation().y(), off.translation().z());
  dMatrix3 R;
  toOde(off.linear(), R);
  dGeomSetOffsetRotation(gid, R);
}

/// Inertia of the subtree below joint `j` about its axis at the initial pose (kg m^2): what the
/// coupled gear sees as the joint's own inertia when it is not told otherwise.
double subtreeInertiaAboutAxis(const RobotModel& m, int j, const std::vector<Eigen::Isometry3d>& pose) {
  const Joint& jt = m.joints[j];
  const Eigen::Isometry3d jf = pose[jt.parent] * jt.origin;
  const Eigen::Vector3d a = jf.linear() * jt.axis, p = jf.translation();
  std::vector<bool> in(m.links.size(), false);
  in[jt.child] = true;
  for (size_t sweep = 0; sweep < m.links.size(); ++sweep)
    for (const Joint& o : m.joints)
      if (in[o.parent]) in[o.child] = true;
  double I = 0;
  for (size_t l = 0; l < m.links.size(); ++l) {
    if (!in[l] || !m.links[l].has_inertial) continue;
    const Link& L = m.links[l];
    const Eigen::Isometry3d cf = pose[l] * L.inertial.origin;
    const Eigen::Vector3d r = cf.translation() - p;
    const Eigen::Vector3d rp = r - r.dot(a) * a;
    const Eigen::Vector3d al = cf.linear().transpose() * a;
    I += al.dot(L.inertial.inertia_kgm2 * al) + L.inertial.mass_kg * rp.squaredNorm();
  }
  return I;
}

/// Joints welded by the compile step (SolverSettings::weld_mass_ratio): a movable joint whose child
/// subtree weighs less than `weld_mass_ratio` of the robot, or is a massless frame without collision
/// geometry. A joint below a welded one is welded too (its subtree is lighter still).
std::vector<bool> weldedJoints(const RobotModel& m, CompileReport& report) {
  const size_t nl = m.links.size();
  std::vector<std::vector<int>> children(nl);
  for (size_t ji = 0; ji < m.joints.size(); ++ji) children[m.joints[ji].parent].push_back(static_cast<int>(ji));
  std::vector<double> mass(nl, 0.0);
  std::vector<bool> collides(nl, false);
  std::function<void(int)> sum = [&](int l) {
    mass[l] = m.links[l].has_inertial ? m.links[l].inertial.mass_kg : 0.0;
    collides[l] = !m.links[l].collisions.empty();
    for (int ji : children[l]) {
      sum(m.joints[ji].child);
      mass[l] += mass[m.joints[ji].child];
      collides[l] = collides[l] || collides[m.joints[ji].child];
    }
  };
  sum(m.root_link);
  const double total = m.totalMass_kg();
  std::vector<bool> welded(m.joints.size(), false);
  std::function<void(int, bool)> visit = [&](int l, bool inside_weld) {
    for (int ji : children[l]) {
      const Joint& j = m.joints[ji];
      const double sub = mass[j.child];
      const bool frame = sub <= 0 && !collides[j.child];
      const bool light = m.solver.weld_mass_ratio > 0 && sub < m.solver.weld_mass_ratio * total;
      welded[ji] = j.movable() && (inside_weld || frame || light);
      if (welded[ji] && !inside_weld)
        report.changes.push_back({"joint " + j.name, "movable, moves " + sixDigits(sub) + " kg (link " + m.links[j.child].name + " and below)",
                                  "welded to " + m.links[j.parent].name + " at its initial value",
                                  frame ? std::string("it moves a massless frame: nothing to simulate")
                                        : "it moves " + sixDigits(sub / total) + " of the robot's " + sixDigits(total) +
                                              " kg (below solver weld_mass_ratio " + sixDigits(m.solver.weld_mass_ratio) +
                                              "): so light a body makes the solver ill-conditioned"});
      visit(j.child, inside_weld || welded[ji]);
    }
  };
  visit(m.root_link, false);
  return welded;
}

/// The mass and moments a body gets when the file gives it too little for ODE. A massless link
/// moved by a joint with links of mass below it (a dummy link between two joints) gets
/// kMasslessBodyFraction of the robot's mass as a solid sphere of radius kMasslessBodyRadius_m:
/// lighter, or with the moments of a point, it makes QuickStep diverge against its neighbours
/// (tests/sim/urdf_quirks_test.cpp: 1e-3 of the mass in a 20 mm sphere spins up within 3 s). Every
/// principal moment is at least that of a solid sphere of radius kMinGyrationRadius_m (0.4 m r^2):
/// a point mass or a rod along its axis has a zero moment, which ODE refuses. Both are reported.
constexpr double kMasslessBodyFraction = 3e-3;
constexpr double kMasslessBodyRadius_m = 0.02;
constexpr double kMinGyrationRadius_m = 0.001;

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

Simulation::Simulation(std::shared_ptr<const RobotModel> model, const SimOptions& options)
    : model_(std::move(model)), impl_(std::make_unique<Impl>()) {
  detail::ensureOdeInitialized();
  options.reality.validate();
  if (options.reality.changesModel())
    model_ = std::make_shared<const RobotModel>(applyRealityToModel(*model_, options.reality));
  imu_bias_rad_ = options.reality.imu_bias_rad;
  gyro_bias_rad_s_ = options.reality.gyro_bias_rad_s;
  const RobotModel& m = *model_;
  Impl& I = *impl_;
  // A constructor that throws (a bad scene box, an OdeError from a mass ODE refuses) gets no
  // destructor call: release what was created so far on the way out.
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
  dt_s_ = options.dt_s.value_or(m.solver.dt_s);
  if (!(dt_s_ > 0) || !std::isfinite(dt_s_)) throw std::invalid_argument("dt must be > 0");
  profile_ = options.profile;
  quickstep_ = options.quickstep.value_or(m.solver.quickstep);
  I.rand_seed = static_cast<unsigned long>(options.seed);
  {
    const int iterations = options.iterations.value_or(m.solver.iterations);
    I.report.stepper = quickstep_ ? "QuickStep, " + std::to_string(iterations) + " iterations" : std::string("dWorldStep (exact LCP)");
    I.report.stepper += ", dt " + sixDigits(dt_s_) + " s, ERP " + sixDigits(m.solver.erp) + ", CFM " + sixDigits(m.solver.cfm);
  }

  I.world = dWorldCreate();
  // One threading object per world: the default one that dInitODE2 creates is shared by all
  // worlds and is not thread-safe (DESIGN.md). Guarded: an OdeError out of a step leaves its jobs
  // queued, and the object must then not be freed (sim/ode_init.h).
  I.threading = dThreadingAllocateSelfThreadedImplementation();
  dWorldSetStepThreadingImplementation(I.world, detail::guardedThreadingFunctions(I.threading), I.threading);
  const Eigen::Vector3d& g = m.solver.gravity_m_s2;
  dWorldSetGravity(I.world, g.x(), g.y(), g.z());
  dWorldSetERP(I.world, m.solver.erp);
  dWorldSetCFM(I.world, m.solver.cfm);
  dWorldSetQuickStepNumIterations(I.world, options.iterations.value_or(m.solver.iterations));
  dWorldSetContactSurfaceLayer(I.world, m.contact.surface_layer_m);
  dWorldSetAutoDisableFlag(I.world, 0);
  I.robot_space = dSimpleSpaceCreate(nullptr);
  I.contacts = dJointGroupCreate(0);
  if (m.ground_plane) I.ground = dCreatePlane(nullptr, 0, 0, 1, 0);
  if (!m.scene_boxes.empty()) {
    I.scene_space = dSimpleSpaceCreate(nullptr);
    for (const SceneBox& b : m.scene_boxes) {
      if (!(b.size_m.minCoeff() > 0) || !b.size_m.allFinite())
        throw std::invalid_argument("scene box '" + b.name + "': size must be positive and finite");
      dGeomID g = dCreateBox(I.scene_space, b.size_m.x(), b.size_m.y(), b.size_m.z());
      const Eigen::Vector3d& t = b.pose.translation();
      dGeomSetPosition(g, t.x(), t.y(), t.z());
      const Eigen::Matrix3d R = b.pose.linear();
      dMatrix3 Rd = {R(0, 0), R(0, 1), R(0, 2), 0, R(1, 0), R(1, 1), R(1, 2), 0, R(2, 0), R(2, 1), R(2, 2), 0};
      dGeomSetRotation(g, Rd);
    }
  }
  I.foot_fb.resize(kMaxFootFeedback);
  I.foot_fb_owner.resize(kMaxFootFeedback);
  I.foot_fb_side.resize(kMaxFootFeedback);
  I.foot_points.assign(m.foot_contacts.size(), 0);

  // --- rigid groups: links joined by fixed or welded joints form one body ---
  const size_t nl = m.links.size();
  I.welded = weldedJoints(m, I.report);
  auto rigid = [&](size_t ji) { return !m.joints[ji].movable() || I.welded[ji]; };
  std::vector<int> group_of(nl, -1);
  std::vector<bool> is_static(nl, false);
  group_of[m.root_link] = m.root_link;
  is_static[m.root_link] = m.fixed_base;
  for (size_t sweep = 0; sweep <= nl; ++sweep)
    for (size_t ji = 0; ji < m.joints.size(); ++ji) {
      const Joint& j = m.joints[ji];
      if (group_of[j.parent] < 0 || group_of[j.child] >= 0) continue;
      group_of[j.child] = rigid(ji) ? group_of[j.parent] : j.child;
      is_static[j.child] = rigid(ji) && is_static[j.parent];
    }
  std::vector<const SoftLink*> soft_of(nl, nullptr);
  for (const SoftLink& s : m.soft_links)
    if (s.segments > 1) soft_of[s.link] = &s;
  // Armature: sigma^2 J_rotor about the axis of the joint that moves the group.
  std::vector<int> moving_joint(nl, -1);
  for (size_t ji = 0; ji < m.joints.size(); ++ji)
    if (!rigid(ji)) moving_joint[m.joints[ji].child] = static_cast<int>(ji);

  const Eigen::Isometry3d root = initialRootPose(m);
  // The build configuration: every joint at zero (ODE measures angles from the pose a joint is
  // created in), welded joints at the value they are welded at.
  I.welded_q.assign(m.joints.size(), 0.0);
  for (size_t ji = 0; ji < m.joints.size(); ++ji)
    if (I.welded[ji]) I.welded_q[ji] = m.initial_q[ji];
  const std::vector<Eigen::Isometry3d> pose0 = linkPoses(m, I.welded_q, root);
  const std::vector<Eigen::Isometry3d> pose_init = linkPoses(m, m.initial_q, root);

  I.link_body.assign(nl, -1);
  I.link_last_body.assign(nl, -1);
  I.link_in_body.assign(nl, Eigen::Isometry3d::Identity());
  I.static_link_pose.assign(nl, Eigen::Isometry3d::Identity());
  // Each body: its pose at the zero and at the initial configuration.
  std::vector<Eigen::Isometry3d> body_pose0, body_pose_init;
  struct SoftPlan {
    const SoftLink* spec;
    int first_body;
    Eigen::Vector3d axis_link;  // link frame vector from the link origin to its child joint
  };
  std::vector<SoftPlan> soft_plans;
  // The inertia floor, applied to each body's inertia about its COM (armature included) and listed
  // in inertia_floor_changes() so that `gapsim-cli info` can say which bodies it raised.
  auto floorInertia = [&](const std::string& name, MassProps& mp) {
    const Eigen::Matrix3d raised = withInertiaFloor(mp.inertia, m.solver.min_inertia_kgm2);
    if (raised == mp.inertia) return;
    const Eigen::Vector3d before = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(mp.inertia).eigenvalues();
    I.inertia_floor_changes.push_back({name, before, m.solver.min_inertia_kgm2});
    I.report.changes.push_back({"body " + name + ": principal moments", sixDigits(before[0]) + " " + sixDigits(before[1]) + " " +
                                    sixDigits(before[2]) + " kg m^2",
                                "at least " + sixDigits(m.solver.min_inertia_kgm2),
                                "solver min_inertia_kgm2: QuickStep converges on light links (docs/solver.md)"});
    mp.inertia = raised;
  };

  auto addBody = [&](dBodyID id, const std::string& name, double mass, const Eigen::Isometry3d& p0,
                     const Eigen::Isometry3d& pinit) {
    Impl::Body b;
    b.id = id;
    b.name = name;
    b.mass_kg = mass;
    const int bi = static_cast<int>(I.bodies.size());
    dBodySetData(id, reinterpret_cast<void*>(static_cast<intptr_t>(bi)));
    I.bodies.push_back(b);
    body_pose0.push_back(p0);
    body_pose_init.push_back(pinit);
    return bi;
  };

  for (size_t rep = 0; rep < nl; ++rep) {
    if (group_of[rep] != static_cast<int>(rep)) continue;
    std::vector<size_t> members;
    for (size_t l = 0; l < nl; ++l)
      if (group_of[l] == static_cast<int>(rep)) members.push_back(l);
    if (is_static[rep]) {
      for (size_t l : members) I.static_link_pose[l] = pose0[l];
      continue;
    }
    const Eigen::Isometry3d rep_inv = pose0[rep].inverse();
    const Link& RL = m.links[rep];
    const int mj = moving_joint[rep];
    const double armature = mj >= 0 ? m.joints[mj].drive.armature_kgm2() : 0.0;
    const Eigen::Vector3d axis_rep = mj >= 0 ? m.joints[mj].axis : Eigen::Vector3d::UnitZ();

    if (const SoftLink* s = soft_of[rep]) {
      // Soft link: N segments along the vector from the link origin to its child joint. Each gets
      // m/N; the segment COMs are the link COM shifted along that vector so that the total COM is
      // unchanged; inertias are split so that the total about the COM is unchanged where that
      // stays physical (else I/N each).
      Eigen::Vector3d v = Eigen::Vector3d::Zero();
      for (const Joint& j : m.joints)
        if (j.parent == static_cast<int>(rep) && j.movable()) v = j.origin.translation();
      const int N = s->segments;
      const double ms = RL.inertial.mass_kg / N;
      const int first = static_cast<int>(I.bodies.size());
      for (int k = 0; k < N; ++k) {
        const Eigen::Vector3d shift = ((k + 0.5) / N - 0.5) * v;
        Part p{ms, RL.inertial.origin, RL.inertial.inertia_kgm2 / N};
        p.frame.translation() += shift;
        const Eigen::Vector3d d = shift;  // COM offset of this segment from the link COM
        Eigen::Matrix3d Ik = RL.inertial.inertia_kgm2 / N;
        const Eigen::Matrix3d Rc = RL.inertial.origin.linear();
        const Eigen::Vector3d dc = Rc.transpose() * d;
        const Eigen::Matrix3d corr = ms * (dc.squaredNorm() * Eigen::Matrix3d::Identity() - dc * dc.transpose());
        if (positiveDefinite(Ik - corr)) Ik -= corr;
        p.inertia = Ik;
        MassProps mp = combine({p});
        if (k == 0 && armature > 0) mp.inertia += armature * axis_rep * axis_rep.transpose();
        // Segment body frame: link axes, origin at the segment COM.
        Eigen::Isometry3d seg0 = pose0[rep];
        seg0.translation() = pose0[rep] * mp.com;
        Eigen::Isometry3d segi = pose_init[rep];
        segi.translation() = pose_init[rep] * mp.com;
        mp.com.setZero();
        floorInertia(RL.name + "#" + std::to_string(k), mp);
        dBodyID id = createBody(I.world, mp);
        addBody(id, RL.name + "#" + std::to_string(k), ms, seg0, segi);
        // Geometry goes to the segment whose span holds its centre.
        for (const Geometry& gm : RL.collisions) {
          const double t = v.squaredNorm() > 0 ? gm.origin.translation().dot(v) / v.squaredNorm() : 0.0;
          const int owner = std::clamp(static_cast<int>(std::floor(t * N)), 0, N - 1);
          if (owner == k) addGeometry(I.robot_space, id, gm, seg0.inverse() * pose0[rep], I.convex);
        }
      }
      I.link_body[rep] = first;
      I.link_last_body[rep] = first + N - 1;
      I.link_in_body[rep] = body_pose0[first].inverse() * pose0[rep];
      soft_plans.push_back({s, first, v});
      continue;
    }

    std::vector<Part> parts;
    for (size_t l : members) {
      const Link& L = m.links[l];
      if (L.has_inertial) parts.push_back({L.inertial.mass_kg, rep_inv * pose0[l] * L.inertial.origin, L.inertial.inertia_kgm2});
    }
    MassProps mp = combine(parts);
    if (mp.mass <= 0) {
      // A massless link moved by a joint, with links of mass below it (the parser refuses the
      // other cases, and weldedJoints() welds massless frames).
      mp.mass = kMasslessBodyFraction * m.totalMass_kg();
      mp.com = Eigen::Vector3d::Zero();
      mp.inertia = Eigen::Matrix3d::Identity() * 0.4 * mp.mass * kMasslessBodyRadius_m * kMasslessBodyRadius_m;
      I.report.changes.push_back({"body " + RL.name + ": mass", "0 kg (no <inertial>)",
                                  sixDigits(mp.mass) + " kg, principal moments " + sixDigits(mp.inertia(0, 0)) + " kg m^2",
                                  "a link moved by a joint needs mass in ODE: " + sixDigits(kMasslessBodyFraction) +
                                      " of the robot's, a sphere of radius " + sixDigits(kMasslessBodyRadius_m) + " m"});
    }
    {
      // Zero principal moments (point masses, rods along their axis): ODE needs a positive-definite
      // tensor. A negative moment is no body at all (the parser refuses it; a parameter set can
      // still make one): ODE's own check refuses it below, it is not papered over here.
      const double floor = 0.4 * mp.mass * kMinGyrationRadius_m * kMinGyrationRadius_m;
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(mp.inertia);
      const Eigen::Vector3d ev = es.eigenvalues();
      if (ev.minCoeff() < floor * (1 - 1e-9) && ev.minCoeff() >= -1e-12 * ev.cwiseAbs().maxCoeff()) {
        const Eigen::Vector3d before = es.eigenvalues();
        mp.inertia = es.eigenvectors() * before.cwiseMax(floor).asDiagonal() * es.eigenvectors().transpose();
        I.report.changes.push_back({"body " + RL.name + ": principal moments",
                                    sixDigits(before[0]) + " " + sixDigits(before[1]) + " " + sixDigits(before[2]) + " kg m^2",
                                    "at least " + sixDigits(floor),
                                    "ODE needs every moment > 0: that of a solid sphere of radius " +
                                        sixDigits(kMinGyrationRadius_m) + " m of the body's mass"});
      }
    }
    // Reflected rotor inertia about the joint axis (rep frame = joint frame orientation at q = 0).
    // Added to the body, so it turns with the body in space rather than relative to the parent:
    // exact while the parent does not rotate about the same axis, the usual approximation of
    // engines without an armature term.
    if (armature > 0) mp.inertia += armature * axis_rep * axis_rep.transpose();
    Eigen::Isometry3d body0 = pose0[rep];
    body0.translation() = pose0[rep] * mp.com;
    Eigen::Isometry3d bodyi = pose_init[rep];
    bodyi.translation() = pose_init[rep] * mp.com;
    const double mass = mp.mass;
    mp.com.setZero();
    floorInertia(RL.name, mp);
    dBodyID id = createBody(I.world, mp);
    const int bi = addBody(id, RL.name, mass, body0, bodyi);
    for (size_t l : members) {
      I.link_body[l] = bi;
      I.link_last_body[l] = bi;
      I.link_in_body[l] = body0.inverse() * pose0[l];
      for (const Geometry& gm : m.links[l].collisions) addGeometry(I.robot_space, id, gm, I.link_in_body[l], I.convex);
    }
  }
  for (size_t bi = 0; bi < I.bodies.size(); ++bi) {
    CompileReport::Body rb;
    rb.name = I.bodies[bi].name;
    rb.mass_kg = I.bodies[bi].mass_kg;
    for (size_t l = 0; l < nl; ++l)
      if (I.link_body[l] == static_cast<int>(bi) || (I.link_last_body[l] == static_cast<int>(bi) && I.link_body[l] != I.link_last_body[l]))
        rb.links.push_back(m.links[l].name);
    dMass dm;
    dBodyGetMass(I.bodies[bi].id, &dm);
    Eigen::Matrix3d J;
    J << dm.I[0], dm.I[1], dm.I[2], dm.I[4], dm.I[5], dm.I[6], dm.I[8], dm.I[9], dm.I[10];
    rb.principal_kgm2 = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(J).eigenvalues();
    I.report.bodies.push_back(rb);
  }
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    const int child = m.joints[ji].child;
    if (!m.joints[ji].movable() || I.link_body[child] < 0) continue;
    I.report.bodies[static_cast<std::size_t>(I.link_body[child])].armature_kgm2 = m.joints[ji].drive.armature_kgm2();
  }
  for (size_t f = 0; f < m.foot_contacts.size(); ++f) {
    const int bi = I.link_last_body[m.foot_contacts[f].link];
    if (bi >= 0) I.bodies[bi].foot = static_cast<int>(f);
  }
  for (size_t bi = 0; bi < I.bodies.size(); ++bi) setPose(I.bodies[bi].id, body_pose0[bi]);

  // --- soft joints between segments: universal joints held at zero by ODE's implicit spring ---
  // A limit with LoStop = HiStop = 0 is a bilateral constraint whose error reduction and
  // mixing give a spring k and damper c: ERP = h k / (h k + c), CFM = 1 / (h k + c) (ODE manual,
  // "How to use ERP and CFM"), stable for any k.
  for (const SoftPlan& sp : soft_plans) {
    const SoftLink& s = *sp.spec;
    const Eigen::Isometry3d& lf = pose0[s.link];
    const Eigen::Vector3d along = (lf.linear() * sp.axis_link).normalized();
    // Bending axes: the link's x axis made perpendicular to the link, then the third direction.
    // (Order matters to ODE: axis 1 must not be parallel to the universal joint's default axis 2, y.)
    Eigen::Vector3d u1 = lf.linear().col(0) - lf.linear().col(0).dot(along) * along;
    if (u1.norm() < 1e-6) u1 = lf.linear().col(1) - lf.linear().col(1).dot(along) * along;
    u1.normalize();
    const Eigen::Vector3d u2 = along.cross(u1);
    const double hk = dt_s_ * s.D_B_Nm_rad, c = s.damping_Nms_rad;
    for (int k = 1; k < s.segments; ++k) {
      const Eigen::Vector3d at = lf * (sp.axis_link * (static_cast<double>(k) / s.segments));
      dJointID u = dJointCreateUniversal(I.world, nullptr);
      dJointAttach(u, I.bodies[sp.first_body + k].id, I.bodies[sp.first_body + k - 1].id);
      dJointSetUniversalAnchor(u, at.x(), at.y(), at.z());
      dJointSetUniversalAxis1(u, u1.x(), u1.y(), u1.z());
      dJointSetUniversalAxis2(u, u2.x(), u2.y(), u2.z());
      for (int p : {dParamLoStop, dParamHiStop, dParamLoStop2, dParamHiStop2}) dJointSetUniversalParam(u, p, 0.0);
      for (int p : {dParamStopERP, dParamStopERP2}) dJointSetUniversalParam(u, p, hk / (hk + c));
      for (int p : {dParamStopCFM, dParamStopCFM2}) dJointSetUniversalParam(u, p, 1.0 / (hk + c));
      SoftJoint sj;
      sj.id = u;
      sj.name = m.links[s.link].name + "/soft" + std::to_string(k);
      if (s.friction_Nm > 0) {
        // Coulomb friction between the segments: a two-axis angular motor, target speed 0.
        sj.friction = dJointCreateAMotor(I.world, nullptr);
        dJointAttach(sj.friction, I.bodies[sp.first_body + k].id, I.bodies[sp.first_body + k - 1].id);
        dJointSetAMotorMode(sj.friction, dAMotorUser);
        dJointSetAMotorNumAxes(sj.friction, 2);
        dJointSetAMotorAxis(sj.friction, 0, 1, u1.x(), u1.y(), u1.z());
        dJointSetAMotorAxis(sj.friction, 1, 2, u2.x(), u2.y(), u2.z());
        for (int p : {dParamVel, dParamVel2}) dJointSetAMotorParam(sj.friction, p, 0.0);
        for (int p : {dParamFMax, dParamFMax2}) dJointSetAMotorParam(sj.friction, p, s.friction_Nm);
      }
      I.soft.push_back(sj);
    }
  }

  // --- robot joints and their actuators, created at the zero configuration ---
  I.act.resize(m.joints.size());
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    const Joint& j = m.joints[ji];
    if (rigid(ji)) continue;
    JointActuator& A = I.act[ji];
    const int cb = I.link_body[j.child], pb = I.link_last_body[j.parent];
    dBodyID child = I.bodies[cb].id;
    dBodyID parent = pb >= 0 ? I.bodies[pb].id : nullptr;
    const Eigen::Isometry3d jf = pose0[j.parent] * j.origin;
    const Eigen::Vector3d axis = jf.linear() * j.axis;
    // Attached (child, parent): ODE's angle is body1 relative to body2 about the axis, which is
    // URDF's convention for the child relative to the parent.
    const bool hinge = j.type != JointType::Prismatic;
    if (!hinge) {
      A.id = dJointCreateSlider(I.world, nullptr);
      dJointAttach(A.id, child, parent);
      dJointSetSliderAxis(A.id, axis.x(), axis.y(), axis.z());
    } else {
      A.id = dJointCreateHinge(I.world, nullptr);
      dJointAttach(A.id, child, parent);
      dJointSetHingeAnchor(A.id, jf.translation().x(), jf.translation().y(), jf.translation().z());
      dJointSetHingeAxis(A.id, axis.x(), axis.y(), axis.z());
    }
    auto setParam = [&](int p, double v) {
      if (hinge) dJointSetHingeParam(A.id, p, v);
      else dJointSetSliderParam(A.id, p, v);
    };
    // ODE hinge stops must lie within (-pi, pi); wider limits are left to the servo.
    if (j.has_limits && (!hinge || (j.lower > -M_PI && j.upper < M_PI))) {
      setParam(dParamLoStop, j.lower);
      setParam(dParamHiStop, j.upper);
    }
    setParam(dParamFMax, 0.0);
    dJointSetFeedback(A.id, &A.fb);

    if (j.mimic.master >= 0) continue;  // coupled to its master in actuate()
    const Drivetrain& d = j.drive;
    CompiledChain compiled;
    if (d.kind == DriveKind::MoToFlex && hinge) {
      motorgear::JointDrivetrain::Params& p = compiled.params;
      p = d.motoflex;
      if (p.gear.frame_s != dt_s_)
        I.report.changes.push_back({j.name + ": gear/frame", sixDigits(p.gear.frame_s) + " s", sixDigits(dt_s_) + " s",
                                    "the chain is stepped once per physics step"});
      p.gear.frame_s = dt_s_;
      if (p.gear.variant == motorgear::Gear::Variant::kMotoflex2011) {
        // The speed friction sigma B_v qd and the back-EMF damping sigma^2 S K_t K_e / R leave the
        // explicit chain for the implicit damper row. Explicit, they need b dt / J < 2, which the
        // light pelvis and soft-leg segments violate (14 of 100 sweep sets diverged with explicit damping);
        // implicit, a motor on a light link reaches its no-load speed U / (K_e sigma) in one step
        // instead of overshooting. Exact up to the RL lag L/R = 48 us << dt (I is linear in qd).
        if (p.enable_motor) {
          compiled.damping_Nm_s_rad = motorgear::DcMotor(p.motor).jointDamping_Nm_s_rad(p.gear.sigma);
          I.report.changes.push_back({j.name + ": motor/B_v and back-EMF", "B_v " + sixDigits(p.motor.B_v_Nm_s_rad) + " N m s/rad, K_e " +
                                          sixDigits(p.motor.K_e_V_s_rad) + " V s/rad in the chain",
                                      "implicit damper row b = " + sixDigits(compiled.damping_Nm_s_rad) + " N m s/rad",
                                      "explicit, b dt / J < 2 fails on light links (docs/drivetrain.md, Back-EMF)"});
          p.motor.B_v_Nm_s_rad = 0.0;
          p.back_emf_external = true;
        }
      } else if (p.gear.J_joint_kgm2 <= 0) {
        // The coupled gear needs the joint's inertia for its in-frame joint reaction; the exact
        // integrator cannot take that reaction (3rd-order contact), so it falls back to substeps.
        p.gear.J_joint_kgm2 = subtreeInertiaAboutAxis(m, static_cast<int>(ji), pose_init) + p.gear.reflectedInertia_kgm2();
        I.report.changes.push_back({j.name + ": gear/J_joint and gear/integrator", "0 (none), as in the file",
                                    sixDigits(p.gear.J_joint_kgm2) + " kg m^2, substeps",
                                    "the coupled gear needs the joint inertia; the exact integrator cannot take its reaction"});
        p.gear.integrator = motorgear::Gear::Integrator::kSubsteps;
      }
    }
    A.drive = makeDrive(j, hinge, dt_s_, m.initial_q[ji], compiled, options.reality);
    const motorgear::Drive* core = A.drive.get();
    while (core->wrapped()) core = core->wrapped();  // reality effects wrap the model's drive
    if (const auto* chain = dynamic_cast<const motorgear::MotoflexDrive*>(core)) A.chain = &chain->chain();
    if (!hinge) continue;  // damper rows are angular motors
    A.damping_Nms_rad = A.drive->damping_Nm_s_rad();
    if (A.damping_Nms_rad > 0) {
      A.damper = dJointCreateAMotor(I.world, nullptr);
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

  // --- move everything to the initial pose ---
  for (size_t bi = 0; bi < I.bodies.size(); ++bi) setPose(I.bodies[bi].id, body_pose_init[bi]);
  if (m.planar_base) {
    // Rows as strong as 100 times the robot's weight (at 1 m for the torque): hard in practice.
    Impl::PlanarBase& P = I.planar;
    const int rb = I.link_body[m.root_link];
    P.body = I.bodies[rb].id;
    P.normal = m.planar_normal.normalized();
    P.u = P.normal.unitOrthogonal();
    P.v = P.normal.cross(P.u);
    P.offset_m = P.normal.dot(body_pose_init[rb].translation());
    P.normal_in_body = body_pose_init[rb].linear().transpose() * P.normal;
    const double fmax = 100.0 * m.totalMass_kg() * std::max(1.0, m.solver.gravity_m_s2.norm());
    P.linear = dJointCreateLMotor(I.world, nullptr);
    dJointAttach(P.linear, P.body, nullptr);
    dJointSetLMotorNumAxes(P.linear, 1);
    dJointSetLMotorAxis(P.linear, 0, 0, P.normal.x(), P.normal.y(), P.normal.z());
    dJointSetLMotorParam(P.linear, dParamFMax, fmax);
    P.angular = dJointCreateAMotor(I.world, nullptr);
    dJointAttach(P.angular, P.body, nullptr);
    dJointSetAMotorMode(P.angular, dAMotorUser);
    dJointSetAMotorNumAxes(P.angular, 2);
    dJointSetAMotorAxis(P.angular, 0, 0, P.u.x(), P.u.y(), P.u.z());
    dJointSetAMotorAxis(P.angular, 1, 0, P.v.x(), P.v.y(), P.v.z());
    dJointSetAMotorParam(P.angular, dParamFMax, fmax);
    dJointSetAMotorParam(P.angular, dParamFMax2, fmax);
    I.report.changes.push_back({"root " + m.links[m.root_link].name, "planar joint from world",
                                "held in the plane with normal (" + sixDigits(P.normal.x()) + ", " + sixDigits(P.normal.y()) +
                                    ", " + sixDigits(P.normal.z()) + ") by motor rows of up to " + sixDigits(fmax) + " N (N m)",
                                "ODE has no planar joint"});
  }
  target_ = m.initial_q;
  I.coupled_drives = makeCoupledDrives(m);
  for (const CoupledDriveSlot& c : I.coupled_drives)
    for (int j : c.joints)
      if (!I.act[static_cast<size_t>(j)].id)
        throw InputError(m.source_file, c.line, c.element,
                         "drives joint '" + m.joints[static_cast<size_t>(j)].name +
                             "', which is not movable here (fixed, or welded by the compile step because what it "
                             "moves is too light: gapsim-cli info --compiled); give it a movable joint with mass");
  initCompliantGround();
  release_on_throw.constructed = true;
}

}  // namespace gapsim
