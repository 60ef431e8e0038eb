// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/model_params.h"

#include "sim/parameters.h"

namespace gapsim::gui {

std::vector<ModelParameter> modelParameters(const RobotModel& model) {
  std::vector<ModelParameter> out;
  for (const ParameterEntry& e : listParameters(model)) out.push_back({e.name, e.value, e.unit, e.description});
  return out;
}

void setModelParameter(RobotModel& model, const std::string& name, double value) {
  RobotModel copy = model;  // setParameter may have changed some members before it throws
  setParameter(copy, name, value);
  model = std::move(copy);
}

void saveParameterFile(const std::string& path, const RobotModel& model) { writeParameterFile(model, path); }

void loadParameterFile(const std::string& path, RobotModel& model) {
  RobotModel copy = model;
  gapsim::loadParameterFile(copy, path);
  model = std::move(copy);
}

}  // namespace gapsim::gui
