// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/mabel_panel.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "app/gui/cell_edit.h"
#include "app/gui/index_of.h"
#include "app/gui/model_params.h"
#include "sim/mabel_hop_controller.h"

namespace gapsim::gui {

namespace {

QTableWidget* makeTable(QWidget* parent) {
  auto* t = new QTableWidget(parent);
  t->verticalHeader()->setDefaultSectionSize(18);
  // Value columns share the width (a narrow dock must show both legs without scrolling).
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  t->horizontalHeader()->setMinimumSectionSize(50);
  t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  t->setTextElideMode(Qt::ElideNone);
  return t;
}

// `content` under a one-line title, edge to edge (a splitter pane).
QWidget* titled(const QString& title, QWidget* content) {
  auto* box = new QWidget;
  auto* l = new QVBoxLayout(box);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(1);
  l->addWidget(new QLabel(title));
  l->addWidget(content);
  return box;
}

// Parameters under `prefix`/ in listParameters' order: leaf -> parameter.
std::map<std::string, ModelParameter> under(const std::vector<ModelParameter>& all, const std::string& prefix,
                                            std::vector<std::string>& leaves) {
  std::map<std::string, ModelParameter> out;
  for (const ModelParameter& p : all) {
    if (p.name.size() <= prefix.size() + 1 || p.name.compare(0, prefix.size(), prefix) != 0 ||
        p.name[prefix.size()] != '/')
      continue;
    const std::string leaf = p.name.substr(prefix.size() + 1);
    if (std::find(leaves.begin(), leaves.end(), leaf) == leaves.end()) leaves.push_back(leaf);
    out[leaf] = p;
  }
  return out;
}

// One table: a row per leaf, a column per owner (leg or ground); "" cells are not editable.
void fillTable(QTableWidget* t, const std::vector<ModelParameter>& all, const std::vector<std::string>& owners,
               std::vector<std::string>& leaves) {
  leaves.clear();
  std::vector<std::map<std::string, ModelParameter>> cols;
  for (const std::string& o : owners) cols.push_back(under(all, o, leaves));
  t->clear();
  t->setRowCount(static_cast<int>(leaves.size()));
  t->setColumnCount(static_cast<int>(owners.size()));
  QStringList headers;
  for (const std::string& o : owners)
    headers << QString::fromStdString(o.substr(o.rfind('/') + 1));  // "mabel/left" -> left
  t->setHorizontalHeaderLabels(headers);
  for (int r = 0; r < static_cast<int>(leaves.size()); ++r) {
    const std::string& leaf = leaves[static_cast<std::size_t>(r)];
    QString unit;
    for (std::size_t c = 0; c < owners.size(); ++c) {
      const auto it = cols[c].find(leaf);
      auto* item = new QTableWidgetItem(it == cols[c].end() ? QString() : QString::number(it->second.value, 'g', 6));
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (it == cols[c].end()) {
        item->setFlags(Qt::NoItemFlags);
      } else {
        unit = QString::fromStdString(it->second.unit);
        item->setToolTip(
            QString::fromStdString(it->second.name + " [" + it->second.unit + "]\n" + it->second.description));
      }
      t->setItem(r, static_cast<int>(c), item);
    }
    // The leaf alone as the row label (units in the tooltip: the dock is narrow).
    auto* h = new QTableWidgetItem(QString::fromStdString(leaf));
    h->setToolTip(QString::fromStdString(leaf) + (unit.isEmpty() ? QString() : " [" + unit + "]"));
    t->setVerticalHeaderItem(r, h);
  }
}

const char* kPhaseNames[] = {"?",        "I flight", "II touchdown", "III kickoff", "IVa left off", "IVb right off",
                             "V retract"};

}  // namespace

MabelPanel::MabelPanel(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(2, 2, 2, 2);

  auto* box = new QGroupBox(tr("Hopping controller (Appendix D, set 53)"));
  auto* form = new QGridLayout(box);
  form->setContentsMargins(6, 2, 6, 2);
  form->setVerticalSpacing(2);
  hop_ = new QCheckBox(tr("Run it (drop start, as --controller hop)"));
  hop_->setToolTip(tr("Replaces the motion by MABEL's hopping controller and restarts at t = 0 from a %1 m drop,\n"
                      "as gapsim-cli run --robot mabel --controller hop. Its phase is logged as hop/phase.")
                       .arg(MabelHopController::Params{}.drop_m));
  phase_ = new QLabel(tr("off"));
  hops_ = new QLabel(QStringLiteral("-"));
  htor_ = new QLabel(QStringLiteral("-"));
  QFont bold = phase_->font();
  bold.setBold(true);
  phase_->setFont(bold);
  // Compact: the dock shares its height with the joint table and the parameter tables.
  form->addWidget(hop_, 0, 0, 1, 4);
  form->addWidget(new QLabel(tr("Phase:")), 1, 0);
  form->addWidget(phase_, 1, 1);
  form->addWidget(new QLabel(tr("h_Tor:")), 1, 2);
  form->addWidget(htor_, 1, 3);
  form->addWidget(new QLabel(tr("Hops:")), 2, 0);
  form->addWidget(hops_, 2, 1, 1, 3);
  form->setColumnStretch(1, 1);
  l->addWidget(box);

  auto* split = new QSplitter(Qt::Vertical);
  legs_ = makeTable(this);
  legs_->setToolTip(
      tr("Cable-differential transmission and unilateral spring (docs/mabel.md): gear ratios, K_T, mu,\n"
         "inertias, cable K_C/Kd_C, spring K_B/Kd_B and hard stop. Double-click to edit; Apply (reset)."));
  ground_ = makeTable(this);
  ground_->setToolTip(tr("Marhefka-Orin normal force and the tangential model of Table VII. Double-click to edit."));
  split->addWidget(titled(tr("Transmission and spring (per leg)"), legs_));
  split->addWidget(titled(tr("Compliant ground"), ground_));
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  l->addWidget(split, 1);

  connect(legs_, &QTableWidget::itemChanged, this, &MabelPanel::onChanged);
  connect(ground_, &QTableWidget::itemChanged, this, &MabelPanel::onChanged);
  connect(hop_, &QCheckBox::toggled, this, &MabelPanel::hopToggled);
}

bool MabelPanel::fill(const RobotModel& model) {
  filling_ = true;
  leg_names_.clear();
  ground_names_.clear();
  for (const MabelLegSpec& s : model.mabel_legs) leg_names_.push_back(s.name);
  for (const CompliantGroundSpec& g : model.compliant_grounds) ground_names_.push_back(g.name);
  const std::vector<ModelParameter> all = modelParameters(model);
  fillTable(legs_, all, leg_names_, leg_leaves_);
  fillTable(ground_, all, ground_names_, ground_leaves_);
  filling_ = false;
  return !leg_names_.empty();
}

void MabelPanel::setColumns(const std::vector<std::string>& columns) {
  auto find = [&](const char* name) { return indexOf(columns, name); };
  col_phase_ = find("hop/phase");
  col_touchdowns_ = find("hop/touchdowns");
  col_htor_ = find("hop/h_Tor_rad");
  if (col_phase_ < 0) {
    phase_->setText(tr("off"));
    hops_->setText(QStringLiteral("-"));
    htor_->setText(QStringLiteral("-"));
  }
}

void MabelPanel::showRow(const std::vector<double>& row) {
  auto at = [&](int c) { return c >= 0 && c < static_cast<int>(row.size()) ? row[static_cast<std::size_t>(c)] : NAN; };
  const double ph = at(col_phase_);
  if (std::isnan(ph)) return;
  const int k = static_cast<int>(std::lround(ph));
  phase_->setText(k >= 1 && k <= 6 ? QString::fromLatin1(kPhaseNames[k]) : QStringLiteral("?"));
  const double td = at(col_touchdowns_);
  // Hops as runHop counts them: touchdowns after the first (the landing from the drop).
  if (!std::isnan(td)) hops_->setText(tr("%1 (touchdowns %2)").arg(std::max(0, int(td) - 1)).arg(int(td)));
  const double h = at(col_htor_);
  if (!std::isnan(h)) htor_->setText(QStringLiteral("%1 deg").arg(h * 180.0 / std::numbers::pi, 0, 'f', 2));
}

void MabelPanel::setHopChecked(bool on) {
  const QSignalBlocker b(hop_);
  hop_->setChecked(on);
}

QString MabelPanel::phaseText() const { return phase_->text(); }
QString MabelPanel::hopsText() const { return hops_->text(); }

std::string MabelPanel::parameterName(const QTableWidget* table, int row, int column) const {
  const bool legs = table == legs_;
  const auto& owners = legs ? leg_names_ : ground_names_;
  const auto& leaves = legs ? leg_leaves_ : ground_leaves_;
  if (row < 0 || column < 0 || row >= static_cast<int>(leaves.size()) || column >= static_cast<int>(owners.size()))
    return {};
  const QTableWidgetItem* item = table->item(row, column);
  if (!item || item->flags() == Qt::NoItemFlags) return {};
  return owners[static_cast<std::size_t>(column)] + "/" + leaves[static_cast<std::size_t>(row)];
}

int MabelPanel::legRowOf(const std::string& leaf) const { return indexOf(leg_leaves_, leaf); }

int MabelPanel::legColumnOf(const std::string& leg) const { return indexOf(leg_names_, leg); }

void MabelPanel::onChanged(QTableWidgetItem* item) {
  if (filling_) return;
  handOnCellEdit(*this, parameterName(item->tableWidget(), item->row(), item->column()), item->text());
}

}  // namespace gapsim::gui
