// SPDX-License-Identifier: BSD-3-Clause
#include "calib/stability_sweep.h"

#include <cmath>
#include <memory>

#include "sim/ankle_balance.h"
#include "sim/input_error.h"
#include "sim/motion_readers.h"
#include "sim/parameters.h"
#include "sim/runner.h"

namespace gapsim::calib {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double unit(std::uint64_t& state) { return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; }

double currentValue(const RobotModel& m, const std::string& name) {
  for (const auto& e : listParameters(m))
    if (e.name == name) return e.value;
  throw InputError("", 0, name, "unknown parameter in the sweep ranges");
}

}  // namespace

std::vector<ParameterRange> naoDrivetrainRanges() {
  // The spread a real Nao's leg drivetrains can have around the robot file's values (factors of
  // the file's value), so that the sweep asks "does the shipped walk survive the robot it may
  // meet", not "does it survive any motor":
  //  - motor constants from the motor datasheets' tolerances (Aldebaran NAO6 datasheet, in
  //    shared/robot-data/nao_motors.csv: no-load speed +-10-12 %, stall torque +-8-10 %): the
  //    back-EMF constant K_e sets the no-load speed (x0.88-1.12), the current scale S the stall
  //    torque (x0.9-1.1; S itself is the stiffness a walking engine commands, 0.7 in the file);
  //  - the rotor inertia, given by the datasheets without a tolerance: x0.5-2;
  //  - what was identified rather than measured (the MoToFlex fit of the PID gains, the gear hull,
  //    the joint friction, the soft legs' spring): x0.5-2 (the gear play l_h x0.5-10, the
  //    integral gain 0-2x, uniform).
  // `gapsim-cli sweep --space FILE` sweeps a calibration space's bounds instead (e.g. the walking
  // twin's, a factor 2 on the motor constants).
  std::vector<ParameterRange> r;
  for (const char* g : {"legs/typeA", "legs/typeB"}) {
    const std::string p = g;
    r.push_back({p + "/pid/p", 0.5, 2.0});
    r.push_back({p + "/pid/i", 0.0, 2.0, true, false});
    r.push_back({p + "/pid/d", 0.5, 2.0});
    r.push_back({p + "/motor/K_e", 0.88, 1.12});  // the back-EMF (the Nao file has B_v = 0)
    r.push_back({p + "/motor/S", 0.9, 1.1});
    r.push_back({p + "/gear/D_g", 0.5, 2.0});
    r.push_back({p + "/gear/m_g", 0.5, 2.0});
    r.push_back({p + "/gear/B_g", 0.5, 2.0});
    r.push_back({p + "/gear/l_h", 0.5, 10.0});
    r.push_back({p + "/gear/J_rotor", 0.5, 2.0});
    r.push_back({p + "/friction/dry", 0.5, 2.0});
  }
  r.push_back({"legs/soft/D_B", 0.5, 2.0});
  return r;
}

std::vector<ParameterRange> rangesFromSpace(const ParameterSpace& space) {
  std::vector<ParameterRange> r;
  for (const SpaceEntry& e : space.entries()) {
    if (e.frozen) continue;
    // A tie group moves together in calibration; here each row is drawn on its own, within the
    // same bounds: the sweep asks about every robot the space admits.
    r.push_back({e.name, e.lower, e.upper, false, e.log_scale && e.lower > 0});
  }
  if (r.empty()) throw InputError(space.source(), 0, "frozen", "the space has no free parameter to sweep");
  return r;
}

std::vector<std::pair<std::string, double>> drawSet(const RobotModel& base, const std::vector<ParameterRange>& ranges,
                                                    std::uint64_t seed, int index) {
  std::uint64_t state = seed * 0x2545F4914F6CDD1Dull + static_cast<std::uint64_t>(index);
  splitmix64(state);
  std::vector<std::pair<std::string, double>> out;
  for (const ParameterRange& r : ranges) {
    const double u = unit(state);
    double v = r.logarithmic ? std::exp(std::log(r.lower) + u * (std::log(r.upper) - std::log(r.lower)))
                             : r.lower + u * (r.upper - r.lower);
    if (r.relative) v *= currentValue(base, r.name);
    out.emplace_back(r.name, v);
  }
  return out;
}

SweepCase runCase(const RobotModel& base, const std::vector<ParameterRange>& ranges, const SweepConfig& cfg,
                  int index) {
  SweepCase c;
  c.index = index;
  c.values = drawSet(base, ranges, cfg.seed, index);
  auto m = std::make_shared<RobotModel>(base);
  try {
    for (const auto& [n, v] : c.values) setParameter(*m, n, v);
    std::unique_ptr<Motion> motion;
    if (!cfg.motion.empty()) motion = std::make_unique<Motion>(loadMotion(cfg.motion));
    SimOptions so;
    so.seed = cfg.seed;
    Simulation sim(m, so);
    RunConfig rc;
    rc.duration_s = cfg.duration_s;
    // The motion plays as at the defaults: with the controller it names (walks: the ankle balance).
    if (motion) rc.balance = motionController(*motion);
    const RunSummary s = runMotion(sim, motion.get(), rc, nullptr);
    c.max_tilt_deg = s.max_tilt_deg;
    if (s.diverged) {
      c.outcome = "diverged";
      c.message = s.divergence;
    } else if (s.fall_time_s) {
      c.outcome = "fell";
      c.fall_time_s = *s.fall_time_s;
    } else {
      c.outcome = "upright";
    }
  } catch (const InputError& e) {
    c.outcome = "rejected";
    c.message = e.what();
  } catch (const std::invalid_argument& e) {
    c.outcome = "rejected";
    c.message = e.what();
  }
  return c;
}

}  // namespace gapsim::calib
