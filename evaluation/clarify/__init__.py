"""Ask-or-act on the clarification sets (KnowNo, AmbiK), plain and calibrated."""
