"""What the robot remembers: JANUS's memory store and RoBee's failure experience.

The memory store keeps recent history, core facts and an archive in SQLite; the failure
experience keeps what failed and the fix that worked.
"""
