// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// A plot's legend drawn above its plot area, in as many rows as its entries need: each entry is a
/// short stroke in the curve's pen and its full text (Qt Charts' own legend keeps one row and cuts
/// every text's end, so "LKneePitch/q_rad" and "LKneePitch/q_target_rad" both read "LKneePitc...").
/// Only a text wider than the whole legend is shortened, at its start.

#include <QGraphicsRectItem>
#include <QPen>
#include <QString>
#include <vector>

class QGraphicsSimpleTextItem;
class QGraphicsLineItem;

namespace gapsim::gui {

class PlotLegend {
 public:
  struct Entry {
    QString text;
    QPen pen;
  };
  /// Its items are children of parent (the chart), which owns them.
  explicit PlotLegend(QGraphicsItem* parent);
  void setEntries(const std::vector<Entry>& entries);
  /// A grey text before the entries (the prefix the entries share, "LKneePitch/"); empty: none.
  void setTitle(const QString& title);
  QString title() const;
  /// Lays the entries out left to right from (x, y), wrapping at width px; returns the height
  /// used (0 without entries).
  double layout(double x, double y, double width);
  /// The texts as drawn.
  QStringList texts() const;
  int rows() const { return rows_; }

 private:
  QGraphicsRectItem* root_;
  QGraphicsSimpleTextItem* title_;
  std::vector<Entry> entries_;
  std::vector<QGraphicsLineItem*> strokes_;
  std::vector<QGraphicsSimpleTextItem*> labels_;
  int rows_ = 0;
};

}  // namespace gapsim::gui
