// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/marked_slider.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOptionSlider>

namespace gapsim::gui {

void MarkedSlider::setMarks(const std::vector<Mark>& marks) {
  marks_ = marks;
  update();
}

int MarkedSlider::markX(int value) const {
  QStyleOptionSlider opt;
  initStyleOption(&opt);
  const QRect groove = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
  const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
  const int span = groove.width() - handle.width();
  return groove.left() + handle.width() / 2 +
         QStyle::sliderPositionFromValue(minimum(), maximum(), value, std::max(0, span), opt.upsideDown);
}

void MarkedSlider::paintEvent(QPaintEvent* e) {
  QSlider::paintEvent(e);
  if (marks_.empty()) return;
  QPainter p(this);
  for (const Mark& m : marks_) {
    if (m.value < minimum() || m.value > maximum()) continue;
    const int x = markX(m.value);
    p.fillRect(QRect(x - 1, 1, 3, height() - 2), m.color);
  }
}

}  // namespace gapsim::gui
