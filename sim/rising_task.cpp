// SPDX-License-Identifier: BSD-3-Clause
#include "sim/rising_task.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "sim/input_error.h"
#include "sim/kinematics.h"
#include "sim/mtn_reader.h"
#include "sim/recorder.h"
#include "sim/robot_library.h"
#include "sim/run_loop.h"
#include "sim/simulation.h"

namespace gapsim {
namespace {

/// One task as the authors' simulator built it (bioGP robot/WorldConstructor.cpp): goal ticks of
/// Dynamixel 1..18, the DART free joint of the torso in the Y-up world (exp-map rotation, then
/// translation), and the static boxes (already in Z-up: centre, full sizes).
struct TaskSource {
  const char* name;
  int ticks[18];
  double root_yup[6];
  std::vector<SceneBox> boxes;
  double settle_s;
  const char* description;
  /// Where gapsim departs from the authors' numbers (docs/bioloid.md "Rising tasks"):
  double hip_extension_rad = 0.0;  ///< kneel: both thighs this much more extended, torso turned back as much
  bool wall_to_back = false;       ///< lean: the wall's face touches the robot's back-most point
  bool seat_to_thighs = false;     ///< sit: the seat's top touches the robot's lowest point above it
};

const std::vector<TaskSource>& sources() {
  static const std::vector<TaskSource> s = {
      // constructWallWorld; data/sdf/wall.urdf: a 0.5 x 0.5 x 0.05 m box, centre (0, 0.3, -0.112)
      // Y-up, front face at x = -0.087 m Z-up, behind the robot. Root: frame 0 of the real trial
      // withPowerCable/0.13-01 (real-data/bioloid/motions/lean-to-stand/initial_pose.csv).
      {"lean",
       {512, 512, 512, 512, 312, 712, 512, 512, 512, 512, 632, 392, 512, 512, 512, 512, 512, 512},
       {-1.535210908621381, -0.03100735580890254, -0.008932248690586354, -0.0001811591801725731, 0.2953401869229447,
        -0.02281130177915284},
       {{"wall", {0.05, 0.5, 0.5}, Eigen::Isometry3d(Eigen::Translation3d(-0.112, 0.0, 0.3))}},
       0.5,
       "leaning back against a wall (the real lean-to-stand start pose)",
       0.0,
       true,
       false},
      // constructChairWorld; data/sdf/chair.urdf: a 0.15 x 0.01 x 0.15 m plate, centre
      // (0, 0.100, -0.045) Y-up = a seat 0.15 x 0.15 m, top 0.105 m above the floor, centre 4.5 cm
      // behind the robot's start position.
      {"sit",
       {512, 512, 512, 512, 512, 512, 512, 512, 512, 512, 762, 262, 812, 212, 512, 512, 512, 512},
       {-1.85, 0, 0, 0, 0.235, -0.02},
       {{"seat", {0.15, 0.15, 0.01}, Eigen::Isometry3d(Eigen::Translation3d(-0.045, 0.0, 0.100))}},
       0.5,
       "sitting on a seat",
       0.0,
       false,
       true},
      // constructKneelWorld (its collision exclusions torso/hip/thigh-heel are moot: gapsim has no
      // self collision on the BIOLOID).
      {"kneel",
       {412, 612, 562, 462, 512, 512, 512, 512, 512, 512, 612, 412, 1023, 1, 842, 182, 512, 512},
       {-1.328514851378874, -0.01304727359099908, 0.01469150902990003, 0.0009582401251999403, 0.2044851807667352,
        -0.002224987479213158},
       {},
       0.5,
       "kneeling on both knees, toes on the floor",
       0.40,
       false,
       false},
  };
  return s;
}

/// Y-up -> Z-up: (x, y, z)_zup = (z, x, y)_yup.
Eigen::Matrix3d yupToZup() {
  Eigen::Matrix3d P;
  P << 0, 0, 1, 1, 0, 0, 0, 1, 0;
  return P;
}

/// World corners of every collision box of the robot at its initial pose (ground clearance applied).
std::vector<Eigen::Vector3d> collisionCorners(const RobotModel& m) {
  const auto poses = linkPoses(m, m.initial_q, initialRootPose(m));
  std::vector<Eigen::Vector3d> c;
  for (std::size_t l = 0; l < m.links.size(); ++l)
    for (const Geometry& g : m.links[l].collisions) {
      if (g.type != Geometry::Type::Box) continue;  // the BIOLOID's collision shapes are all boxes
      for (int k = 0; k < 8; ++k) {
        const Eigen::Vector3d p((k & 1 ? 0.5 : -0.5) * g.size_m.x(), (k & 2 ? 0.5 : -0.5) * g.size_m.y(),
                                (k & 4 ? 0.5 : -0.5) * g.size_m.z());
        c.push_back(poses[l] * (g.origin * p));
      }
    }
  return c;
}

/// Moves the first scene box so that it touches the robot at its initial pose (docs/bioloid.md):
/// the wall's face to the back-most corner, or the seat's top to the lowest corner above its
/// footprint, each with the model's ground clearance as the gap.
void fitScene(RobotModel& m, bool wall_to_back, bool seat_to_thighs) {
  if (!wall_to_back && !seat_to_thighs) return;
  const std::vector<Eigen::Vector3d> corners = collisionCorners(m);
  SceneBox& b = m.scene_boxes.front();
  const double gap = m.ground_clearance_m;
  if (wall_to_back) {
    double x_min = INFINITY;
    for (const auto& c : corners) x_min = std::min(x_min, c.x());
    b.pose.translation().x() = x_min - gap - 0.5 * b.size_m.x();
  }
  if (seat_to_thighs) {
    const Eigen::Vector3d centre = b.pose.translation();
    double z_min = INFINITY;
    for (const auto& c : corners)
      if (std::abs(c.x() - centre.x()) <= 0.5 * b.size_m.x() && std::abs(c.y() - centre.y()) <= 0.5 * b.size_m.y() &&
          c.z() > 0.5 * (centre.z() - 0.5 * b.size_m.z()))  // above the seat's lower half: not the feet
        z_min = std::min(z_min, c.z());
    b.pose.translation().z() = z_min - gap - 0.5 * b.size_m.z();
  }
}
}  // namespace

const std::vector<std::string>& risingTaskNames() {
  static const std::vector<std::string> n = [] {
    std::vector<std::string> v;
    for (const auto& s : sources()) v.push_back(s.name);
    return v;
  }();
  return n;
}

RisingTask makeRisingTask(const std::string& name, const RobotModel& bioloid) {
  const TaskSource* src = nullptr;
  for (const auto& s : sources())
    if (name == s.name) src = &s;
  if (!src) {
    std::string known;
    for (const auto& n : risingTaskNames()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("", 0, "--task", "unknown task '" + name + "' (known: " + known + ")");
  }
  RisingTask t;
  t.name = src->name;
  t.description = src->description;
  t.settle_s = src->settle_s;
  t.legs = LegMirror::bioloid(bioloid);
  t.stand_q = bioloid.initial_q;

  // The motor map next to the robot file, else the shipped BIOLOID's (a copied robot file).
  std::string map_path = (std::filesystem::path(bioloid.source_file).parent_path() / "motor_map.csv").string();
  if (!std::filesystem::exists(map_path)) map_path = robotsDirectory() + "/bioloid/motor_map.csv";
  const MotorMap map = MotorMap::read(map_path);
  auto model = std::make_shared<RobotModel>(bioloid);
  for (int id = 1; id <= 18; ++id) {
    const auto e = std::find_if(map.entries.begin(), map.entries.end(),
                                [id](const MotorMapEntry& m) { return m.dynamixel_id == id; });
    if (e == map.entries.end())
      throw InputError(map_path, 0, "dynamixel_id", "no joint for Dynamixel " + std::to_string(id));
    const int j = model->jointIndex(e->joint);
    if (j < 0) throw InputError(map_path, 0, "urdf_joint", "the robot has no joint '" + e->joint + "'");
    model->initial_q[j] = MotorMap::tickToRad(*e, src->ticks[id - 1]);
  }
  const Eigen::Vector3d rotvec(src->root_yup[0], src->root_yup[1], src->root_yup[2]);
  const Eigen::Vector3d trans(src->root_yup[3], src->root_yup[4], src->root_yup[5]);
  const double angle = rotvec.norm();
  const Eigen::Matrix3d R_yup =
      angle > 0 ? Eigen::AngleAxisd(angle, rotvec / angle).toRotationMatrix() : Eigen::Matrix3d::Identity();
  Eigen::Isometry3d root = Eigen::Isometry3d::Identity();
  root.linear() = yupToZup() * R_yup;
  root.translation() = yupToZup() * trans;
  if (src->hip_extension_rad != 0.0) {
    // Extend both hips and turn the torso back by the same angle about its left (x) axis, so the
    // legs keep their place on the floor and only the torso straightens.
    for (const char* thigh : {"r_thigh", "l_thigh"})
      model->initial_q[model->jointIndex(thigh)] -= src->hip_extension_rad;
    root.linear() =
        root.linear() * Eigen::AngleAxisd(-src->hip_extension_rad, Eigen::Vector3d::UnitX()).toRotationMatrix();
  }
  model->initial_root_pose = root;
  // Placed by the recorded/authored root pose, then moved vertically so that the lowest geometry
  // is just above the floor (the authors' poses are measured or hand-set; ours must not start
  // inside the floor or above it).
  model->has_ground_clearance = true;
  model->scene_boxes = src->boxes;
  fitScene(*model, src->wall_to_back, src->seat_to_thighs);
  t.start_q = model->initial_q;
  t.model = std::move(model);
  return t;
}

namespace {

/// The rising controller in the run loop: the start pose held while the robot settles, then the
/// keyframes from the end of settling; and the score V_ctrl = integral over T + 1 s of
/// 1 / (tilt + epsilon) (left Riemann sum at the step, the last step cut to what is left of T + 1).
class RiseRun : public Controller, public Observer {
 public:
  RiseRun(const RisingTask& task, const KeyframeController& ctrl, double dt_s, double horizon_s)
      : task_(task),
        ctrl_(ctrl),
        dt_s_(dt_s),
        horizon_s_(horizon_s),
        settle_steps_(std::lround(task.settle_s / dt_s)),
        steps_(static_cast<long>(std::ceil(horizon_s / dt_s - 1e-9))) {}

  long totalSteps() const { return settle_steps_ + steps_; }

  void update(Simulation& sim) override {
    const long k = sim.stepCount() - settle_steps_;
    if (k < 0) {
      sim.setTargets(task_.start_q);
      return;
    }
    ctrl_.targets(task_.legs, task_.start_q, static_cast<double>(k) * dt_s_, q_);
    sim.setTargets(q_);
  }

  void afterStep(const Simulation& sim) override {
    const long k = sim.stepCount() - settle_steps_ - 1;
    if (k < 0) return;
    const double alpha = sim.imu().tilt_rad;
    const double w = k + 1 < steps_ ? dt_s_ : horizon_s_ - static_cast<double>(k) * dt_s_;
    V_ctrl += w / (alpha + task_.epsilon);
    max_tilt_rad = std::max(max_tilt_rad, alpha);
  }

  double V_ctrl = 0, max_tilt_rad = 0;

 private:
  const RisingTask& task_;
  const KeyframeController& ctrl_;
  double dt_s_, horizon_s_;
  long settle_steps_, steps_;
  std::vector<double> q_;
};

}  // namespace

RiseResult evaluateRise(const RisingTask& task, const KeyframeController& ctrl, const RiseOptions& opt) {
  ctrl.checkAgainst(task.legs);
  RiseResult r;
  r.T_s = ctrl.duration_s();
  SimOptions so;
  so.seed = opt.seed;
  Simulation sim(task.model, so);
  const double dt = sim.dt_s();
  const int imu_link = task.model->imus.empty() ? task.model->root_link : task.model->imus.front().link;
  if (opt.log) *opt.log = Log(Recorder(*task.model).columns());

  RiseRun rise(task, ctrl, dt, r.T_s + 1.0);
  Observer* const observers[] = {&rise};
  RunConfig cfg;
  cfg.duration_s = static_cast<double>(rise.totalSteps()) * dt;  // run() rounds it back to the step count
  cfg.log_period_s = opt.log_period_s;
  const RunSummary s = run(sim, rise, observers, cfg, opt.log);
  r.V_ctrl = rise.V_ctrl;
  r.max_tilt_rad = rise.max_tilt_rad;
  if (s.diverged) {
    r.diverged = true;
    r.error = s.divergence;
    r.V_ctrl = 0.0;
    r.upright = false;
    return r;
  }
  r.tilt_end_rad = sim.imu().tilt_rad;
  r.height_end_m = sim.linkPose(imu_link).translation().z();
  r.upright = r.tilt_end_rad < task.upright_tilt_rad && r.height_end_m > task.upright_height_m;
  return r;
}

}  // namespace gapsim
