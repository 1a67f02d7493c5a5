"""The course as data: topics, exercises and drill cards, loaded and checked, never run here (no jax)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jittrainer.course.exercises import Exercise, ExerciseNotFound, default_root, find_exercise, load_exercises
from jittrainer.course.topics import Topic, load_topics


@dataclass
class Course:
    root: Path
    topics: dict[str, Topic] = field(default_factory=dict)
    exercises: list[Exercise] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # course-wide: topics.toml

    @property
    def available(self) -> list[Exercise]:
        return [ex for ex in self.exercises if ex.available]

    def find(self, key: str) -> Exercise:
        return find_exercise(self.exercises, key)

    def get(self, exercise_id: str) -> Exercise | None:
        return next((ex for ex in self.exercises if ex.id == exercise_id), None)

    def topic_title(self, topic_id: str, lang: str | None = None) -> str:
        from jittrainer.i18n import language

        topic = self.topics.get(topic_id)
        return topic.title_in(lang or language()) if topic else topic_id

    def next_after(self, exercise: Exercise, direction: int = 1) -> Exercise | None:
        """The next (or previous) available exercise in course order."""
        later = [ex for ex in self.available if (ex.number - exercise.number) * direction > 0]
        if not later:
            return None
        return later[0] if direction > 0 else later[-1]


def load_course(root: Path | None = None) -> Course:
    """Topics and exercises under ``root`` (default: the bundled course). An exercise whose topic is not in
    ``topics.toml`` is unavailable, naming the problem; exercises keep course order (folder numbers)."""
    root = (Path(root) if root is not None else default_root()).expanduser().resolve()
    course = Course(root)
    if not root.is_dir():
        return course
    course.exercises = load_exercises(root)
    if (root / "topics.toml").is_file():
        course.topics = load_topics(root, course.problems)
        for ex in course.exercises:
            if ex.topic and course.topics and ex.topic not in course.topics:
                ex.problems.append(f"{ex.dir.name}/manifest.toml: topic: {ex.topic!r} is not a topic in topics.toml "
                                   f"(known: {', '.join(course.topics)})")
    return course


__all__ = ["Course", "Exercise", "ExerciseNotFound", "Topic", "find_exercise", "load_course", "load_exercises"]
