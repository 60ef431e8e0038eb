// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/drive_curve_panel.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "app/gui/flat_chart.h"
#include "sim/input_error.h"

namespace gapsim::gui {

namespace {

QLineSeries* line(const QColor& c, double width) {
  auto* s = new QLineSeries;
  s->setPen(QPen(c, width));
  return s;
}

QAreaSeries* shade(QLineSeries* top, QLineSeries* bottom) {
  auto* a = new QAreaSeries(top, bottom);
  a->setBrush(QColor(253, 232, 216));
  a->setPen(Qt::NoPen);
  return a;
}

}  // namespace

DriveCurvePanel::DriveCurvePanel(QWidget* parent)
    : QWidget(parent),
      joints_(new QComboBox),
      status_(new QLabel),
      view_(new QChartView),
      chart_(new QChart),
      ax_(new QCategoryAxis),
      ay_(new QCategoryAxis),
      upper_(line(QColor(31, 78, 156), 2.5)),
      lower_(line(QColor(176, 36, 24), 2.5)),
      shade2_top_(new QLineSeries),
      shade2_bottom_(new QLineSeries),
      shade4_top_(new QLineSeries),
      shade4_bottom_(new QLineSeries),
      shade2_(shade(shade2_top_, shade2_bottom_)),
      shade4_(shade(shade4_top_, shade4_bottom_)),
      marks_(new QScatterSeries) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  joints_->setToolTip(tr("the joint whose drive is swept (the drive that runs for it, with the pending edits)"));
  layout->addWidget(joints_);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);
  makeFlat(chart_, QMargins(2, 0, 8, 0));
  chart_->legend()->setAlignment(Qt::AlignBottom);
  QFont f = chart_->legend()->font();
  f.setPointSizeF(7.5);
  chart_->legend()->setFont(f);
  QFont tf = f;
  tf.setBold(true);
  chart_->setTitleFont(tf);
  // Short titles and untruncated labels: the dock is narrow.
  ax_->setTitleText(tr("qd (rad/s)"));
  ay_->setTitleText(tr("τ (N m)"));
  for (QCategoryAxis* a : {ax_, ay_}) {
    a->setTitleFont(f);
    a->setLabelsFont(f);
    a->setTruncateLabels(false);
    a->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    chart_->addAxis(a, a == ax_ ? Qt::AlignBottom : Qt::AlignLeft);
  }
  shade2_->setName(tr("backdriven"));
  upper_->setName(tr("τ max"));
  lower_->setName(tr("τ min"));
  marks_->setName(tr("stall, no-load"));
  marks_->setMarkerSize(8);
  marks_->setColor(Qt::black);
  marks_->setBorderColor(Qt::black);
  for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{shade2_, shade4_, upper_, lower_, marks_}) {
    chart_->addSeries(s);
    s->attachAxis(ax_);
    s->attachAxis(ay_);
  }
  chart_->legend()->markers(shade4_).front()->setVisible(false);  // one legend entry for both quadrants
  view_->setChart(chart_);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(220);
  view_->setToolTip(
      tr("τ max(qd): the most torque the drive puts on the joint pushing up; τ min(qd): pushing down. "
         "Shaded: backdriven (the load does work on the drive). Dots: stall torques and no-load rates."));
  layout->addWidget(view_, 1);
  connect(joints_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
}

void DriveCurvePanel::setModel(const RobotModel& model) {
  model_ = std::make_unique<RobotModel>(model);
  const QString keep = joints_->currentText();
  {
    const QSignalBlocker block(joints_);
    joints_->clear();
    for (int ji : model_->movableJoints())
      joints_->addItem(QString::fromStdString(model_->joints[static_cast<std::size_t>(ji)].name));
    const int at = joints_->findText(keep);
    joints_->setCurrentIndex(at >= 0 ? at : 0);
  }
  if (isVisible())
    redraw();
  else
    stale_ = true;
}

void DriveCurvePanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) redraw();
}

bool DriveCurvePanel::showJoint(const std::string& joint) {
  const int at = joints_->findText(QString::fromStdString(joint));
  if (at < 0) return false;
  if (at == joints_->currentIndex())
    redraw();
  else
    joints_->setCurrentIndex(at);
  return true;
}

void DriveCurvePanel::redraw() {
  stale_ = false;
  curve_.reset();
  for (QLineSeries* s : {upper_, lower_, shade2_top_, shade2_bottom_, shade4_top_, shade4_bottom_}) s->clear();
  marks_->clear();
  chart_->setTitle(QString());
  if (!model_ || joints_->currentIndex() < 0) {
    status_->setText(tr("no robot"));
    return;
  }
  calib::DriveCurveOptions o;
  o.joint = joints_->currentText().toStdString();
  try {
    curve_ = calib::driveCurve(*model_, o);
  } catch (const InputError& e) {  // a joint without an envelope of its own: say why
    status_->setText(QString::fromStdString(e.what()));
    return;
  } catch (const std::exception& e) {
    status_->setText(tr("cannot sweep this drive: %1").arg(QString::fromStdString(e.what())));
    return;
  }
  const calib::DriveCurve& c = *curve_;
  double tmax = 0, vmax = 0;
  QList<QPointF> up, lo;
  for (const auto& p : c.points) {
    up.append({p.qd_rad_s, p.upper.tau_Nm});
    lo.append({p.qd_rad_s, p.lower.tau_Nm});
    tmax = std::max({tmax, std::abs(p.upper.tau_Nm), std::abs(p.lower.tau_Nm)});
    vmax = std::max(vmax, std::abs(p.qd_rad_s));
  }
  const double ty = tmax > 0 ? 1.1 * tmax : 1.0, vx = vmax > 0 ? vmax : 1.0;
  upper_->replace(up);
  lower_->replace(lo);
  shade2_top_->replace(QList<QPointF>{{-vx, ty}, {0, ty}});
  shade2_bottom_->replace(QList<QPointF>{{-vx, 0}, {0, 0}});
  shade4_top_->replace(QList<QPointF>{{0, 0}, {vx, 0}});
  shade4_bottom_->replace(QList<QPointF>{{0, -ty}, {vx, -ty}});
  marks_->append(0, c.stall_max_Nm);
  marks_->append(0, c.stall_min_Nm);
  if (std::isfinite(c.no_load_max_rad_s)) marks_->append(c.no_load_max_rad_s, 0);
  if (std::isfinite(c.no_load_min_rad_s)) marks_->append(c.no_load_min_rad_s, 0);
  ax_->setRange(-vx, vx);
  ay_->setRange(-ty, ty);
  ax_->setStartValue(-vx);
  ay_->setStartValue(-ty);
  for (QCategoryAxis* a : {ax_, ay_}) {
    // Labels at k step through 0, two to four per half axis.
    const double half = a->max();
    const double raw = half / 2.5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
    for (const QString& l : a->categoriesLabels()) a->remove(l);
    const int n = static_cast<int>(std::floor(half / step + 1e-9));
    for (int k = -n; k <= n; ++k) a->append(k == 0 ? QStringLiteral("0") : QString::number(k * step, 'g', 4), k * step);
  }
  chart_->setTitle(tr("%1: %2").arg(QString::fromStdString(c.joint), QString::fromStdString(c.drive)));
  auto rate = [](double v) { return std::isfinite(v) ? QString::number(v, 'g', 3) + " rad/s" : QString("none"); };
  QString text = tr("stall %1 / %2 N m, no-load %3 / %4")
                     .arg(c.stall_max_Nm, 0, 'g', 4)
                     .arg(c.stall_min_Nm, 0, 'g', 4)
                     .arg(rate(c.no_load_max_rad_s), rate(c.no_load_min_rad_s));
  if (c.unsettled > 0) text += tr("; %1 points did not settle").arg(c.unsettled);
  status_->setText(text);
  status_->setToolTip(tr("pushing up / pushing down; the drive stepped with dt %1 s at each rate until its torque "
                         "settled (gapsim-cli drive-curve --robot ... --joint %2)")
                          .arg(c.dt_s)
                          .arg(QString::fromStdString(c.joint)));
}

}  // namespace gapsim::gui
