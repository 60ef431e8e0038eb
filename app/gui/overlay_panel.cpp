// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/overlay_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "app/gui/overlay_mapping.h"

namespace gapsim::gui {

namespace {
constexpr double kMaxOffset_s = 10.0;
constexpr double kSliderStep_s = 0.01;
constexpr double kAlignGrid_s = 0.01;
}  // namespace

std::vector<std::string> sharedColumns(const SignalStore& store, int id) {
  std::vector<std::string> out;
  const SignalSource* sim = store.source(SignalStore::kSimulation);
  const SignalSource* o = store.source(id);
  if (!sim || !o || id == SignalStore::kSimulation) return out;
  for (const std::string& c : o->columns)
    if (sim->columnIndex(c) >= 0) out.push_back(c);
  return out;
}

std::vector<std::string> rmsRows(const SignalStore& store, int id) {
  std::vector<std::string> rows = sharedColumns(store, id);
  const SignalSource* sim = store.source(SignalStore::kSimulation);
  const std::string key = sim ? tiltColumn(sim->columns) : std::string();
  auto it = std::find(rows.begin(), rows.end(), key);
  if (it != rows.end()) std::rotate(rows.begin(), it, it + 1);
  return rows;
}

RmsDifference overlayRms(const SignalStore& store, int id, const std::string& column) {
  const auto a = store.signal({SignalStore::kSimulation, column});
  const auto b = store.signal({id, column});
  if (!a || !b) return {std::nan(""), 0};
  return rmsDifference(*a, *b, store.offset(id));
}

std::optional<OffsetEstimate> overlayAlignment(const SignalStore& store, int id, const std::string& column) {
  const auto a = store.signal({SignalStore::kSimulation, column});
  const auto b = store.signal({id, column});
  if (!a || !b) return std::nullopt;
  return estimateOffset(*a, *b, kAlignGrid_s, kMaxOffset_s, 0.5);
}

OverlayPanel::OverlayPanel(SignalStore* store, QWidget* parent) : QWidget(parent), store_(store) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* grid = new QGridLayout;
  overlays_ = new QComboBox;
  remove_ = new QPushButton(tr("Remove"));
  grid->addWidget(new QLabel(tr("log")), 0, 0);
  grid->addWidget(overlays_, 0, 1, 1, 2);
  grid->addWidget(remove_, 0, 3);
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setRange(static_cast<int>(-kMaxOffset_s / kSliderStep_s), static_cast<int>(kMaxOffset_s / kSliderStep_s));
  offset_box_ = new QDoubleSpinBox;
  offset_box_->setRange(-kMaxOffset_s, kMaxOffset_s);
  offset_box_->setDecimals(3);
  offset_box_->setSingleStep(kSliderStep_s);
  offset_box_->setSuffix(" s");
  grid->addWidget(new QLabel(tr("offset")), 1, 0);
  grid->addWidget(slider_, 1, 1, 1, 2);
  grid->addWidget(offset_box_, 1, 3);
  align_signal_ = new QComboBox;
  align_signal_->setToolTip(tr("Signal whose cross-correlation with the simulation sets the offset"));
  align_ = new QPushButton(tr("Align"));
  grid->addWidget(new QLabel(tr("align on")), 2, 0);
  grid->addWidget(align_signal_, 2, 1, 1, 2);
  grid->addWidget(align_, 2, 3);
  grid->setColumnStretch(1, 1);
  layout->addLayout(grid);
  status_ = new QLabel(tr("Open a recorded log (File > Open Log Overlay, or drop a CSV) to compare it."));
  status_->setWordWrap(true);
  layout->addWidget(status_);
  rms_ = new QTableWidget(0, 3);
  rms_->setHorizontalHeaderLabels({tr("signal"), tr("RMS sim - log"), tr("samples")});
  rms_->verticalHeader()->hide();
  rms_->verticalHeader()->setDefaultSectionSize(18);
  rms_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  rms_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(rms_, 1);

  connect(overlays_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) selectOverlay(overlays_->itemData(i).toInt());
  });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (!syncing_ && current_ >= 0) store_->setOffset(current_, v * kSliderStep_s);
  });
  connect(offset_box_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (!syncing_ && current_ >= 0) store_->setOffset(current_, v);
  });
  connect(align_, &QPushButton::clicked, this, [this] { alignCurrent(); });
  connect(remove_, &QPushButton::clicked, this, [this] {
    if (current_ >= 0) emit removeRequested(current_);
  });
  connect(store_, &SignalStore::sourcesChanged, this, &OverlayPanel::rebuildList);
  connect(store_, &SignalStore::offsetChanged, this, [this](int id) {
    if (id == current_) showOffset();
    rms_dirty_ = true;
  });
  connect(store_, &SignalStore::dataAppended, this, [this] { rms_dirty_ = true; });
  connect(&timer_, &QTimer::timeout, this, [this] {
    if (rms_dirty_) updateRms();
  });
  timer_.start(500);
  rebuildList();
}

void OverlayPanel::rebuildList() {
  const int keep = current_;
  syncing_ = true;
  overlays_->clear();
  for (int id : store_->overlayIds()) overlays_->addItem(store_->source(id)->name, id);
  syncing_ = false;
  const auto ids = store_->overlayIds();
  const bool has = !ids.empty();
  for (QWidget* w : std::initializer_list<QWidget*>{overlays_, slider_, offset_box_, align_signal_, align_, remove_})
    w->setEnabled(has);
  if (!has) {
    current_ = -1;
    rms_->setRowCount(0);
    return;
  }
  selectOverlay(std::find(ids.begin(), ids.end(), keep) != ids.end() ? keep : ids.back());
}

void OverlayPanel::selectOverlay(int id) {
  if (!store_->source(id) || id == SignalStore::kSimulation) return;
  current_ = id;
  const int idx = overlays_->findData(id);
  if (idx >= 0 && overlays_->currentIndex() != idx) overlays_->setCurrentIndex(idx);
  const QString prev = align_signal_->currentText();
  align_signal_->clear();
  const auto shared = sharedColumns(*store_, id);
  int pick = -1;
  for (const std::string& c : shared) {
    align_signal_->addItem(QString::fromStdString(c));
    if (pick < 0 && c.find("pitch_rad") != std::string::npos) pick = align_signal_->count() - 1;
  }
  const int again = align_signal_->findText(prev);
  align_signal_->setCurrentIndex(again >= 0 ? again : std::max(0, pick));
  showOffset();
  updateRms();
}

void OverlayPanel::showOffset() {
  syncing_ = true;
  const double o = store_->offset(current_);
  slider_->setValue(static_cast<int>(std::lround(o / kSliderStep_s)));
  offset_box_->setValue(o);
  syncing_ = false;
}

bool OverlayPanel::alignCurrent(const std::string& column) {
  if (current_ < 0) return false;
  const std::string col = column.empty() ? align_signal_->currentText().toStdString() : column;
  if (col.empty()) {
    status_->setText(tr("No signal in common with the simulation: nothing to align on."));
    return false;
  }
  // The box names the signal the offset comes from, also when it was given here.
  if (const int i = align_signal_->findText(QString::fromStdString(col)); i >= 0) align_signal_->setCurrentIndex(i);
  const auto e = overlayAlignment(*store_, current_, col);
  if (!e) {
    status_->setText(
        tr("Cannot align on %1: too little overlap or a constant signal.").arg(QString::fromStdString(col)));
    return false;
  }
  store_->setOffset(current_, std::clamp(e->offset_s, -kMaxOffset_s, kMaxOffset_s));
  // Said both ways: the lag (what a user looks for) and the offset the slider now shows. A log
  // shown with offset o reads log(t - o), so a log that lags by d needs o = -d.
  const double lag_s = -e->offset_s;
  status_->setText(tr("Aligned on %1: the log %2 the simulation by %3 s (offset %4 s; correlation %5 over %6 samples).")
                       .arg(QString::fromStdString(col))
                       .arg(lag_s >= 0 ? tr("lags") : tr("leads"))
                       .arg(std::abs(lag_s), 0, 'f', 3)
                       .arg(e->offset_s, 0, 'f', 3)
                       .arg(e->correlation, 0, 'f', 3)
                       .arg(e->samples));
  return true;
}

void OverlayPanel::updateRms() {
  rms_dirty_ = false;
  if (current_ < 0) return;
  const auto shared = rmsRows(*store_, current_);
  rms_->setRowCount(static_cast<int>(shared.size()));
  for (int r = 0; r < static_cast<int>(shared.size()); ++r) {
    const RmsDifference d = overlayRms(*store_, current_, shared[r]);
    auto set = [&](int c, const QString& text) {
      QTableWidgetItem* it = rms_->item(r, c);
      if (!it) rms_->setItem(r, c, it = new QTableWidgetItem);
      it->setText(text);
      if (c) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    };
    set(0, QString::fromStdString(shared[r]));
    set(1, d.samples ? QString::number(d.rms, 'g', 4) : QStringLiteral("-"));
    set(2, QString::number(d.samples));
  }
}

QString OverlayPanel::statusText() const { return status_->text(); }

QString OverlayPanel::alignSignal() const { return align_signal_->currentText(); }

bool OverlayPanel::setAlignSignal(const QString& column) {
  const int i = align_signal_->findText(column);
  if (i >= 0) align_signal_->setCurrentIndex(i);
  return i >= 0;
}

}  // namespace gapsim::gui
