"""Grading: the verdict model, the channel between host and sandbox, and the limits every grade runs under."""
