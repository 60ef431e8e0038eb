// SPDX-License-Identifier: BSD-3-Clause
// gapsim-mujoco-walk: the MuJoCo reference for gapsim's walk benchmark. It reads a gapsim robot
// file with gapsim's own loader, writes the same robot as MJCF, and plays a gapsim motion on it
// through MuJoCo position actuators, so that scripts/bench_vs_mujoco.sh can print the speed ratio
// gapsim / MuJoCo on the job users do (the Nao's walk), not on a standing robot.
//
// What is the same as gapsim: link masses, COMs and full inertia tensors (as the file gives them),
// joint frames, axes and ranges, the collision primitives, a free root at initialRootPose(), the
// initial joint angles, a ground plane, friction 1.0, dt = 1 ms, the mimic joint as an equality
// constraint, links joined by fixed joints merged into one body, and the ankle-balance feedback
// the motion's `# controller:` line names (sim/ankle_balance.h's own law, fed by sensors read from
// MuJoCo's state; --open-loop plays without it), the fall test (torso tilt > fall_tilt_rad) and the walked
// distance (IMU link, horizontal) of sim/runner.cpp.
// What differs, on purpose: links are rigid and every joint is a MuJoCo position actuator (as
// gapsim's --plain: ideal servos, no soft links, no MoToFlex drivetrain); gapsim's inertia floor
// (solver min_inertia_kgm2) is not applied, MuJoCo's generalised-coordinate solver does not need
// it; MuJoCo's own contact model and solver (soft contacts, Newton, pyramidal cone) at its
// defaults. Figures only, nothing is asserted.
//
// usage: gapsim-mujoco-walk [--robot nao] [--motion FILE] [--mjcf-out FILE] [--kp N_m_per_rad]
//                           [--open-loop]
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sim/ankle_balance.h"
#include "sim/kinematics.h"
#include "sim/motion_readers.h"
#include "sim/robot_export.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace {

using gapsim::Joint;
using gapsim::Mjcf;
using gapsim::RobotModel;

/// Compiles MJCF text: mj_loadXML reads files only, so the text goes through a temporary file.
mjModel* compile(const std::string& xml) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/gapsim_mujoco_XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary file at " + path);
  close(fd);
  std::ofstream(path) << xml;
  char err[1000] = "";
  mjModel* mm = mj_loadXML(path.c_str(), nullptr, err, sizeof err);
  std::remove(path.c_str());
  if (!mm) throw std::runtime_error(std::string("MuJoCo cannot load the generated MJCF: ") + err);
  return mm;
}

double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int id(const mjModel* mm, mjtObj type, const std::string& name) {
  const int i = mj_name2id(mm, type, name.c_str());
  if (i < 0) throw std::runtime_error("the compiled MJCF has no '" + name + "'");
  return i;
}

/// What sim/ankle_balance.h reads, from MuJoCo's state: the IMU link's angular velocity and
/// attitude in the sensor frame, and the vertical contact force on each foot.
gapsim::BalanceSensors balanceSensors(const mjModel* mm, mjData* d, int imu_body, const Eigen::Matrix3d& R_link_sensor,
                                      const int foot_body[2]) {
  gapsim::BalanceSensors s;
  mjtNum v[6];  // rotational then translational, in the body frame (= the IMU link frame)
  mj_objectVelocity(mm, d, mjOBJ_BODY, imu_body, v, 1);
  s.gyro_rad_s = R_link_sensor.transpose() * Eigen::Vector3d(v[0], v[1], v[2]);
  Eigen::Matrix3d R_world_link;  // xmat is row-major
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) R_world_link(r, c) = d->xmat[9 * imu_body + 3 * r + c];
  const Eigen::Matrix3d R = R_world_link * R_link_sensor;  // ZYX Euler angles as Simulation::imu
  s.pitch_rad = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  s.roll_rad = std::atan2(R(2, 1), R(2, 2));
  for (int c = 0; c < d->ncon; ++c) {
    const mjContact& con = d->contact[c];
    mjtNum f[6];
    mj_contactForce(mm, d, c, f);  // f[0]: normal force, contact frame row 0 is the normal
    for (int i = 0; i < 2; ++i)
      if (mm->geom_bodyid[con.geom1] == foot_body[i] || mm->geom_bodyid[con.geom2] == foot_body[i])
        s.foot_force_N[static_cast<std::size_t>(i)] += std::abs(f[0] * con.frame[2]);  // vertical part
  }
  return s;
}

/// Long on purpose: the benchmark's script from top to bottom (load, build, warm up, time, print),
/// kept in one place so the timed section is visible whole.
int run(int argc, char** argv) {
  std::string robot = "nao", motion_file, mjcf_out;
  // The MJCF of sim/robot_export.h at its defaults (why those numbers: there), without the joints'
  // dry friction: the benchmark compares position servos, as gapsim's --plain.
  gapsim::MjcfOptions act;
  act.joint_friction = false;
  bool open_loop = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--robot")
      robot = next();
    else if (a == "--motion")
      motion_file = next();
    else if (a == "--mjcf-out")
      mjcf_out = next();
    else if (a == "--kp")
      act.kp_Nm_rad = std::stod(next());
    else if (a == "--open-loop")
      open_loop = true;
    else if (a == "-h" || a == "--help") {
      std::cout << "usage: gapsim-mujoco-walk [--robot NAME|FILE] [--motion FILE] [--mjcf-out FILE]\n"
                   "                          [--kp N_m_per_rad (200)] [--open-loop]\n"
                   "Plays a gapsim motion on the same robot in MuJoCo; default motion: the robot's\n"
                   "motions/walk_200mm_s_1s.csv.\n";
      return 0;
    } else
      throw std::runtime_error("unknown option '" + a + "' (--help)");
  }
  if (!(act.kp_Nm_rad > 0 && std::isfinite(act.kp_Nm_rad)))
    throw std::runtime_error("--kp " + std::to_string(act.kp_Nm_rad) + ": must be finite and > 0");
  const std::string robot_file = gapsim::resolveRobotFile(robot);
  const RobotModel m = gapsim::loadRobotFile(robot_file);
  if (motion_file.empty())
    motion_file = robot_file.substr(0, robot_file.find_last_of('/') + 1) + "motions/walk_200mm_s_1s.csv";
  const gapsim::Motion motion = gapsim::loadMotion(motion_file);

  if (m.fixed_base) throw std::runtime_error(m.source_file + ": a fixed-base robot is not a walk benchmark");
  act.model_name = m.name + " (gapsim-mujoco-walk)";
  const Mjcf mjcf = gapsim::writeMjcf(m, act);
  if (!mjcf_out.empty()) {
    std::ofstream f(mjcf_out);
    f << mjcf.xml;
    if (!f) throw std::runtime_error("cannot write " + mjcf_out);
  }
  mjModel* mm = compile(mjcf.xml);
  mjData* d = mj_makeData(mm);

  // Model joint -> qpos address and actuator (-1: fixed, or a mimic joint without actuator).
  std::vector<int> qadr(m.joints.size(), -1), act_of(m.joints.size(), -1);
  for (size_t j = 0; j < m.joints.size(); ++j) {
    if (!m.joints[j].movable()) continue;
    qadr[j] = mm->jnt_qposadr[id(mm, mjOBJ_JOINT, m.joints[j].name)];
    if (m.joints[j].mimic.master < 0) act_of[j] = id(mm, mjOBJ_ACTUATOR, m.joints[j].name);
  }
  const Eigen::Isometry3d root = gapsim::initialRootPose(m);
  const Eigen::Quaterniond q0(root.linear());
  const double qroot[7] = {
      root.translation().x(), root.translation().y(), root.translation().z(), q0.w(), q0.x(), q0.y(), q0.z()};
  std::copy(qroot, qroot + 7, d->qpos);
  for (size_t j = 0; j < m.joints.size(); ++j)
    if (qadr[j] >= 0) d->qpos[qadr[j]] = m.initial_q[j];
  mj_forward(mm, d);

  std::vector<std::string> names;
  for (const Joint& j : m.joints) names.push_back(j.name);
  const std::vector<int> map = motion.mapJoints(names);
  // The motion's controller is sim/ankle_balance.h's law itself, fed by balanceSensors().
  std::optional<gapsim::AnkleBalance> balance;
  if (!open_loop)
    if (auto p = gapsim::motionController(motion)) balance.emplace(m, *p);
  int foot_body[2] = {-1, -1};
  for (std::size_t i = 0; i < 2 && i < m.foot_contacts.size(); ++i)
    foot_body[i] = id(mm, mjOBJ_BODY, mjcf.body_of_link[m.foot_contacts[i].link]);
  const Eigen::Matrix3d R_link_sensor = m.imus.empty() ? Eigen::Matrix3d::Identity() : m.imus.front().R_link_sensor;

  // The loop of sim/runner.cpp: sample the motion at the step's start time, add the balance's
  // corrections, step; track tilt, fall and distance.
  const int imu_body = id(mm, mjOBJ_BODY, mjcf.body_of_link[m.imus.empty() ? m.root_link : m.imus.front().link]);
  const int torso_body = id(mm, mjOBJ_BODY, mjcf.body_of_link[m.root_link]);
  auto tilt_rad = [&] {  // angle between the root body's z axis and world z; xmat is row-major
    return std::acos(std::clamp(d->xmat[9 * torso_body + 8], -1.0, 1.0));
  };
  const Eigen::Vector3d start(d->xpos[3 * imu_body], d->xpos[3 * imu_body + 1], d->xpos[3 * imu_body + 2]);
  auto yaw_rad = [&] { return std::atan2(d->xmat[9 * imu_body + 3], d->xmat[9 * imu_body]); };
  const double start_yaw = yaw_rad();
  std::vector<double> target = m.initial_q, values;
  gapsim::MotionCursor cursor;
  const double duration_s = motion.endTime_s() + 1.0;
  const long n_steps = std::lround(duration_s / mm->opt.timestep);
  double max_tilt = 0.0;
  std::optional<double> fall_time;
  bool diverged = false;
  const double cpu0 = cpuSeconds();
  long k = 0;
  for (; k < n_steps; ++k) {
    motion.sampleAll(d->time, values, cursor);
    for (size_t c = 0; c < map.size(); ++c) target[map[c]] = values[c];
    const std::vector<double>* command = &target;
    if (balance) {
      const double dt_s = mm->opt.timestep;
      const gapsim::BalanceSensors s = balance->needsSensors(k, dt_s)
                                           ? balanceSensors(mm, d, imu_body, R_link_sensor, foot_body)
                                           : gapsim::BalanceSensors{};
      command = &balance->adjust(k, dt_s, s, target);
    }
    for (size_t j = 0; j < m.joints.size(); ++j)
      if (act_of[j] >= 0) d->ctrl[act_of[j]] = (*command)[j];
    mj_step(mm, d);
    if (!std::isfinite(d->qpos[2]) || d->warning[mjWARN_BADQACC].number > 0) {
      diverged = true;
      ++k;
      break;
    }
    max_tilt = std::max(max_tilt, tilt_rad());
    if (!fall_time && tilt_rad() > m.fall_tilt_rad) fall_time = d->time;
  }
  const double cpu_s = cpuSeconds() - cpu0;
  const double distance = std::hypot(d->xpos[3 * imu_body] - start.x(), d->xpos[3 * imu_body + 1] - start.y());
  const double heading_deg = std::remainder(yaw_rad() - start_yaw, 2 * M_PI) * 180.0 / M_PI;
  char fell[32] = "no";
  if (fall_time) std::snprintf(fell, sizeof fell, "%.3f", *fall_time);
  std::printf("robot=%s motion=%s controller=%s kp_Nm_rad=%g bodies=%d dofs=%d actuators=%d\n", m.name.c_str(),
              motion_file.c_str(), balance ? motion.controller().c_str() : "none", act.kp_Nm_rad, mm->nbody - 1, mm->nv,
              mm->nu);
  std::printf(
      "sim_time_s=%.3f steps=%ld cpu_s=%.3f rtf=%.2f fell=%s max_tilt_deg=%.2f distance_m=%.4f "
      "heading_deg=%.2f%s\n",
      d->time, k, cpu_s, cpu_s > 0 ? d->time / cpu_s : 0.0, fell, max_tilt * 180.0 / M_PI, distance, heading_deg,
      diverged ? " diverged=yes" : "");
  mj_deleteData(d);
  mj_deleteModel(mm);
  return diverged ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gapsim-mujoco-walk: " << e.what() << '\n';
    return 1;
  }
}
