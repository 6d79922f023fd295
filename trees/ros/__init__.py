"""The assistant tree as a ROS 2 node.

The host, its tick gate, starting rclpy for a command and following a robot's tree snapshots.
rclpy is imported only by the modules that need it.
"""
