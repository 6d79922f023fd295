"""Skills over ROS 2.

The payload protocol, JSON topics, the executor adapter, the people channel, the command
routes and the belief kept from a robot's observations.
"""
