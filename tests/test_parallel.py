"""Rendering on both cores: the same bytes as one process, and a pool that always ends."""
import subprocess
import sys
import textwrap

from generator.outputs_model import Output
from generator.parallel import renderer, shares
from tests.helpers import ROOT

PROBE = textwrap.dedent("""
    import signal
    from generator.cli import _terminate
    from generator.outputs_model import Output
    from generator.parallel import renderer, shares

    signal.signal(signal.SIGTERM, _terminate)  # as the command line runs it
    outputs = [Output(f"f{i}", "o", "t", (), (str(i),), (lambda stamp, i=i: "x" * 1000 + str(i)), weight=1) for i in range(1200)]
    for _ in range(20):
        assert len(renderer(2)(outputs)) == 1200
    print("ok")
""")


def test_the_pool_ends_every_time_under_the_command_lines_signal_handler():
    """Workers that inherited the SIGTERM handler hung the parent when the pool ended them."""
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_two_workers_give_the_texts_of_one_in_the_same_order():
    outputs = [Output(f"dir/{i:04d}", "o", "t", (), (str(i),), (lambda stamp, i=i: f"text {i}\n"), weight=1 + i % 7)
               for i in range(999, -1, -1)]
    dealt = shares(outputs, 2)
    assert sorted(len(share) for share in dealt) != [0, 1000]  # both workers have work
    assert abs(sum(o.weight for o in dealt[0]) - sum(o.weight for o in dealt[1])) <= 7  # and about as much
    one, two = renderer(1)(outputs), renderer(2)(outputs)
    assert one == two and list(two) == sorted(two)


def test_one_heavy_output_and_many_light_ones_are_dealt_apart():
    heavy = Output("heavy", "o", "t", (), ("h",), (lambda stamp: "h"), weight=5000)
    light = [Output(f"l{i}", "o", "t", (), (str(i),), (lambda stamp: "l"), weight=1) for i in range(100)]
    first, second = shares(light[:50] + [heavy] + light[50:], 2)
    assert (first == [heavy] and len(second) == 100) or (second == [heavy] and len(first) == 100)


def test_an_error_in_a_worker_is_raised_in_the_parent():
    def broken(stamp):
        raise ValueError("cannot render this")

    outputs = [Output(f"f{i}", "o", "t", (), (str(i),), (lambda stamp: "x"), weight=5) for i in range(700)]
    outputs[650] = Output("bad", "o", "t", (), ("bad",), broken, weight=5)
    try:
        renderer(2)(outputs)
    except ValueError as error:
        assert "cannot render this" in str(error)
    else:
        raise AssertionError("the worker's error was lost")
