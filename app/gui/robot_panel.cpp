// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/robot_panel.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <type_traits>

#include "app/gui/drive_curve_panel.h"
#include "app/gui/index_of.h"
#include "app/gui/keyframe_table.h"
#include "app/gui/mabel_panel.h"
#include "app/gui/model_params.h"
#include "app/gui/parameter_tree_view.h"
#include "app/gui/servo_table.h"
#include "sim/input_error.h"
#include "sim/urdf_parser.h"

namespace gapsim::gui {

namespace {

/// A file below the working directory by its relative path (what a user typed, and no machine's
/// absolute path in a screenshot); any other by its absolute one. The tooltip has the full path.
QString shownPath(const QString& path) {
  if (path.isEmpty()) return path;
  const QString rel = QDir::current().relativeFilePath(path);
  return rel.startsWith("..") || QDir::isAbsolutePath(rel) ? path : rel;
}

constexpr int kNameRole = Qt::UserRole + 1;

}  // namespace

/// Long on purpose: the panel's widget tree built top to bottom in the order it is shown.
RobotPanel::RobotPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  title_ = new QLabel(tr("no robot"));
  title_->setWordWrap(true);
  layout->addWidget(title_);
  auto* split = new QSplitter(Qt::Vertical);
  joints_ = new QTableWidget(0, 4);
  joints_->setHorizontalHeaderLabels({tr("joint"), tr("target°"), tr("meas.°"), tr("τ N m")});
  joints_->horizontalHeaderItem(1)->setToolTip(tr("target angle (degrees)"));
  joints_->horizontalHeaderItem(2)->setToolTip(tr("measured angle, encoder (degrees)"));
  joints_->horizontalHeaderItem(3)->setToolTip(tr("actuator torque (N m)"));
  joints_->verticalHeader()->hide();
  joints_->verticalHeader()->setDefaultSectionSize(18);
  joints_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  joints_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  joints_->horizontalHeader()->setMinimumSectionSize(44);
  joints_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  joints_->setSelectionMode(QAbstractItemView::NoSelection);
  joints_->setFocusPolicy(Qt::NoFocus);
  split->addWidget(joints_);
  auto* pbox = new QWidget;
  auto* pl = new QVBoxLayout(pbox);
  pl->setContentsMargins(0, 0, 0, 0);
  params_ = new QTreeWidget;
  params_->setHeaderLabels({tr("parameter"), tr("value")});
  // The name takes what the value (sized to its widest text) leaves.
  params_->header()->setStretchLastSection(false);
  params_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  params_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  params_->setToolTip(
      tr("Double-click a value to edit it; edits apply with Apply (reset). "
         "Values that differ from the robot file are bold on yellow."));
  param_filter_ = new QLineEdit;
  param_filter_->setPlaceholderText(tr("filter parameters (e.g. knee, friction)"));
  param_filter_->setClearButtonEnabled(true);
  connect(param_filter_, &QLineEdit::textChanged, this,
          [this](const QString& t) { filterTree(*params_, t, kNameRole); });
  auto* params_page = new QWidget;
  auto* ppl = new QVBoxLayout(params_page);
  ppl->setContentsMargins(0, 0, 0, 0);
  ppl->setSpacing(2);
  ppl->addWidget(param_filter_);
  ppl->addWidget(params_);
  tabs_ = new QTabWidget;
  tabs_->addTab(params_page, tr("Parameters"));
  drive_ = new DriveCurvePanel(this);
  tabs_->addTab(drive_, tr("Drive"));
  tabs_->setTabToolTip(tabs_->indexOf(drive_),
                       tr("torque-speed envelope and drive/backdrive diagram of a joint's drive"));
  servos_ = new ServoTable(this);  // a tab only for robots with Dynamixel servos (setRobot)
  servos_->hide();
  keyframes_ = new KeyframeTable(this);  // a tab once a controller is opened (setController)
  keyframes_->hide();
  mabel_ = new MabelPanel(this);  // a tab only for MABEL (setRobot)
  mabel_->hide();
  pl->addWidget(tabs_);
  auto* buttons = new QHBoxLayout;
  apply_ = new QPushButton(tr("Apply (reset)"));
  apply_->setEnabled(false);
  auto* save = new QPushButton(tr("Save..."));
  auto* load = new QPushButton(tr("Load..."));
  buttons->addWidget(apply_);
  buttons->addWidget(save);
  buttons->addWidget(load);
  pl->addLayout(buttons);
  split->addWidget(pbox);
  layout->addWidget(split, 1);
  connect(params_, &QTreeWidget::itemChanged, this, &RobotPanel::onItemChanged);
  // The servo and MABEL tables edit one parameter a cell: applied as the tree's edits are, or
  // reported when the cell's text is not a number.
  auto connectTable = [this](auto* table) {
    using Table = std::remove_pointer_t<decltype(table)>;
    connect(table, &Table::parameterEdited, this, [this](const std::string& name, double v) {
      applyEdit(name, v);
      refillLater();
    });
    connect(table, &Table::invalidText, this, [this](const std::string& name, const QString& text) {
      emit errorOccurred(tr("Bad parameter value"),
                         QString::fromStdString(name) + tr(": not a number: '%1'").arg(text));
      refillLater();
    });
  };
  connectTable(servos_);
  connectTable(mabel_);
  connect(mabel_, &MabelPanel::hopToggled, this, &RobotPanel::hopControllerToggled);
  connect(apply_, &QPushButton::clicked, this, [this] {
    if (!edited_) return;
    dirty_ = false;
    apply_->setEnabled(false);
    emit applyRequested(std::make_shared<const RobotModel>(*edited_));
  });
  connect(save, &QPushButton::clicked, this, &RobotPanel::saveFile);
  connect(load, &QPushButton::clicked, this, &RobotPanel::loadFile);
}

void RobotPanel::setRobot(std::shared_ptr<const RobotModel> model, const std::vector<std::string>& columns) {
  model_ = std::move(model);
  edited_ = std::make_unique<RobotModel>(*model_);
  dirty_ = false;
  // The robot file's values, read again once per file: after Apply the model differs from them.
  if (model_->source_file != defaults_source_) {
    defaults_source_ = model_->source_file;
    file_defaults_.clear();
    RobotModel file = *model_;
    try {
      file = loadRobotFile(model_->source_file);
    } catch (const std::exception&) {  // not a file (built in code, tests): its own values
    }
    for (const ModelParameter& p : modelParameters(file)) file_defaults_[p.name] = p.value;
  }
  apply_->setEnabled(false);
  title_->setText(tr("<b>%1</b> — %2 kg, %3 links, %4 movable joints<br><small>%5</small>")
                      .arg(QString::fromStdString(model_->name))
                      .arg(model_->totalMass_kg(), 0, 'f', 3)
                      .arg(model_->links.size())
                      .arg(model_->movableJoints().size())
                      .arg(shownPath(QString::fromStdString(model_->source_file)).toHtmlEscaped()));
  title_->setToolTip(QString::fromStdString(model_->source_file));
  const auto movable = model_->movableJoints();
  joints_->setRowCount(static_cast<int>(movable.size()));
  joint_cols_.clear();
  for (int r = 0; r < static_cast<int>(movable.size()); ++r) {
    const std::string& name = model_->joints[static_cast<std::size_t>(movable[r])].name;
    joints_->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(name)));
    for (int c = 1; c < 4; ++c) {
      auto* it = new QTableWidgetItem(QStringLiteral("-"));
      it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      joints_->setItem(r, c, it);
    }
    joint_cols_.push_back({indexOf(columns, name + "/q_target_rad"), indexOf(columns, name + "/q_rad"),
                           indexOf(columns, name + "/tau_Nm")});
  }
  fillParameters();
  drive_->setModel(*edited_);
  if (const int k = tabs_->indexOf(keyframes_); k >= 0) tabs_->removeTab(k);  // it was the previous robot's
  // The BIOLOID's servo gains get their own tab, raised when such a robot is loaded.
  const int at = tabs_->indexOf(servos_);
  if (servos_->fill(*edited_)) {
    if (at < 0) tabs_->addTab(servos_, tr("Servos"));
    tabs_->setCurrentWidget(servos_);
  } else if (at >= 0) {
    tabs_->removeTab(at);
  }
  // MABEL's transmission, ground and hopping controller: their own tab, raised on load.
  const int mat = tabs_->indexOf(mabel_);
  if (mabel_->fill(*edited_)) {
    if (mat < 0) tabs_->addTab(mabel_, tr("MABEL"));
    tabs_->setTabToolTip(tabs_->indexOf(mabel_), mabel_->legTable()->toolTip());
    mabel_->setColumns(columns);
    mabel_->setHopChecked(std::find(columns.begin(), columns.end(), "hop/phase") != columns.end());
    tabs_->setCurrentWidget(mabel_);
  } else if (mat >= 0) {
    tabs_->removeTab(mat);
  }
}

bool RobotPanel::mabelTabShown() const { return tabs_->indexOf(mabel_) >= 0; }

bool RobotPanel::servoTabShown() const { return tabs_->indexOf(servos_) >= 0; }

bool RobotPanel::keyframeTabShown() const { return tabs_->indexOf(keyframes_) >= 0; }

void RobotPanel::setController(const KeyframeController& c) {
  keyframes_->showController(c);
  if (tabs_->indexOf(keyframes_) < 0) tabs_->addTab(keyframes_, tr("Keyframes"));
  tabs_->setTabToolTip(tabs_->indexOf(keyframes_), keyframes_->toolTip());
  tabs_->setCurrentWidget(keyframes_);
}

void RobotPanel::refillLater() {
  // Not from inside the table's or tree's own itemChanged: rebuild once control returns.
  QTimer::singleShot(0, this, [this] {
    if (!edited_) return;
    fillParameters();
    servos_->fill(*edited_);
    if (mabelTabShown()) mabel_->fill(*edited_);
  });
}

bool RobotPanel::applyEdit(const std::string& name, double value) {
  if (!edited_) return false;
  try {
    setModelParameter(*edited_, name, value);
  } catch (const InputError& e) {
    emit errorOccurred(tr("Bad parameter value"), QString::fromStdString(e.what()));
    return false;
  }
  dirty_ = true;
  apply_->setEnabled(true);
  drive_->setModel(*edited_);  // the envelope follows the pending edit
  return true;
}

void RobotPanel::showRow(const std::vector<double>& row) {
  auto cell = [&](int col, double scale, int decimals) {
    return col >= 0 && static_cast<std::size_t>(col) < row.size() ? QString::number(row[col] * scale, 'f', decimals)
                                                                  : QStringLiteral("-");
  };
  constexpr double kDeg = 180.0 / std::numbers::pi;
  for (int r = 0; r < static_cast<int>(joint_cols_.size()); ++r) {
    joints_->item(r, 1)->setText(cell(joint_cols_[r].target, kDeg, 1));
    joints_->item(r, 2)->setText(cell(joint_cols_[r].measured, kDeg, 1));
    joints_->item(r, 3)->setText(cell(joint_cols_[r].torque, 1.0, 3));
  }
  if (mabelTabShown()) mabel_->showRow(row);
}

void RobotPanel::fillParameters() {
  filling_ = true;
  const TreeViewState state = saveTreeState(*params_);
  params_->clear();
  std::map<QString, QTreeWidgetItem*> groups;
  for (const ModelParameter& p : modelParameters(*edited_)) {
    const QString name = QString::fromStdString(p.name);
    const int slash = name.indexOf('/');
    const QString group = name.left(slash);
    auto it = groups.find(group);
    if (it == groups.end()) {
      auto* g = new QTreeWidgetItem(params_, {group});
      it = groups.emplace(group, g).first;
    }
    auto* item = new QTreeWidgetItem(it->second, {name.mid(slash + 1), QString::number(p.value, 'g', 10)});
    item->setData(0, kNameRole, name);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    const QString tip = name +
                        (p.unit.empty() ? QString() : QStringLiteral(" [%1]").arg(QString::fromStdString(p.unit))) +
                        (p.description.empty() ? QString() : "\n" + QString::fromStdString(p.description));
    item->setToolTip(0, tip);
    item->setToolTip(1, tip);
    markChanged(item, p.value, file_defaults_, p.name);
  }
  summarizeGroups(*params_);
  restoreTreeState(*params_, state);
  filterTree(*params_, param_filter_->text(), kNameRole);
  filling_ = false;
}

void RobotPanel::onItemChanged(QTreeWidgetItem* item, int column) {
  if (filling_ || column != 1 || !edited_) return;
  const std::string name = item->data(0, kNameRole).toString().toStdString();
  if (name.empty()) return;
  bool ok = false;
  const double v = item->text(1).toDouble(&ok);
  if (!ok) {
    emit errorOccurred(
        tr("Bad parameter value"),
        QString::fromStdString(InputError("", 0, name, "not a number: '" + item->text(1).toStdString() + "'").what()));
    refillLater();
    return;
  }
  if (!applyEdit(name, v)) {
    refillLater();
    return;
  }
  filling_ = true;  // the marks below change the item again
  markChanged(item, v, file_defaults_, name);
  summarizeGroups(*params_);
  filling_ = false;
  // A group value changes its joints' values: the servo table shows them (the tree keeps the bold mark).
  if (servoTabShown())
    QTimer::singleShot(0, this, [this] {
      if (edited_) servos_->fill(*edited_);
    });
}

void RobotPanel::editParameter(const std::string& name, double value) {
  for (QTreeWidgetItemIterator it(params_); *it; ++it)
    if ((*it)->data(0, kNameRole).toString().toStdString() == name) {
      (*it)->setText(1, QString::number(value, 'g', 17));
      return;
    }
  emit errorOccurred(tr("Bad parameter"), QString::fromStdString(name) + tr(": unknown parameter"));
}

void RobotPanel::saveFile() {
  if (!edited_) return;
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save parameters"), QString::fromStdString(edited_->name) + "_params.csv",
                                   tr("Parameter files (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  try {
    saveParameterFile(path.toStdString(), *edited_);
  } catch (const InputError& e) {
    emit errorOccurred(tr("Cannot save parameters"), QString::fromStdString(e.what()));
  }
}

void RobotPanel::loadFile() {
  if (!edited_) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Load parameters"), QString(),
                                                    tr("Parameter files (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  try {
    loadParameterFile(path.toStdString(), *edited_);
    dirty_ = true;
    apply_->setEnabled(true);
    fillParameters();
    servos_->fill(*edited_);
    if (mabelTabShown()) mabel_->fill(*edited_);
    drive_->setModel(*edited_);
  } catch (const InputError& e) {
    emit errorOccurred(tr("Bad parameter file"), QString::fromStdString(e.what()));
  }
}

}  // namespace gapsim::gui
