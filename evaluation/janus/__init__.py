"""JANUS's module evaluation: scope, intent, outer speech, CLINC150, the similarity study."""
