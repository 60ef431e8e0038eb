// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The playback scrubber: a horizontal QSlider that also draws coloured ticks at some of its
/// values (the frame of the run's fall or divergence), where the handle's centre would be. A click
/// on the track jumps to the value under the mouse (QSlider's own click moves one page only).

#include <QColor>
#include <QSlider>
#include <vector>

namespace gapsim::gui {

class MarkedSlider : public QSlider {
  Q_OBJECT
 public:
  struct Mark {
    int value = 0;  ///< slider value (frame index)
    QColor color;
  };
  explicit MarkedSlider(QWidget* parent = nullptr) : QSlider(Qt::Horizontal, parent) {}
  void setMarks(const std::vector<Mark>& marks);
  const std::vector<Mark>& marks() const { return marks_; }
  /// Widget x of a value's tick (the handle's centre at that value).
  int markX(int value) const;
  /// The value whose handle centre is nearest to widget x (the inverse of markX).
  int valueAt(int x) const;

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  std::vector<Mark> marks_;
};

}  // namespace gapsim::gui
