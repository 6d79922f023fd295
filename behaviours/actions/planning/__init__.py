"""Planning actions: plan a task, run the plan step by step, recover and learn."""
