"""The course as data: topics, exercises and drill cards, loaded and checked, never run here (no jax).

A course is the built-in exercises (or ``--exercises DIR`` in their place) followed by the packs the session asks
for (``course.packs``), each pack's exercises keyed ``<pack>:<id>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jittrainer.course.exercises import Exercise, ExerciseNotFound, default_root, find_exercise, load_exercises
from jittrainer.course.packs import FILE as PACK_FILE
from jittrainer.course.packs import Pack, load_pack
from jittrainer.course.topics import Topic, load_topics


@dataclass
class Course:
    root: Path
    topics: dict[str, Topic] = field(default_factory=dict)
    exercises: list[Exercise] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # course-wide: topics.toml
    packs: list[Pack] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # packs that could not be loaded, said once to the learner

    def pack(self, name: str) -> Pack | None:
        return next((p for p in self.packs if p.name == name), None)

    @property
    def available(self) -> list[Exercise]:
        return [ex for ex in self.exercises if ex.available]

    def typed_id(self, exercise: Exercise) -> str:
        """What a learner types to name ``exercise``: its own id when no other exercise has it, else its key."""
        if exercise.id == exercise.short_id or sum(ex.short_id == exercise.short_id for ex in self.exercises) == 1:
            return exercise.short_id
        return exercise.id

    def find(self, key: str) -> Exercise:
        return find_exercise(self.exercises, key)

    def get(self, exercise_id: str) -> Exercise | None:
        return next((ex for ex in self.exercises if ex.id == exercise_id), None)

    def topic_title(self, topic_id: str, lang: str | None = None) -> str:
        from jittrainer.i18n import language

        topic = self.topics.get(topic_id) or next((p.topics[topic_id] for p in self.packs if topic_id in p.topics),
                                                  None)
        return topic.title_in(lang or language()) if topic else topic_id

    def next_after(self, exercise: Exercise, direction: int = 1) -> Exercise | None:
        """The next (or previous) available exercise in course order (the course, then each pack)."""
        if exercise not in self.exercises:
            return None
        at = self.exercises.index(exercise)
        order = self.exercises[at + 1:] if direction > 0 else self.exercises[:at][::-1]
        return next((ex for ex in order if ex.available), None)


def load_course(root: Path | None = None, packs: list[Path] | tuple[Path, ...] = ()) -> Course:
    """Topics and exercises under ``root`` (default: the bundled course), then each pack folder in ``packs``. An
    exercise whose topic is not in ``topics.toml`` (or its pack's) is unavailable, naming the problem; exercises
    keep course order (folder numbers), the course's first and then each pack's."""
    root = (Path(root) if root is not None else default_root()).expanduser().resolve()
    course = Course(root)
    if root.is_dir():
        course.exercises = load_exercises(root)
        if (root / "topics.toml").is_file():
            course.topics = load_topics(root, course.problems)
            _check_topics(course.exercises, course.topics, "topics.toml")
    for folder in packs:
        _add_pack(course, Path(folder).expanduser().resolve())
    return course


def _add_pack(course: Course, folder: Path) -> None:
    if folder == course.root or any(p.dir == folder for p in course.packs):
        return  # named twice (the config and --pack): loaded once
    if not (folder / PACK_FILE).is_file():
        course.notices.append(f"{folder}: not a pack (no {PACK_FILE}); not loaded")
        return
    pack = load_pack(folder)
    other = course.pack(pack.name)
    if other is not None:
        course.notices.append(f"{folder}: the pack name {pack.name!r} is taken by {other.dir}; not loaded")
        return
    for topic_id in set(pack.topics) & set(course.topics):
        pack.problems.append(f"{folder.name}/topics.toml: topics.{topic_id}: the course has this topic already")
    known = {**course.topics, **pack.topics}
    _check_topics(pack.exercises, known, f"topics.toml of the course or of {folder.name}")
    course.packs.append(pack)
    course.exercises.extend(pack.exercises)


def _check_topics(exercises: list[Exercise], topics: dict[str, Topic], where: str) -> None:
    for ex in exercises:
        if ex.topic and topics and ex.topic not in topics:
            ex.problems.append(f"{ex.dir.name}/manifest.toml: topic: {ex.topic!r} is not a topic in {where} "
                               f"(known: {', '.join(topics)})")


__all__ = ["Course", "Exercise", "ExerciseNotFound", "Pack", "Topic", "find_exercise", "load_course", "load_exercises"]
