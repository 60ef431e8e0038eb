// SPDX-License-Identifier: BSD-3-Clause
#include "sim/robot_model.h"

namespace gapsim {

const char* jointTypeName(JointType t) {
  switch (t) {
    case JointType::Revolute:
      return "revolute";
    case JointType::Continuous:
      return "continuous";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Fixed:
      break;
  }
  return "fixed";
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
