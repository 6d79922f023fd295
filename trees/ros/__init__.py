"""The assistant tree as a ROS 2 node.

The host, its lifecycle node, its request tickets, its tick gate and inbox, the typed tree
snapshot, starting rclpy for a command and following a robot's tree snapshots. rclpy is
imported only by the modules that need it.
"""
