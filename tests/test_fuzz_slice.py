"""A small, fast slice of the fuzz campaign (``benchmarks/fuzz_campaign.py``).

Every input family of the campaign runs here on a few thousand seeded inputs:
records (byte and structure mutations), seat views, the Game API in random
orders, the Cython core's entry points, hand-built observations, the
searches with random and bad options, and the Cython owners (SolverCore,
WorldSearch, AlphaMuSearch, BeliefWorlds) called directly. The contract is the campaign's: every
call succeeds or raises a FiveUpError with a one-line message; another
exception, a multi-line message, a crash or a hang is a finding, and this
test wants none.

The inputs run in one worker process forked from this one, under the
campaign's own watchdog: a crash (a signal, a sanitizer report) or a hang
then fails this test with the input named, instead of taking the whole
pytest run down. Any finding can be rerun alone with the command the failure
message prints (``--replay FAMILY:SEED:WORKER:INDEX --show``).
"""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz_campaign.py"
SLICE_INPUTS = 4000
SLICE_SEED = 2026

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the campaign forks its workers")


def _load_campaign():
    spec = importlib.util.spec_from_file_location("fiveup_fuzz_campaign", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


campaign = _load_campaign()


def _describe(report, limit=25):
    lines = [f"{report['finding_count']} inputs broke the contract, in {len(report['findings'])} groups:"]
    for g in report["findings"][:limit]:
        ex = g["examples"][0]
        lines.append(f"- {g['kind']} {g['type']} in {g['op']} at {g['where']} ({g['count']}x): "
                     f"{ex.get('message', '')[:160]!r}  repro: {ex['replay']}")
    return "\n".join(lines)


def test_fuzz_slice_finds_nothing():
    report = campaign.run_campaign(inputs=SLICE_INPUTS, workers=1, seed=SLICE_SEED, time_limit=10.0)
    fams = report["families"]
    assert report["total_inputs"] == SLICE_INPUTS
    # every family of a normal campaign got a share of the slice
    assert set(fams) == {n for n, f in campaign.FAMILIES.items() if f.weight > 0}
    assert all(f["inputs"] >= 40 for f in fams.values()), fams
    assert not report["findings"], _describe(report)


def test_contract_check_flags_what_it_must():
    """The contract check itself: one-line FiveUpErrors pass, anything else is a finding."""
    campaign.load_api()
    from fiveup_solver.errors import OptionError
    ctx = campaign.Ctx()
    assert ctx.call("ok", lambda: 5) == (True, 5)
    ok, err = ctx.call("one line", lambda: (_ for _ in ()).throw(OptionError("bad option")))
    assert not ok and isinstance(err, OptionError)
    for fn, kind in [(lambda: {}["x"], "exception"),
                     (lambda: (_ for _ in ()).throw(OptionError("a\nb")), "multiline"),
                     (lambda: (_ for _ in ()).throw(OptionError("")), "empty-message")]:
        with pytest.raises(campaign.Finding) as info:
            ctx.call("bad", fn)
        assert info.value.kind == kind


def test_inputs_are_reproducible():
    """Input i of worker w depends only on (seed, w, i): what --replay relies on."""
    campaign.load_api()
    pool_a, pool_b = campaign.Pool(5), campaign.Pool(5)
    for name, fam in campaign.FAMILIES.items():
        if fam.weight == 0:
            continue
        for i in (0, 7, 123):
            a = campaign.make_input(fam, 5, 1, i, pool_a)
            b = campaign.make_input(fam, 5, 1, i, pool_b)
            assert campaign._show(a) == campaign._show(b), name


def test_watchdog_catches_a_crash_and_a_hang():
    """The campaign's test hook: input 1 raises a KeyError, 2 a two-line FiveUpError,
    3 kills its worker with SIGSEGV, 5 sleeps past the time limit. The watchdog must
    name each input, restart the worker after it, and still run every other input."""
    report = campaign.run_campaign(inputs=9, workers=1, seed=0, time_limit=1.5, families=["_selftest"])
    by_id = {ex["id"]: g for g in report["findings"] for ex in g["examples"]}
    assert set(by_id) == {"_selftest:0:0:1", "_selftest:0:0:2", "_selftest:0:0:3", "_selftest:0:0:5"}, by_id
    assert by_id["_selftest:0:0:1"]["kind"] == "exception" and by_id["_selftest:0:0:1"]["type"] == "KeyError"
    assert by_id["_selftest:0:0:2"]["kind"] == "multiline"
    crash = by_id["_selftest:0:0:3"]
    # SIGSEGV; under AddressSanitizer its deadly-signal handler reports the signal and ends
    # the worker itself (SIGABRT or exit status 1, depending on how the signal reaches it)
    assert crash["kind"] == "crash", crash
    assert crash["type"] in ("SIGSEGV", "SIGABRT") or crash["type"].startswith("exit status"), crash
    assert crash["op"] == "selftest.crash"
    assert "_selftest_crash" in crash["examples"][0].get("faulthandler", "")     # the Python stack of the crash
    hang = by_id["_selftest:0:0:5"]
    assert hang["kind"] == "hang" and hang["op"] == "selftest.hang"
    assert "_selftest_hang" in hang["examples"][0].get("faulthandler", "")       # dumped before the kill
    # all 9 inputs were attempted: the worker came back after the crash and after the hang
    assert report["total_inputs"] == 9
    assert report["families"]["_selftest"]["crashed_or_hung"] == 2


def test_crash_stack_is_dumped_when_the_parent_replaced_the_handler(tmp_path):
    """pytest enables faulthandler; a library loaded later may put its own SIGSEGV handler
    in its place (a whole-suite run lost the crash's stack that way). A worker forked
    from such a process must still dump the Python stack of its crash."""
    script = tmp_path / "replaced_handler.py"
    script.write_text(
        "import faulthandler, importlib.util, signal, sys\n"
        "faulthandler.enable()\n"
        "signal.signal(signal.SIGSEGV, signal.SIG_DFL)   # what such a library does\n"
        f"spec = importlib.util.spec_from_file_location('campaign', {str(SCRIPT)!r})\n"
        "campaign = importlib.util.module_from_spec(spec); sys.modules['campaign'] = campaign\n"
        "spec.loader.exec_module(campaign)\n"
        "report = campaign.run_campaign(inputs=4, workers=1, seed=0, time_limit=5, families=['_selftest'])\n"
        "crash = [ex for g in report['findings'] for ex in g['examples'] if ex['id'] == '_selftest:0:0:3']\n"
        "print('stack' if crash and '_selftest_crash' in crash[0].get('faulthandler', '') else 'no stack')\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "stack", out.stdout + out.stderr[-2000:]
