"""RoBee's ReAct planner, the baseline the gated tree is measured against."""
