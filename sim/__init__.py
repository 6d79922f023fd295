"""The symbolic world the robot is tested in: ground truth, people, disruptions, scenarios."""
