"""Rendering on both cores: the same bytes as one process, and a pool that always ends."""
import subprocess
import sys
import textwrap

from generator.rendering.output import Output
from generator.writing.parallel import renderer
from tests.helpers import ROOT

PROBE = textwrap.dedent("""
    import signal
    from generator.cli import _terminate
    from generator.rendering.output import Output
    from generator.writing.parallel import renderer

    signal.signal(signal.SIGTERM, _terminate)  # as the command line runs it
    outputs = [Output(f"f{i}", "o", "t", str(i), (lambda stamp, i=i: "x" * 1000 + str(i)), 100) for i in range(1200)]
    for _ in range(20):
        assert len(renderer(2)(outputs)) == 1200
    print("ok")
""")


def test_the_pool_ends_every_time_under_the_command_lines_signal_handler():
    """Workers that inherited the SIGTERM handler hung the parent when the pool ended them."""
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def _pid_text(stamp: str, i: int, seconds: float = 0.0) -> str:
    import os
    import time

    time.sleep(seconds)
    return f"{i} {os.getpid()}\n"


def test_two_workers_give_the_texts_of_one_in_the_same_order():
    outputs = [
        Output(f"dir/{i:04d}", "o", "t", str(i), (lambda stamp, i=i: f"text {i}\n"), 100) for i in range(1999, -1, -1)
    ]
    one, two = renderer(1)(outputs), renderer(2)(outputs)
    assert list(two) == sorted(two)
    assert one == two


def test_both_processes_take_work_and_a_slow_output_leaves_the_rest_to_the_other():
    slow = Output(
        "slow", "o", "t", "s", (lambda stamp: _pid_text(stamp, -1, 3.0)), 100
    )  # long beside the rest, under load too
    light = [
        Output(f"l{i:04d}", "o", "t", str(i), (lambda stamp, i=i: _pid_text(stamp, i, 0.0005)), 100)
        for i in range(2000)
    ]
    rendered = renderer(2)(light[:50] + [slow] + light[50:])
    pids = {path: data.split()[1] for path, data in rendered.items()}
    slow_pid = pids.pop("slow")
    assert len(set(pids.values()) | {slow_pid}) == 2  # two processes rendered
    assert sum(1 for pid in pids.values() if pid != slow_pid) >= 1500  # the other one took most of the rest


def test_an_error_in_a_worker_is_raised_in_the_parent():
    def broken(stamp):
        raise ValueError("cannot render this")

    outputs = [Output(f"f{i}", "o", "t", str(i), (lambda stamp: "x"), 100) for i in range(2000)]
    outputs[1950] = Output("bad", "o", "t", "bad", broken, 100)
    try:
        renderer(2)(outputs)
    except ValueError as error:
        assert "cannot render this" in str(error)
    else:
        raise AssertionError("the worker's error was lost")


def test_little_work_stays_in_one_process_and_a_few_large_outputs_share_the_cores():
    """What decides is the work (Output.scale), not the number of outputs: the real catalog's
    226 outputs stay in this process; nine outputs about 10,000 codes each do not."""
    import os

    small = [Output(f"s{i:04d}", "o", "t", str(i), (lambda stamp, i=i: _pid_text(stamp, i)), 1) for i in range(1000)]
    assert {data.split()[1] for data in renderer(2)(small).values()} == {str(os.getpid()).encode()}
    large = [Output(f"b{i}", "o", "t", str(i), (lambda stamp, i=i: _pid_text(stamp, i, 0.3)), 10000) for i in range(4)]
    assert len({data.split()[1] for data in renderer(2)(large).values()}) == 2
