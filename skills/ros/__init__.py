"""Skills over ROS 2.

The names and QoS of the interfaces, conversions to and from ``cogtree_interfaces``
messages, the executor (an ``ExecuteSkill`` action client), the people channel (a
``DelegateTask`` action client), the command routes and the belief kept from a robot's
trusted observations.
"""
