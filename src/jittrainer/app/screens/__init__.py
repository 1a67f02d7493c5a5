"""The trainer's screens: the main screen, the help screen (F1) and a yes/no confirmation."""
