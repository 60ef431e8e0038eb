// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/model_params.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "sim/csv_table.h"
#include "sim/input_error.h"
#include "sim/log_writer.h"

namespace gapsim::gui {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Binding {
  ModelParameter meta;
  std::function<double&(RobotModel&)> ref;
  std::function<int&(RobotModel&)> iref;  // integer parameters
};

std::vector<Binding> bindings(const RobotModel& m) {
  std::vector<Binding> b;
  auto add = [&](std::string name, double lo, double hi, std::string unit, std::function<double&(RobotModel&)> r) {
    b.push_back({{std::move(name), 0, lo, hi, false, std::move(unit)}, std::move(r), {}});
  };
  add("solver/dt_s", 1e-5, 0.02, "s", [](RobotModel& x) -> double& { return x.solver.dt_s; });
  b.push_back({{"solver/iterations", 0, 1, 1000, true, ""}, {}, [](RobotModel& x) -> int& { return x.solver.iterations; }});
  add("solver/erp", 0, 1, "", [](RobotModel& x) -> double& { return x.solver.erp; });
  add("solver/cfm", 0, 1, "", [](RobotModel& x) -> double& { return x.solver.cfm; });
  add("contact/mu", 0, kInf, "", [](RobotModel& x) -> double& { return x.contact.mu; });
  add("contact/soft_erp", 0, 1, "", [](RobotModel& x) -> double& { return x.contact.soft_erp; });
  add("contact/soft_cfm", 0, 1, "", [](RobotModel& x) -> double& { return x.contact.soft_cfm; });
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    if (!j.movable()) continue;
    auto J = [i](RobotModel& x) -> Joint& { return x.joints[i]; };
    add(j.name + "/servo/gain_1_s", 0, kInf, "1/s", [J](RobotModel& x) -> double& { return J(x).servo.gain_1_s; });
    add(j.name + "/servo/fmax_Nm", 0, kInf, "N m", [J](RobotModel& x) -> double& { return J(x).servo.fmax_Nm; });
    add(j.name + "/servo/max_velocity_rad_s", 0, kInf, "rad/s",
        [J](RobotModel& x) -> double& { return J(x).servo.max_velocity_rad_s; });
    add(j.name + "/damping_Nms_rad", 0, kInf, "N m s/rad", [J](RobotModel& x) -> double& { return J(x).damping_Nms_rad; });
    add(j.name + "/friction_Nm", 0, kInf, "N m", [J](RobotModel& x) -> double& { return J(x).friction_Nm; });
  }
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    if (!m.links[i].has_inertial) continue;
    add(m.links[i].name + "/mass_kg", 1e-9, kInf, "kg",
        [i](RobotModel& x) -> double& { return x.links[i].inertial.mass_kg; });
  }
  return b;
}

double read(const Binding& b, const RobotModel& m) {
  auto& mm = const_cast<RobotModel&>(m);  // the accessors only read here
  return b.ref ? b.ref(mm) : static_cast<double>(b.iref(mm));
}
}  // namespace

std::vector<ModelParameter> modelParameters(const RobotModel& model) {
  std::vector<ModelParameter> out;
  for (const Binding& b : bindings(model)) {
    ModelParameter p = b.meta;
    p.value = read(b, model);
    out.push_back(std::move(p));
  }
  return out;
}

void setModelParameter(RobotModel& model, const std::string& name, double value) {
  for (const Binding& b : bindings(model)) {
    if (b.meta.name != name) continue;
    if (!std::isfinite(value) || value < b.meta.min || value > b.meta.max) {
      std::ostringstream s;
      s << "value " << value << " outside [" << b.meta.min << ", " << b.meta.max << "]";
      throw InputError("", 0, name, s.str());
    }
    if (b.meta.integer) {
      if (value != std::round(value)) throw InputError("", 0, name, "must be a whole number");
      b.iref(model) = static_cast<int>(value);
    } else {
      b.ref(model) = value;
    }
    return;
  }
  throw InputError("", 0, name, "unknown parameter of robot '" + model.name + "'");
}

void saveParameterFile(const std::string& path, const RobotModel& model) {
  std::ofstream out(path);
  if (!out) throw InputError(path, 0, "", "cannot write the parameter file");
  out << "# gapsim parameters of " << model.name << " (" << model.source_file << "): name value, SI units\n";
  for (const ModelParameter& p : modelParameters(model)) {
    std::string v;
    appendCsvNumber(v, p.value);
    out << p.name << ' ' << v << '\n';
  }
  if (!out.flush()) throw InputError(path, 0, "", "writing the parameter file failed");
}

void loadParameterFile(const std::string& path, RobotModel& model) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open the parameter file");
  RobotModel copy = model;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::istringstream s(line);
    std::string name, value, extra;
    if (!(s >> name) || name[0] == '#') continue;
    if (!(s >> value)) throw InputError(path, n, name, "missing value");
    if (s >> extra && extra[0] != '#') throw InputError(path, n, name, "unexpected text after the value: '" + extra + "'");
    double v = 0;
    const CsvNumberStatus st = parseCsvNumber(value, v);
    if (st != CsvNumberStatus::Ok) throw InputError(path, n, name, csvNumberError(st, value));
    try {
      setModelParameter(copy, name, v);
    } catch (const InputError& e) {
      // Re-anchor the message at this file and line; keep only the reason after "name: ".
      std::string what = e.what();
      const auto pos = what.find(name + ": ");
      throw InputError(path, n, name, pos == std::string::npos ? what : what.substr(pos + name.size() + 2));
    }
  }
  model = std::move(copy);
}

}  // namespace gapsim::gui
