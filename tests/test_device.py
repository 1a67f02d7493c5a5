"""--device: the export in a CPU-only process, the executor's protocol (run for real on the CPU platform, and fakes
that fail), the choice of device, the ways it stays on the CPU, and the cache keys. No accelerator is needed: the
executor's code path is the same for "cpu" and "tpu" but for the platform it opens."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from helpers import clean_env, exercise
from jittrainer.grading import device_wire as wire
from jittrainer.grading import protocol
from jittrainer.grading.host import device, device_timing
from jittrainer.grading.host.device import DeviceExecutor, Executors, Unavailable, choose
from jittrainer.grading.host.review import ReferenceCache
from jittrainer.grading.host.timing_cache import StarterTimingCache
from jittrainer.grading.verdict import Timing, Verdict
from jittrainer.i18n.message import Msg
from jittrainer.session.settings import load_settings

EXPORT = textwrap.dedent("""
    import sys
    import jax, jax.numpy as jnp
    from jittrainer.grading.sandbox.device_export import export_call
    f = jax.jit(lambda x, y: jnp.tanh(x @ y) + 1.0)
    x = jnp.ones((8, 4), jnp.float32); y = jnp.ones((4, 2), jnp.float32)
    program, inputs = export_call(f, (x, y), {}, leaves=[x, y], platform=sys.argv[1])
    exported = jax.export.deserialize(bytearray(program))
    print(",".join(exported.platforms), len(inputs), file=sys.stderr)
    sys.stdout.buffer.write(program)
""")


def exported(platform: str) -> bytes:
    """A small program exported in a CPU-only process (no device opened) for ``platform``."""
    r = subprocess.run([sys.executable, "-c", EXPORT, platform], capture_output=True,
                       env=clean_env(JAX_PLATFORMS="cpu"), timeout=120)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert r.stderr.decode().split()[-2:] == [platform, "2"]
    return r.stdout


def npy(value: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, value, allow_pickle=False)
    return buffer.getvalue()


INPUTS = [npy(np.ones((8, 4), np.float32)), npy(np.ones((4, 2), np.float32))]


def test_a_jitted_function_exports_for_the_tpu_in_a_cpu_only_process():
    program = exported("tpu")
    assert 0 < len(program) < wire.MAX_PROGRAM_BYTES


# -- the choice of device ---------------------------------------------------------------------------------------

def test_cpu_is_todays_grading_and_starts_nothing():
    assert choose("cpu") == device.Choice("cpu", "")


def test_auto_without_a_tpu_runtime_is_the_cpu_with_the_reason(monkeypatch):
    monkeypatch.setattr(device, "tpu_runtime", lambda: False)
    choice = choose("auto")
    assert choice.platform == "" and "libtpu" in choice.reason


def test_auto_with_a_tpu_runtime_and_tpu_ask_for_the_tpu(monkeypatch):
    monkeypatch.setattr(device, "tpu_runtime", lambda: True)
    assert choose("auto").platform == "tpu"
    monkeypatch.setattr(device, "tpu_runtime", lambda: False)
    assert choose("tpu").platform == "tpu"  # said unavailable by the executor, with its reason
    with pytest.raises(ValueError):
        choose("gpu-please")


def test_the_config_names_the_device(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[grading]\ndevice = "auto"\n')
    assert load_settings(config).device == "auto"
    config.write_text('[grading]\ndevice = "h100"\n')
    settings = load_settings(config)
    assert settings.device == "cpu" and any("grading.device" in p for p in settings.problems)


# -- the executor, for real on the CPU platform -----------------------------------------------------------------

@pytest.fixture(scope="module")
def cpu_executor():
    executor = DeviceExecutor("cpu")
    facts = executor.ready()
    yield executor, facts
    executor.close()


@pytest.mark.worker
def test_the_executor_opens_its_device_once_and_times_a_program(cpu_executor):
    executor, facts = cpu_executor
    assert facts["platform"] == "cpu" and facts["open_s"] >= 0
    program = exported("cpu")
    first = executor.time_program(program, INPUTS)
    again = executor.time_program(program, INPUTS)  # the same process, the device still open
    for reply in (first, again):
        assert reply["ok"], reply
        assert reply["steady_s"] > 0 and wire.STEADY_MIN_SAMPLES <= len(reply["samples"]) <= 50
        assert reply["memory"]["argument"] == 8 * 4 * 4 + 4 * 2 * 4
    assert executor.alive()


@pytest.mark.worker
@pytest.mark.parametrize(("program", "inputs", "says"), [
    (b"not a program", INPUTS, "not an exported program"),
    ("tpu", INPUTS, "exported for tpu, not cpu"),
    ("cpu", INPUTS[:1], "1 inputs for 2 program inputs"),
    ("cpu", [INPUTS[1], INPUTS[0]], "shape or dtype"),
    ("cpu", [b"\x93NUMPY garbage", INPUTS[1]], "not an .npy array"),
])
def test_the_executor_refuses_what_is_not_a_program_with_its_inputs(cpu_executor, program, inputs, says):
    executor, _ = cpu_executor
    blob = exported(program) if isinstance(program, str) else program
    reply = executor.time_program(blob, inputs)
    assert not reply["ok"] and reply["reason"] == "refused" and says in reply["detail"], reply
    assert executor.alive()  # a refusal never ends the executor


def test_the_host_bounds_a_program_before_sending_it():
    executor = object.__new__(DeviceExecutor)  # never started: the limit is checked before anything is sent
    reply = DeviceExecutor.time_program(executor, b"x" * (wire.MAX_PROGRAM_BYTES + 1), [])
    assert reply == {"ok": False, "reason": "too_large", "detail": "over the executor's size limits"}


def test_the_executor_sees_custom_calls_in_a_program():
    from jittrainer.grading.executor import custom_calls

    text = 'stablehlo.custom_call @xla_python_cpu_callback(%0) {api_version = 2 : i32}\n' \
           '%1 = stablehlo.custom_call @Sharding(%0)\n"mhlo.custom_call"() {call_target_name = "evil"}'
    assert custom_calls(text) - wire.ALLOWED_CUSTOM_CALLS == {"xla_python_cpu_callback", "evil"}


# -- an executor that cannot start -------------------------------------------------------------------------------

FAILS = [sys.executable, "-c", "import sys; sys.exit(3)"]
SAYS_NO = [sys.executable, "-c", textwrap.dedent("""
    import sys
    from jittrainer.grading import device_wire as wire
    fd = int(sys.argv[sys.argv.index("--reply-fd") + 1])
    wire.send(fd, {"type": "ready", "ok": False, "error": "RuntimeError: libtpu lockfile held by another process"})
""")]


@pytest.mark.parametrize(("argv", "says"), [(FAILS, "the executor ended"), (SAYS_NO, "lockfile")])
def test_an_executor_that_cannot_open_the_device_is_unavailable_with_the_reason(argv, says):
    executor = DeviceExecutor("tpu", argv=argv)
    with pytest.raises(Unavailable, match=says):
        executor.ready()
    assert not executor.alive()


def test_an_executor_that_cannot_even_start_is_unavailable(monkeypatch):
    def fails(platform, argv=None):
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(device, "DeviceExecutor", fails)
    with pytest.raises(Unavailable, match="not started"):
        Executors().get("tpu")


def test_a_platform_that_failed_is_not_tried_again_in_the_session(monkeypatch):
    started = []

    def fake(platform, argv=None):
        started.append(platform)
        return DeviceExecutor(platform, argv=SAYS_NO)

    monkeypatch.setattr(device, "DeviceExecutor", fake)
    executors = Executors()
    for _ in range(2):
        with pytest.raises(Unavailable, match="lockfile"):
            executors.get("tpu")
    assert started == ["tpu"]


# -- the host's side of the frame -------------------------------------------------------------------------------

def frame(**fields) -> protocol.DeviceProgramFrame:
    data = protocol.decode_frame(protocol.encode(protocol.DeviceProgramFrame("t", **fields))[4:])
    assert isinstance(data, protocol.DeviceProgramFrame)
    return data


def test_the_program_frame_travels_as_base64_and_decodes_within_the_limits():
    decoded = device_timing.decoded(frame(program=b"\x00program", inputs=INPUTS))
    assert decoded == (b"\x00program", INPUTS)


@pytest.mark.parametrize(("fields", "key"), [
    ({"program": "!!not base64!!"}, "device.failed"),
    ({"program": "A" * (wire.MAX_PROGRAM_BYTES * 2)}, "device.failed"),
    ({"program": b"p", "inputs": [b"x" * (wire.MAX_INPUT_BYTES + 1)]}, "device.not_exported"),
    ({"reason": "no_jitted_call"}, "device.no_jit"),
    ({"reason": "made-up", "detail": "\x1b[31mred"}, "device.not_exported"),
])
def test_a_forged_or_refused_program_frame_leaves_the_cpu_figures_with_a_reason(fields, key):
    program, why = device_timing.decoded(frame(**fields))
    said = device_timing._stays(*why)
    assert program is None and isinstance(said, Msg) and said.key == key
    assert "\x1b" not in said.render("en")


def test_a_malformed_program_frame_is_a_protocol_error():
    payload = b'{"type": "device", "token": "t", "program": 3}'
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_frame(payload)


def test_the_device_figures_survive_the_verdicts_round_trip():
    timing = device_timing._merged(Timing(status="measured", steady_s=2e-3),
                                   {"steady_s": 1e-4, "samples": [1e-4] * 5, "compile_s": 0.5, "flops": 1e6,
                                    "memory": {"argument": 16384, "temp": "x"}},
                                   {"platform": "tpu", "device_kind": "TPU v5 lite"}, "matmul")
    assert (timing.platform, timing.cpu_steady_s, timing.steady_s, timing.device_memory) == \
        ("tpu", 2e-3, 1e-4, {"argument": 16384})
    sent = Verdict("x", "pass", Msg("k", "t"))
    sent.timing = timing
    verdict = Verdict.from_dict(sent.to_dict())
    assert verdict.timing.device_kind == "TPU v5 lite" and verdict.timing.device_note.key == "device.timed"


# -- cache keys --------------------------------------------------------------------------------------------------

def test_the_platform_is_part_of_the_timing_and_review_cache_keys(tmp_path):
    ex = exercise("frozen_globals")
    assert StarterTimingCache(tmp_path / "s", "0.10.2").key(ex) != \
        StarterTimingCache(tmp_path / "s", "0.10.2", platform="tpu").key(ex)
    assert StarterTimingCache(tmp_path / "s", "0.10.2").key(ex).endswith(":cpu")
    assert ReferenceCache(tmp_path / "r", "0.10.2").key(ex, 4, "sig") != \
        ReferenceCache(tmp_path / "r", "0.10.2", platform="tpu").key(ex, 4, "sig")


# -- whole grades ------------------------------------------------------------------------------------------------

def graded(key: str, **device_fields):
    from jittrainer.grading.host.grading import grade
    from jittrainer.grading.host.run import Submission
    from jittrainer.grading.limits import Limits

    ex = exercise(key)
    sub = Submission(ex, ex.solution_path.read_bytes(), ex.solution_path.resolve(), seed=0, timing=True, lang="en",
                     **device_fields)
    return grade(sub, Limits(timeout_s=ex.timeout_s or 10.0))


@pytest.fixture()
def session_executors():
    yield device.SESSION
    device.SESSION.close()


@pytest.mark.worker
def test_a_grade_on_the_cpu_platform_takes_the_executors_path(session_executors):
    verdict = graded("frozen_globals", device="cpu", device_mode="tpu")
    timing = verdict.timing
    assert verdict.passed and timing.status == "measured"
    assert timing.platform == "cpu" and timing.device_kind == "cpu" and timing.cpu_steady_s is not None
    assert timing.device_note.key == "device.timed" and "scaled_relu" in timing.device_note.render("en")
    assert timing.device_memory.get("argument", 0) > 0


@pytest.mark.worker
@pytest.mark.parametrize(("key", "fields", "note"), [
    ("host_callbacks", {"device": "cpu"}, "device.host_callback"),
    ("shard_map_psum", {"device": "cpu"}, "device.several"),
    ("frozen_globals", {"device_mode": "auto", "device_reason": "no TPU runtime"}, "device.no_runtime"),
    ("frozen_globals", {}, None),
])
def test_what_stays_on_the_cpu_says_why(session_executors, key, fields, note):
    timing = graded(key, **fields).timing
    assert timing.status == "measured" and timing.platform == "cpu" and timing.cpu_steady_s is None
    assert (timing.device_note.key if timing.device_note else None) == note


def test_the_cli_check_takes_device_and_auto_says_why_it_is_the_cpu(tmp_path):
    from helpers import jittrainer_cmd

    ex = exercise("frozen_globals")
    r = subprocess.run([*jittrainer_cmd(), "check", ex.id, str(ex.solution_path), "--timing", "--device", "auto",
                        "--no-review"], capture_output=True, text=True, timeout=300,
                       env=clean_env(JITTRAINER_HOME=str(tmp_path)))
    assert r.returncode == 0, r.stderr[-2000:]
    if not device.tpu_runtime():
        assert "--device auto found no accelerator here" in r.stdout



SILENT = [sys.executable, "-c", textwrap.dedent("""
    import sys, time
    from jittrainer.grading import device_wire as wire
    fd = int(sys.argv[sys.argv.index("--reply-fd") + 1])
    wire.send(fd, {"type": "ready", "ok": True, "platform": "tpu", "device_kind": "fake"})
    job = int(sys.argv[sys.argv.index("--job-fd") + 1])
    wire.receive(job)
    time.sleep(600)  # a program that never ends on the device
""")]


def test_an_executor_that_stops_answering_is_ended_and_said_unavailable():
    executor = DeviceExecutor("tpu", argv=SILENT)
    assert executor.ready()["device_kind"] == "fake"
    with pytest.raises(Unavailable, match="did not answer within 0.2 s"):
        executor.time_program(b"program", [], timeout=0.2)
    assert executor.process.wait(10) is not None and not executor.alive()


@pytest.mark.worker
def test_bench_measures_the_executor_start_and_the_timing_on_the_device(session_executors):
    from jittrainer.bench import _submission, device_times

    result = device_times(_submission(None), "cpu", 1, lambda line: None)
    assert result["device"]["platform"] == "cpu" and result["device_start_s"] > 0
    assert result["device_timing_s"]["median"] > 0 and result["device_steady_s"]["median"] > 0


class _Frames:
    def __init__(self, frames):
        self.frames = list(frames)

    def next(self, deadline):
        return self.frames.pop(0) if self.frames else None


class _Run:
    token = "right"

    class limits:
        timing_timeout_s = 1.0

    def __init__(self, frames):
        self._frames = frames

    def frames(self, worker, after=""):
        return _Frames(self._frames)


def test_only_the_runs_own_program_frame_is_taken():
    forged = protocol.DeviceProgramFrame("wrong", program="AAAA")
    own = protocol.DeviceProgramFrame("right", reason="no_jitted_call")
    assert device_timing.program_frame(_Run([forged, own]), None, "timing", 5) is own
    # The channel closed before the run's own frame: none, which finish() words as "device.no_program".
    assert device_timing.program_frame(_Run([forged]), None, "timing", 5) is None


def test_doctor_lists_the_accelerator_found_and_the_mode_in_force(tmp_path):
    from helpers import jittrainer_cmd

    r = subprocess.run([*jittrainer_cmd(), "doctor", "--device", "auto"], capture_output=True, text=True,
                       timeout=300, env=clean_env(JITTRAINER_HOME=str(tmp_path)))
    rows = dict(line.split(None, 1) for line in r.stdout.splitlines() if line.startswith(("accelerator", "device")))
    assert "accelerator" in rows and rows.get("device", "").startswith("mode  auto: ")
    if not device.tpu_runtime():
        assert "libtpu" in rows["device"]
