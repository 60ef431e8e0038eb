// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/marked_slider.h"

#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionSlider>
#include <algorithm>

namespace gapsim::gui {
namespace {

/// Where the style lets the handle's centre go: from x0 (the handle at one end) over span pixels.
struct Track {
  int x0 = 0;
  int span = 0;
};

Track trackOf(const QSlider& s, const QStyleOptionSlider& opt) {
  const QRect groove = s.style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, &s);
  const QRect handle = s.style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, &s);
  return {groove.left() + handle.width() / 2, std::max(0, groove.width() - handle.width())};
}

}  // namespace

void MarkedSlider::setMarks(const std::vector<Mark>& marks) {
  marks_ = marks;
  update();
}

int MarkedSlider::markX(int value) const {
  QStyleOptionSlider opt;
  initStyleOption(&opt);
  const Track t = trackOf(*this, opt);
  return t.x0 + QStyle::sliderPositionFromValue(minimum(), maximum(), value, t.span, opt.upsideDown);
}

int MarkedSlider::valueAt(int x) const {
  QStyleOptionSlider opt;
  initStyleOption(&opt);
  const Track t = trackOf(*this, opt);
  return QStyle::sliderValueFromPosition(minimum(), maximum(), x - t.x0, t.span, opt.upsideDown);
}

void MarkedSlider::mousePressEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) {
    QStyleOptionSlider opt;
    initStyleOption(&opt);
    const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
    // On the track: jump there; QSlider then sees a press on the handle and drags from it.
    if (!handle.contains(e->position().toPoint())) setValue(valueAt(static_cast<int>(e->position().x())));
  }
  QSlider::mousePressEvent(e);
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
