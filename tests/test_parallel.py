"""Jobs in order, locally or on Ray: the same results whatever runs them."""
import pytest

from fiveup_solver import OptionError
from fiveup_solver.match import play_pairs
from fiveup_solver.parallel import check_ray, check_workers, ordered_map


def _square(x):
    return x * x


def test_ordered_map_keeps_order_with_processes():
    assert list(ordered_map(_square, range(20), workers=2)) == [x * x for x in range(20)]
    assert list(ordered_map(_square, [], workers=2)) == []


def test_early_close_stops_cleanly():
    gen = ordered_map(_square, range(1000), workers=2)
    assert [next(gen) for _ in range(3)] == [0, 1, 4]
    gen.close()


@pytest.mark.parametrize("bad", [0, -1, 257, 1.5, True, "2", None])
def test_workers_checked(bad):
    with pytest.raises(OptionError, match="workers"):
        check_workers(bad)


@pytest.mark.parametrize("bad", ["", "   ", 5, ["auto"]])
def test_ray_option_checked(bad):
    with pytest.raises(OptionError, match="ray"):
        check_ray(bad)


def test_pairs_do_not_depend_on_workers():
    one = list(play_pairs(2, "greedy", "random", 7, workers=1, max_pairs=6))
    two = list(play_pairs(2, "greedy", "random", 7, workers=2, max_pairs=6))
    assert one == two and [k for k, _, _ in one] == list(range(6))


def test_pairs_on_local_ray_match_local_processes():
    ray = pytest.importorskip("ray")
    from fiveup_solver.ladder import run_ladder
    local = list(play_pairs(2, "greedy", "random", 11, workers=1, max_pairs=4))
    local_ladder = run_ladder(2, ["level1", "level2", "level5"], games=4, seed=3, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = list(play_pairs(2, "greedy", "random", 11, max_pairs=4, ray="auto"))
        ray_ladder = run_ladder(2, ["level1", "level2", "level5"], games=4, seed=3, ray="auto")
        # a function Ray's workers can import by name (this test module is not on their path)
        magnitudes = list(ordered_map(abs, range(-5, 5), ray="auto"))
        # a review: a task's FiveUpError came back as Ray's subclass of it, whose text is the
        # remote traceback (3 KB in the one-line error); it is the task's own error now, and
        # any other error one line naming the job
        from fiveup_solver.errors import FiveUpError, WorkerError, check_players
        with pytest.raises(OptionError) as task_error:
            list(ordered_map(check_players, [2, 7], ray="auto"))
        import math
        with pytest.raises(WorkerError, match=r"^a Ray task failed \(ValueError: math domain error\) while running -1$"):
            list(ordered_map(math.sqrt, [1, -1], ray="auto"))
    finally:
        ray.shutdown()
    assert on_ray == local
    assert ray_ladder.counts == local_ladder.counts and ray_ladder.elo == local_ladder.elo
    assert magnitudes == [abs(x) for x in range(-5, 5)]
    assert str(task_error.value) == "players must be 2, 3 or 4, not 7" and type(task_error.value) is OptionError
    assert isinstance(task_error.value, FiveUpError)


def test_missing_ray_extra_is_named(monkeypatch, capsys):
    import sys
    from fiveup_solver.cli import main
    monkeypatch.setitem(sys.modules, "ray", None)       # as if the extra were not installed
    with pytest.raises(OptionError, match=r"fiveup_solver\[ray\]"):
        check_ray("auto")
    assert main(["match", "--bots", "greedy,random", "--deals", "1", "--ray", "auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'fiveup_solver[ray]'" in err[0]
