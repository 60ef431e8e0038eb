// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/plot_legend.h"

#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>

namespace gapsim::gui {

namespace {
constexpr double kStroke_px = 18, kGap_px = 4, kSpacing_px = 12;
}

PlotLegend::PlotLegend(QGraphicsItem* parent)
    : root_(new QGraphicsRectItem(parent)), title_(new QGraphicsSimpleTextItem(root_)) {
  root_->setPen(Qt::NoPen);
  root_->setZValue(1001);
  QFont f = title_->font();
  f.setPointSizeF(8);
  title_->setFont(f);
  title_->setBrush(QColor(110, 110, 110));
  title_->hide();
}

void PlotLegend::setTitle(const QString& title) {
  title_->setText(title);
  title_->setVisible(!title.isEmpty());
}

QString PlotLegend::title() const { return title_->isVisible() ? title_->text() : QString(); }

void PlotLegend::setEntries(const std::vector<Entry>& entries) {
  entries_ = entries;
  while (labels_.size() < entries_.size()) {
    strokes_.push_back(new QGraphicsLineItem(root_));
    auto* label = new QGraphicsSimpleTextItem(root_);
    QFont f = label->font();
    f.setPointSizeF(8);
    label->setFont(f);
    labels_.push_back(label);
  }
  for (std::size_t i = 0; i < labels_.size(); ++i) {
    const bool used = i < entries_.size();
    labels_[i]->setVisible(used);
    strokes_[i]->setVisible(used);
    if (!used) continue;
    QPen pen = entries_[i].pen;
    pen.setWidthF(std::max(2.0, pen.widthF()));
    strokes_[i]->setPen(pen);
  }
}

double PlotLegend::layout(double x0, double y0, double width) {
  rows_ = 0;
  if (entries_.empty()) return 0;
  const QFontMetricsF fm(labels_.front()->font());
  const double row_h = fm.height() + 2;
  double x = x0, y = y0;
  rows_ = 1;
  if (title_->isVisible()) {
    title_->setPos(x, y + 1);
    x += fm.horizontalAdvance(title_->text()) + kSpacing_px;
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    // Whole text if it fits the legend's width, else shortened at its start (the end names it).
    const double room = std::max(20.0, width - kStroke_px - kGap_px);
    const QString text = fm.horizontalAdvance(entries_[i].text) <= room
                             ? entries_[i].text
                             : fm.elidedText(entries_[i].text, Qt::ElideLeft, room);
    labels_[i]->setText(text);
    const double w = kStroke_px + kGap_px + fm.horizontalAdvance(text);
    if (x > x0 && x + w > x0 + width) {
      x = x0;
      y += row_h;
      ++rows_;
    }
    strokes_[i]->setLine(x, y + row_h / 2, x + kStroke_px, y + row_h / 2);
    labels_[i]->setPos(x + kStroke_px + kGap_px, y + 1);
    x += w + kSpacing_px;
  }
  return rows_ * row_h + 2;
}

QStringList PlotLegend::texts() const {
  QStringList out;
  for (std::size_t i = 0; i < entries_.size(); ++i) out << labels_[i]->text();
  return out;
}

}  // namespace gapsim::gui
