"""Trees as BehaviorTree.CPP XML.

The loader, its checks and values, the node registry read from the code, the generated node
catalogue and the proof that the XML twins build the same trees as their Python factories.
"""
