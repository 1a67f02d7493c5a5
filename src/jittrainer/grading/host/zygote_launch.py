"""Start the fork server without CAP_SYS_PTRACE: drop it from the capability bounding set, then ``execve``.

The host runs this as a plain file (``python -I -S zygote_launch.py -- PYTHON -m ...zygote ...``), so it imports only
the standard library and ``procs`` beside it. Capabilities are recomputed only at exec: dropping the bit in the host
itself would not take it from a forked child, and a fork server that held it would hand it to every job. With the
bit gone from the bounding set, no process below — fork server, supervisor, worker, anything a job starts, as root
or not — can hold CAP_SYS_PTRACE, so none can read the host's memory or descriptors through ``/proc``.
"""

from __future__ import annotations

import os
import sys

if __package__:
    from jittrainer.grading.host import procs
else:  # run by the host as a plain file: procs.py sits beside this one
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import procs  # type: ignore[no-redef]


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "--":
        print("usage: zygote_launch.py -- PROGRAM ARGV...", file=sys.stderr)
        return 2
    procs.prctl(procs.PR_CAPBSET_DROP, procs.CAP_SYS_PTRACE)  # EPERM without CAP_SETPCAP: then it had none
    os.execv(argv[1], argv[1:])
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
