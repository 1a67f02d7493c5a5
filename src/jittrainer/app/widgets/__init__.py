"""The trainer's widgets: the exercise list, the lesson (task, hints, explanation), the draft editor, the verdict."""
