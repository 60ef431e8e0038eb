// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/info_compiled.h"

#include <cstdio>
#include <string>

#include "sim/input_error.h"

namespace gapsim::cli {
namespace {

const char* rowName(CompiledModel::Joint::Row r) {
  switch (r) {
    case CompiledModel::Joint::Row::Hinge:
      return "hinge";
    case CompiledModel::Joint::Row::Slider:
      return "slider";
    case CompiledModel::Joint::Row::None:
      break;
  }
  return "-";
}

std::string bodyName(const CompiledModel& c, int body) {
  return body >= 0 ? c.bodies[static_cast<size_t>(body)].name : std::string("world");
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

void printBodies(const CompiledModel& c) {
  std::printf("bodies (%zu):\n  %-22s %10s  %-32s %10s  %s\n", c.bodies.size(), "name", "mass_kg",
              "principal moments kg m^2", "armature", "links");
  for (const CompiledModel::Body& b : c.bodies)
    std::printf("  %-22s %10.5f  %10.3g %10.3g %10.3g %10.3g  %s\n", b.name.c_str(), b.mass_kg, b.principal_kgm2[0],
                b.principal_kgm2[1], b.principal_kgm2[2], b.armature_kgm2, joined(b.links).c_str());
}

void printJoints(const RobotModel& m, const CompiledModel& c) {
  std::printf("joints (%zu):\n  %-18s %-7s %-16s %-16s %-22s %12s  %s\n", c.joints.size(), "name", "row", "child body",
              "parent body", "stops_rad", "damper_Nms", "drive");
  for (size_t ji = 0; ji < c.joints.size(); ++ji) {
    const CompiledModel::Joint& j = c.joints[ji];
    char stops[64] = "-";
    if (j.stops) std::snprintf(stops, sizeof stops, "[%.4g, %.4g]", j.lower, j.upper);
    const bool row = j.row != CompiledModel::Joint::Row::None;
    std::printf(
        "  %-18s %-7s %-16s %-16s %-22s %12.4g  %s\n", m.joints[ji].name.c_str(), rowName(j.row),
        row ? bodyName(c, j.child_body).c_str() : "-", row ? bodyName(c, j.parent_body).c_str() : "-", stops,
        j.damper_Nm_s_rad,
        (j.drive +
         (j.viscous_Nm_s_rad > 0 ? "; <dynamics damping> " + sixDigits(j.viscous_Nm_s_rad) + " as an implicit row"
                                 : "") +
         (j.coulomb_Nm > 0 ? "; <dynamics friction> " + sixDigits(j.coulomb_Nm) + " as a velocity-0 row" : ""))
            .c_str());
  }
}

void printOthers(const RobotModel& m, const CompiledModel& c) {
  for (const CompiledModel::SoftJoint& s : c.soft_joints)
    std::printf("soft joint %s: %s - %s, stop ERP %.4g, CFM %.4g, friction %.3g N m\n", s.name.c_str(),
                bodyName(c, s.body1).c_str(), bodyName(c, s.body2).c_str(), s.stop_erp, s.stop_cfm, s.friction_Nm);
  for (const CompiledModel::CoupledDrive& d : c.coupled_drives) {
    std::vector<std::string> names;
    for (int j : d.joints) names.push_back(m.joints[static_cast<size_t>(j)].name);
    std::printf("coupled drive <%s> (line %d): %s\n", d.element.c_str(), d.line, joined(names).c_str());
  }
  if (c.planar.enabled)
    std::printf("planar base: body %s in the plane with normal (%.4g, %.4g, %.4g), rows up to %.4g N (N m)\n",
                bodyName(c, c.planar.body).c_str(), c.planar.normal.x(), c.planar.normal.y(), c.planar.normal.z(),
                c.planar.fmax);
}

}  // namespace

void printCompiled(const RobotModel& m, const CompiledModel& c) {
  const ContactSettings& k = m.contact;
  std::printf(
      "\ncompiled: %s\ncontact: mu %.4g, soft ERP %.4g, soft CFM %.4g, up to %d points per pair, surface layer %.4g "
      "m\n",
      c.stepper.c_str(), k.mu, k.soft_erp, k.soft_cfm, k.max_contacts, k.surface_layer_m);
  printBodies(c);
  printJoints(m, c);
  printOthers(m, c);
  std::printf("values that run differently from the file's (%zu):\n", c.changes.size());
  for (const CompiledModel::Change& ch : c.changes)
    std::printf("  %s: file %s -> runs as %s (%s)\n", ch.item.c_str(), ch.in_file.c_str(), ch.compiled.c_str(),
                ch.why.c_str());
}

nlohmann::json compiledJson(const RobotModel& m, const CompiledModel& c) {
  using nlohmann::json;
  auto vec = [](const Eigen::Vector3d& v) { return json::array({v.x(), v.y(), v.z()}); };
  json out = {{"robot", m.name},          {"stepper", c.stepper},       {"dt_s", c.dt_s},
              {"quickstep", c.quickstep}, {"iterations", c.iterations}, {"seed", c.seed}};
  for (const CompiledModel::Body& b : c.bodies)
    out["bodies"].push_back({{"name", b.name},
                             {"links", b.links},
                             {"mass_kg", b.mass_kg},
                             {"principal_kgm2", vec(b.principal_kgm2)},
                             {"armature_kgm2", b.armature_kgm2},
                             {"foot", b.foot}});
  for (size_t ji = 0; ji < c.joints.size(); ++ji) {
    const CompiledModel::Joint& j = c.joints[ji];
    json e = {{"name", m.joints[ji].name},
              {"row", rowName(j.row)},
              {"welded", j.welded},
              {"drive", j.drive},
              {"damper_Nm_s_rad", j.damper_Nm_s_rad},
              {"viscous_Nm_s_rad", j.viscous_Nm_s_rad},
              {"coulomb_Nm", j.coulomb_Nm},
              {"mimic", j.mimic}};
    if (j.welded) e["welded_q"] = j.welded_q;
    if (j.row != CompiledModel::Joint::Row::None) {
      e["child_body"] = bodyName(c, j.child_body);
      e["parent_body"] = bodyName(c, j.parent_body);
      e["axis"] = vec(j.axis);
      if (j.stops) e["stops"] = json::array({j.lower, j.upper});
    }
    out["joints"].push_back(e);
  }
  for (const CompiledModel::SoftJoint& s : c.soft_joints)
    out["soft_joints"].push_back({{"name", s.name},
                                  {"body1", bodyName(c, s.body1)},
                                  {"body2", bodyName(c, s.body2)},
                                  {"stop_erp", s.stop_erp},
                                  {"stop_cfm", s.stop_cfm},
                                  {"friction_Nm", s.friction_Nm}});
  out["changes"] = json::array();
  for (const CompiledModel::Change& ch : c.changes)
    out["changes"].push_back({{"item", ch.item}, {"in_file", ch.in_file}, {"compiled", ch.compiled}, {"why", ch.why}});
  return out;
}

}  // namespace gapsim::cli
