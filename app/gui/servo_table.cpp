// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/servo_table.h"

#include <QHeaderView>
#include <algorithm>
#include <iterator>
#include <map>

#include "app/gui/cell_edit.h"
#include "app/gui/index_of.h"
#include "app/gui/model_params.h"
#include "motorgear/dynamixel_firmware.h"

namespace gapsim::gui {

namespace {
const std::string kServo = "/servo/";
// The values shown, in the servo models' order. Paper 000's law (type="dynamixel"): kp, kd, kc,
// the torque clamp tau_min/tau_max, speed_max the no-load speed. The voltage-domain Dynamixel
// (type="dynamixel_voltage", which has a `law`): the firmware's registers of its law (compliance
// margins, slopes and punch for AX/RX; the PID gains kp, ki, kd for MX/X), then the motor at the
// supply and its Coulomb friction. Both: delay_s, the goal's dead time (0 = off).
const std::vector<std::string> kGains = {
    "kp",         "ki",       "kd",        "kc",    "tau_min",      "tau_max",       "speed_max",      "cw_margin",
    "ccw_margin", "cw_slope", "ccw_slope", "punch", "stall_torque", "no_load_speed", "friction/tau_c", "delay_s"};
/// Whether a row's parameter is one its law reads: a voltage-domain drive lists the registers of
/// both firmware laws and refuses an edit of the other law's (DynamixelFirmware::Params).
bool readByTheLaw(const std::map<std::string, ModelParameter>& row, const std::string& gain) {
  using Law = motorgear::DynamixelFirmware::Law;
  const auto law = row.find("law");
  if (law == row.end()) return true;
  const auto& other =
      motorgear::DynamixelFirmware::Params::registersOf(law->second.value == 0.0 ? Law::Pid : Law::Compliance);
  return std::find(other.begin(), other.end(), gain) == other.end();
}

QString shortHeader(const std::string& g) {
  if (g == "tau_min") return QStringLiteral("τ min");
  if (g == "tau_max") return QStringLiteral("τ max");
  if (g == "speed_max") return QStringLiteral("ω max");
  if (g == "delay_s") return QStringLiteral("delay");
  if (g == "stall_torque") return QStringLiteral("τ stall");
  if (g == "no_load_speed") return QStringLiteral("ω 0");
  if (g == "friction/tau_c") return QStringLiteral("τ c");
  return QString::fromStdString(g);
}
}  // namespace

ServoTable::ServoTable(QWidget* parent) : QTableWidget(parent) {
  verticalHeader()->setDefaultSectionSize(18);
  // Columns as wide as their numbers (a stretched narrow dock elided them to "0...."), the last
  // one taking what is left.
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  horizontalHeader()->setStretchLastSection(true);
  horizontalHeader()->setMinimumSectionSize(36);
  setTextElideMode(Qt::ElideNone);
  connect(this, &QTableWidget::itemChanged, this, &ServoTable::onChanged);
}

bool ServoTable::fill(const RobotModel& model) {
  filling_ = true;
  std::map<std::string, std::map<std::string, ModelParameter>> by_row;
  std::vector<std::string> order;
  for (const ModelParameter& p : modelParameters(model)) {
    const auto at = p.name.find(kServo);
    if (at == std::string::npos) continue;
    const std::string row = p.name.substr(0, at), gain = p.name.substr(at + kServo.size());
    if (gain != "law" && std::find(kGains.begin(), kGains.end(), gain) == kGains.end())
      continue;  // ideal servos: gain, fmax; the voltage drive's other values are in the Parameters tab
    if (!by_row.count(row)) order.push_back(row);
    by_row[row][gain] = p;
  }
  bool voltage = false;
  for (auto& [row, cells] : by_row) {
    voltage = voltage || cells.count("law") > 0;
    for (auto it = cells.begin(); it != cells.end();)
      it = readByTheLaw(cells, it->first) ? std::next(it) : cells.erase(it);
    cells.erase("law");
  }
  setToolTip(
      voltage
          ? tr("Dynamixel servo in the voltage domain: the firmware's position law (compliance margin, slope and "
               "punch of the AX/RX, or the PID gains of the MX/X) sets the PWM duty, the motor delivers up to "
               "τ stall at rest and reaches ω 0 unloaded at the supply; τ c is its Coulomb friction, delay the "
               "goal's dead time (0 = off). docs/servo_models.md.\n"
               "Double-click a value to edit it; a group row sets all its joints. Edits apply with Apply (reset).")
          : tr("Dynamixel servo model: tau = clamp(-kp (q - qbar) - kd qdot - kc sgn(qdot), tau_min, tau_max);\n"
               "ω max limits |kp (q - qbar)| to kd ω max (no-load speed), delay is the goal's dead time (0 = off).\n"
               "Double-click a value to edit it; a group row sets all its joints. Edits apply with Apply (reset)."));
  rows_ = order;
  gains_.clear();
  for (const std::string& g : kGains)
    if (std::any_of(rows_.begin(), rows_.end(), [&](const std::string& r) { return by_row[r].count(g) > 0; }))
      gains_.push_back(g);
  clear();
  setRowCount(static_cast<int>(rows_.size()));
  setColumnCount(static_cast<int>(gains_.size()));
  // Short headers (the dock is narrow); name, unit and meaning in the header's tooltip.
  for (int c = 0; c < static_cast<int>(gains_.size()); ++c) {
    const std::string& g = gains_[static_cast<std::size_t>(c)];
    const ModelParameter& any = by_row[rows_.front()][g];
    auto* h = new QTableWidgetItem(shortHeader(g));
    h->setToolTip(QString::fromStdString(g + " [" + any.unit + "]: " + any.description));
    setHorizontalHeaderItem(c, h);
  }
  QStringList names;
  // Group rows (named after a drivetrain, not a joint) come first in listParameters' order.
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
    const bool group = model.jointIndex(rows_[static_cast<std::size_t>(r)]) < 0;
    names << QString::fromStdString(rows_[static_cast<std::size_t>(r)]) + (group ? tr(" (all)") : QString());
    for (int c = 0; c < static_cast<int>(gains_.size()); ++c) {
      const auto& cells = by_row[rows_[static_cast<std::size_t>(r)]];
      const auto it = cells.find(gains_[static_cast<std::size_t>(c)]);
      auto* item = new QTableWidgetItem(it == cells.end() ? QString() : QString::number(it->second.value, 'g', 5));
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (it == cells.end())
        item->setFlags(Qt::NoItemFlags);
      else
        item->setToolTip(
            QString::fromStdString(it->second.name + " [" + it->second.unit + "]\n" + it->second.description));
      if (group) {
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
      }
      setItem(r, c, item);
    }
  }
  setVerticalHeaderLabels(names);
  filling_ = false;
  return !rows_.empty();
}

std::string ServoTable::parameterName(int row, int column) const {
  if (row < 0 || column < 0 || row >= static_cast<int>(rows_.size()) || column >= static_cast<int>(gains_.size()))
    return {};
  return rows_[static_cast<std::size_t>(row)] + kServo + gains_[static_cast<std::size_t>(column)];
}

int ServoTable::rowOf(const std::string& name) const { return indexOf(rows_, name); }

int ServoTable::columnOf(const std::string& gain) const { return indexOf(gains_, gain); }

void ServoTable::onChanged(QTableWidgetItem* item) {
  if (filling_) return;
  handOnCellEdit(*this, parameterName(item->row(), item->column()), item->text());
}

}  // namespace gapsim::gui
