// Expansion of a profile into pack suites (written by the lead).
