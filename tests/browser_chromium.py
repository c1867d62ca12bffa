"""The browser tests' Chromium: Debian's, as pytest-playwright's launch options (no browser
download here). A module the browser tests import the fixture from (not a conftest.py:
see hypothesis_profiles.py)."""
import contextlib
import os

import pytest

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright's launch options, with Debian's chromium (no browser download here)."""
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: apt-get install -y chromium (the browser tests need it)"
        if os.environ.get("FIVEUP_SKIP_BROWSER", "") in ("", "0"):
            pytest.fail(message + "; FIVEUP_SKIP_BROWSER=1 leaves them out")
        pytest.skip(message + " (FIVEUP_SKIP_BROWSER=1)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ["--no-sandbox"]}


@contextlib.contextmanager
def served_app():
    """``fiveup serve``'s app on 127.0.0.1 in a thread: yields (its address, the app)."""
    import socket
    import threading
    import time

    import uvicorn

    from fiveup_solver import serve
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = serve.create_app()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def checked_page(context, timeout_ms: int = 30_000):
    """A page of `context` whose every request is checked: only 127.0.0.1 (and data: or
    blob: URLs) is reached, anything else is blocked and fails the test; page errors
    fail it too."""
    from urllib.parse import urlsplit
    outside, errors = [], []

    def route(r):
        if urlsplit(r.request.url).hostname == "127.0.0.1" or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()
    context.route("**/*", route)
    page = context.new_page()
    page.set_viewport_size({"width": 1200, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(timeout_ms)
    yield page
    assert outside == [], f"requests that would leave 127.0.0.1: {outside}"
    assert errors == [], f"errors in the page: {errors}"


def analyse_on_page(page, path, seat=None, wait_for="#board-view:not([hidden])") -> None:
    """A record file analysed on the open analysis page at the quick strength (for ``seat``)."""
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#run:enabled")
    page.select_option("#strength", "quick")
    if seat is not None:
        page.select_option("#seat", str(seat))
    page.click("#run")
    page.wait_for_selector(wait_for, timeout=120_000)
    page.wait_for_selector("body[data-state=ready]")


def round_record_file(tmp_path, players: int, seed: int, name: str = "game.json", **game_options):
    """A one-round game (every seat playing its first legal move) saved as a record file in
    tmp_path: (path, the Game). ``game_options`` go to Game (``seats=``)."""
    import json

    from fiveup_solver import Game
    g = Game(players=players, seed=seed, **game_options)
    while not g.round_over:
        g.push(g.legal_moves[0])
    path = tmp_path / name
    path.write_text(json.dumps(g.to_record()))
    return path, g


@pytest.fixture(scope="module")
def server():
    """``fiveup serve``'s app for a test module's pages: its address."""
    with served_app() as (url, _):
        yield url


@pytest.fixture(scope="module")
def record3(tmp_path_factory):
    """A whole 3-player game (greedy, greedy, random) as a record file: several rounds, a
    winner, and marked decisions of several seats."""
    import json

    from fiveup_solver.selfplay import play_game
    path = tmp_path_factory.mktemp("web") / "three.json"
    path.write_text(json.dumps(play_game(3, 1, ["greedy", "greedy", "random"]).to_record()))
    return path


def open_page(browser, options, init_script=None, **context_options):
    """(context, checked page, page) at the options' viewport (checked_page sets a desktop
    one), ``init_script`` run in every document; leave it with close_page."""
    context = browser.new_context(**options, **context_options)
    checked = checked_page(context, timeout_ms=60_000)
    page = checked.__enter__()
    page.set_viewport_size(options["viewport"])
    if init_script:
        page.add_init_script(init_script)
    return context, checked, page


def close_page(context, checked):
    try:
        checked.__exit__(None, None, None)
    finally:
        context.close()
