// SPDX-License-Identifier: BSD-3-Clause
#include "sim/parameters.h"

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include "sim/input_error.h"
#include "sim/param_tree.h"
#include "sim/plausible.h"
#include "sim/text.h"

namespace gapsim {
namespace {

/// The plausible range of the unit of the parameter `name` addresses (its first match), for a
/// value a user wrote; a name the model does not have passes (the set names it).
void checkPlausible(const std::vector<ParamMatch>& hits, const std::string& name, double value, const std::string& file,
                    int line, const std::string& what) {
  if (!hits.empty())
    plausible::check(value, plausible::parameterRange(hits.front().leaf->unit), file, line, name, what);
}

/// setParameter on a tree already built for `m`.
void setInTree(RobotModel& m, const std::vector<ParamSubtree>& tree, const std::vector<ParamMatch>& hits,
               const std::string& name, double value, const std::string& file, int line) {
  if (hits.empty()) throw InputError(file, line, name, unknownParameterMessage(tree, name, m));
  // All or nothing: each subtree's set is; a name that hits several (a group and a joint of the
  // same name) is applied to a copy.
  RobotModel* target = &m;
  std::optional<RobotModel> copy;
  if (hits.size() > 1) target = &copy.emplace(m);
  try {
    for (const ParamMatch& h : hits) h.subtree->set(*target, h.leaf->name, value);
  } catch (const std::invalid_argument& e) {
    throw InputError(file, line, name, "invalid value " + sixDigits(value) + ": " + e.what());
  }
  if (copy) m = std::move(*copy);
}

}  // namespace

void checkParameterValue(const RobotModel& m, const std::string& name, double value, const std::string& file, int line,
                         const std::string& what) {
  const std::vector<ParamSubtree> tree = parameterTree(m);
  checkPlausible(findParameter(tree, name), name, value, file, line, what);
}

void setInputParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  const std::vector<ParamSubtree> tree = parameterTree(m);  // built once for the check and the set
  const std::vector<ParamMatch> hits = findParameter(tree, name);
  checkPlausible(hits, name, value, file, line, "");
  setInTree(m, tree, hits, name, value, file, line);
}

std::vector<ParameterEntry> listParameters(const RobotModel& m) {
  std::vector<ParameterEntry> out;
  for (const ParamSubtree& t : parameterTree(m))
    for (const motorgear::ParamInfo& leaf : t.leaves) {
      const std::string dir = t.prefix + "/" + leaf.name.substr(0, leaf.name.rfind('/') + 1);
      out.push_back({t.prefix + "/" + leaf.name, t.get(m, leaf.name), leaf.unit, leaf.description,
                     leaf.sets.empty() ? std::string() : dir + leaf.sets});
    }
  return out;
}

void setParameter(RobotModel& m, const std::string& name, double value, const std::string& file, int line) {
  const std::vector<ParamSubtree> tree = parameterTree(m);
  setInTree(m, tree, findParameter(tree, name), name, value, file, line);
}

void setParameterAssignment(RobotModel& m, const std::string& a) {
  const size_t eq = a.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError("", 0, "--set", "expected name=value, got '" + a + "'");
  const std::string name = a.substr(0, eq), text = a.substr(eq + 1);
  double v = 0;
  if (!readFinite(text, v)) throw InputError("", 0, name, "not a finite number: '" + text + "'");
  setInputParameter(m, name, v);
}

void loadParameterFile(RobotModel& model, const std::string& path) {
  RobotModel m = model;  // all or nothing: a bad line leaves the model as it was
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open parameter file");
  std::string line;
  int n = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) {
      while (!c.empty() && c.front() == ' ') c.erase(c.begin());
      while (!c.empty() && c.back() == ' ') c.pop_back();
      cells.push_back(c);
    }
    if (!header) {
      if (cells.size() < 2 || cells[0] != "name" || cells[1] != "value")
        throw InputError(path, n, "header", "a parameter file starts with the header 'name,value'");
      header = true;
      continue;
    }
    if (cells.size() < 2) throw InputError(path, n, "value", "expected name,value");
    double v = 0;
    if (!readFinite(cells[1], v)) throw InputError(path, n, cells[0], "not a finite number: '" + cells[1] + "'");
    setInputParameter(m, cells[0], v, path, n);
  }
  if (!header)
    throw InputError(path, 1, "header", "empty parameter file: no header row name,value (only blank or comment lines)");
  model = std::move(m);
}

void writeParameterFile(const RobotModel& m, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError(path, 0, "", "cannot write parameter file");
  out << "name,value\n";
  for (const auto& e : listParameters(m)) out << e.name << ',' << shortestText(e.value) << '\n';
  if (!out) throw InputError(path, 0, "", "writing the parameter file failed");
}

void makePlain(RobotModel& m) {
  for (Joint& j : m.joints) j.drive.kind = DriveKind::Ideal;
  m.soft_links.clear();
  if (m.solver.plain_min_inertia_kgm2) m.solver.min_inertia_kgm2 = *m.solver.plain_min_inertia_kgm2;
  if (m.solver.plain_iterations) m.solver.iterations = *m.solver.plain_iterations;
  if (m.solver.plain_sor_w) m.solver.sor_w = *m.solver.plain_sor_w;
}

}  // namespace gapsim
