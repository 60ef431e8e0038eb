// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli info ROBOT: what the loader made of a robot file.
#include <cstdio>
#include <iostream>

#include "app/cli/commands.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim::cli {

namespace {
const char* typeName(JointType t) {
  switch (t) {
    case JointType::Revolute: return "revolute";
    case JointType::Continuous: return "continuous";
    case JointType::Prismatic: return "prismatic";
    case JointType::Fixed: return "fixed";
  }
  return "?";
}
}  // namespace

Action addInfo(CLI::App& app) {
  auto robot = std::make_shared<std::string>();
  app.add_option("robot", *robot, "nao, bioloid, mabel or a path to a robot file")->required();
  auto compiled = std::make_shared<bool>(false);
  app.add_flag("--compiled", *compiled,
               "also print what building the world decided: simulated bodies (merged links, mass, principal moments, "
               "armature) and every value that runs differently from the file's, with the reason");
  return [robot, compiled] {
    const RobotModel m = loadRobotFile(resolveRobotFile(*robot));
    std::printf("robot %s (%s)\n", m.name.c_str(), m.source_file.c_str());
    if (!m.source_text.empty()) std::printf("source: %s\n", m.source_text.c_str());
    for (const auto& w : m.warnings) std::printf("warning: %s\n", w.c_str());
    std::printf("base: %s, root link %s\n", m.fixed_base ? "fixed to the world" : "floating",
                m.links[m.root_link].name.c_str());
    std::printf("\nlinks (%zu):\n  %-22s %10s %8s\n", m.links.size(), "name", "mass_kg", "shapes");
    for (const Link& l : m.links)
      std::printf("  %-22s %10.5f %8zu\n", l.name.c_str(), l.has_inertial ? l.inertial.mass_kg : 0.0,
                  l.collisions.size());
    const auto movable = m.movableJoints();
    std::printf("\njoints (%zu, %zu movable):\n  %-18s %-10s %-16s %-16s %9s %9s %9s %9s  %s\n", m.joints.size(),
                movable.size(), "name", "type", "parent", "child", "lower_rad", "upper_rad", "effort_Nm",
                "vel_rad_s", "drivetrain");
    int dof = 0;
    for (const Joint& j : m.joints) {
      std::string drive = "-";
      if (j.movable()) {
        if (j.mimic.master >= 0) {
          drive = "coupled to " + m.joints[j.mimic.master].name + " (x" + std::to_string(j.mimic.multiplier) + ")";
        } else if (j.drive.kind == DriveKind::MoToFlex) {
          ++dof;
          const auto& p = j.drive.motoflex;
          char b[160];
          const std::string integ = p.gear.integrator == motorgear::Gear::Integrator::kExact
                                        ? std::string("exact")
                                        : std::to_string(p.gear.substeps) + " substeps";
          std::snprintf(b, sizeof b, "MoToFlex %s (sigma %.5g, %s gear, %s, friction %.3g N m)", j.drive.group.c_str(),
                        p.gear.sigma, p.gear.variant == motorgear::Gear::Variant::kCoupled ? "coupled" : "motoflex2011",
                        integ.c_str(), j.drive.dry_friction_Nm);
          drive = b;
        } else if (j.drive.kind == DriveKind::Dynamixel) {
          ++dof;
          const auto& p = j.drive.dynamixel;
          char b[128];
          std::snprintf(b, sizeof b, "Dynamixel (kp %.4g, kd %.4g, kc %.3g, clamp %.3g N m)", p.kp_Nm_rad, p.kd_Nm_s_rad,
                        p.kc_Nm, p.tau_max_Nm);
          drive = b;
        } else if (j.drive.kind == DriveKind::DynamixelVoltage) {
          ++dof;
          const auto& v = j.drive.voltage_servo;
          char b[200];
          std::snprintf(b, sizeof b, "Dynamixel voltage model (stall %.3g N m, no-load %.3g rad/s at %.3g V, %s friction, "
                        "armature %.3g kg m^2)", v.get("stall_torque"), v.get("no_load_speed"), v.drive.firmware.supply_V,
                        motorgear::frictionModelName(v.friction.model).c_str(), v.armature_kgm2);
          drive = b;
        } else if (j.drive.kind == DriveKind::Torque) {
          ++dof;
          drive = "torque-driven (" + (j.drive.group.empty() ? std::string("external") : j.drive.group) + ")";
        } else if (j.servo.fmax_Nm <= 0) {
          drive = "passive";
        } else {
          ++dof;
          char b[96];
          std::snprintf(b, sizeof b, "ideal servo (gain %.3g 1/s, fmax %.3g N m)", j.servo.gain_1_s, j.servo.fmax_Nm);
          drive = b;
        }
      }
      std::printf("  %-18s %-10s %-16s %-16s %9.4f %9.4f %9.4g %9.4g  %s\n", j.name.c_str(), typeName(j.type),
                  m.links[j.parent].name.c_str(), m.links[j.child].name.c_str(), j.has_limits ? j.lower : 0.0,
                  j.has_limits ? j.upper : 0.0, j.effort, j.velocity, drive.c_str());
    }
    std::printf("\ndegrees of freedom (actuated): %d\n", dof);
    for (const SoftLink& s : m.soft_links)
      std::printf("soft link %s: %d segments, D_B %.5g N m/rad, damping %.3g N m s/rad, friction %.3g N m\n",
                  m.links[s.link].name.c_str(), s.segments, s.D_B_Nm_rad, s.damping_Nms_rad, s.friction_Nm);
    std::printf("sensors: %zu imu, %zu foot contacts\n", m.imus.size(), m.foot_contacts.size());
    std::printf("solver: dt %.4g s, %s, %d iterations; contact mu %.3g\n", m.solver.dt_s,
                m.solver.quickstep ? "QuickStep" : "dWorldStep", m.solver.iterations, m.contact.mu);
    std::printf("total mass: %.6f kg\n", m.totalMass_kg());
    if (*compiled) {
      const Simulation sim(std::make_shared<const RobotModel>(m));
      const CompileReport& r = sim.compileReport();
      std::printf("\ncompiled: %s\nbodies (%zu):\n  %-22s %10s  %-32s %10s  %s\n", r.stepper.c_str(), r.bodies.size(), "name",
                  "mass_kg", "principal moments kg m^2", "armature", "links");
      for (const CompileReport::Body& b : r.bodies) {
        std::string links;
        for (const auto& l : b.links) links += (links.empty() ? "" : " ") + l;
        std::printf("  %-22s %10.5f  %10.3g %10.3g %10.3g %10.3g  %s\n", b.name.c_str(), b.mass_kg, b.principal_kgm2[0],
                    b.principal_kgm2[1], b.principal_kgm2[2], b.armature_kgm2, links.c_str());
      }
      std::printf("values that run differently from the file's (%zu):\n", r.changes.size());
      for (const CompileReport::Change& c : r.changes)
        std::printf("  %s: file %s -> runs as %s (%s)\n", c.item.c_str(), c.in_file.c_str(), c.compiled.c_str(),
                    c.why.c_str());
      return kExitOk;
    }
    if (m.solver.min_inertia_kgm2 > 0) {
      // What the world builder changes: build one world and list the bodies the floor raised.
      const Simulation sim(std::make_shared<const RobotModel>(m));
      const auto& changes = sim.inertiaFloorChanges();
      std::printf("inertia floor %.3g kg m^2 (solver min_inertia_kgm2): raises %zu of %d bodies\n",
                  m.solver.min_inertia_kgm2, changes.size(), sim.bodyCount());
      for (const InertiaFloorChange& c : changes)
        std::printf("  %-22s principal moments %.3g %.3g %.3g kg m^2 -> at least %.3g\n", c.body.c_str(),
                    c.principal_before_kgm2[0], c.principal_before_kgm2[1], c.principal_before_kgm2[2], c.floor_kgm2);
    }
    return kExitOk;
  };
}

}  // namespace gapsim::cli
