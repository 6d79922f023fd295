"""Trees as BehaviorTree.CPP XML.

The loader, its checks and values, the node registry read from the code, the generated node
catalogue, the export back to XML and the comparison of two trees (:mod:`.tree_twins`).
"""
