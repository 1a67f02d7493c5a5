"""Grade wrong/ and alt files of given exercises; print the outcome; with --write, insert '# expect:' lines."""
import sys, zlib
sys.path.insert(0, "tests")
from pathlib import Path
from helpers import ALT, EXERCISES, exercise, grade_file
from jittrainer.course.expect import outcome, read_expectation, ExpectationMissing
from concurrent.futures import ThreadPoolExecutor
write = "--write" in sys.argv
ids = [a for a in sys.argv[1:] if not a.startswith("--")]
jobs = []
for i in ids:
    ex = exercise(i)
    for p in [*ex.wrong_paths, *sorted((ALT / ex.id).glob("*.py"))]:
        jobs.append((ex, p))
def run(job):
    ex, p = job
    seed = zlib.crc32(str(p.relative_to(EXERCISES.parent)).encode())
    v = grade_file(ex, p, seed=seed, warm=True)
    return ex, p, v
with ThreadPoolExecutor(2) as pool:
    for ex, p, v in pool.map(run, jobs):
        got = outcome(v)
        try:
            declared = read_expectation(p).value
        except ExpectationMissing:
            declared = None
        flag = "" if declared in (None, got) else f"   <-- declared {declared}"
        print(f"{ex.id:18} {p.parent.name}/{p.name:45} {got:22} {v.message[:150]}{flag}")
        if write and declared is None:
            text = p.read_text()
            lines = text.splitlines(True)
            at = 1 if lines and lines[0].startswith("#!") else 0
            lines.insert(at, f"# expect: {got}\n")
            p.write_text("".join(lines))
