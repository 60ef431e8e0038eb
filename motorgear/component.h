// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// What every stateful motorgear component has (a plain Params, a plain State, step()): read
/// access to its parameters and its state, write access to the state (snapshots restore it), and
/// reset() to the state of a new component. A component declares `Params params_{}` and
/// `State state_{}`, derives from Component<Self> and befriends it; the accessors are written once
/// here. Their return types are deduced: Params and State are nested in the component, which is
/// still incomplete where it names its base.

namespace gapsim::motorgear {

template <class Self>
class Component {
 public:
  /// The parameters it runs with (its constructor validated them).
  const auto& params() const { return self().params_; }
  /// What step() advances and a snapshot saves.
  const auto& state() const { return self().state_; }
  auto& state() { return self().state_; }
  /// Back to the state of a new component.
  void reset() { self().state_ = {}; }

 protected:
  Component() = default;

 private:
  const Self& self() const { return static_cast<const Self&>(*this); }
  Self& self() { return static_cast<Self&>(*this); }
};

}  // namespace gapsim::motorgear
