// SPDX-License-Identifier: BSD-3-Clause
#include "sim/robot_model.h"

#include <array>
#include <utility>

namespace gapsim {

namespace {

constexpr std::array<std::pair<JointType, std::string_view>, 4> kJointTypeNames{{{JointType::Revolute, "revolute"},
                                                                                 {JointType::Continuous, "continuous"},
                                                                                 {JointType::Prismatic, "prismatic"},
                                                                                 {JointType::Fixed, "fixed"}}};

}  // namespace

const char* jointTypeName(JointType t) {
  for (const auto& [type, name] : kJointTypeNames)
    if (type == t) return name.data();  // the literals are NUL-terminated
  return "fixed";
}

std::optional<JointType> parseJointType(std::string_view name) {
  for (const auto& [type, n] : kJointTypeNames)
    if (n == name) return type;
  return std::nullopt;
}

int RobotModel::linkIndex(const std::string& n) const {
  for (size_t i = 0; i < links.size(); ++i)
    if (links[i].name == n) return static_cast<int>(i);
  return -1;
}

int RobotModel::jointIndex(const std::string& n) const {
  for (size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == n) return static_cast<int>(i);
  return -1;
}

double RobotModel::totalMass_kg() const {
  double m = 0.0;
  for (const Link& l : links)
    if (l.has_inertial) m += l.inertial.mass_kg;
  return m;
}

std::vector<int> RobotModel::movableJoints() const {
  std::vector<int> out;
  for (size_t i = 0; i < joints.size(); ++i)
    if (joints[i].movable()) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<std::string> RobotModel::movableJointNames() const {
  std::vector<std::string> out;
  for (int j : movableJoints()) out.push_back(joints[j].name);
  return out;
}

}  // namespace gapsim
