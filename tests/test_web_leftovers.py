"""The web app's leftovers, through FastAPI's TestClient: an unknown page asked by a browser (its
Accept header names text/html) is a small HTML page naming the path, with links to the play page
and the analysis board, status 404; the API's paths and every client that does not ask for HTML
keep the one-line JSON error exactly as before (a review: a browser showed the raw JSON)."""
import pytest

pytest.importorskip("fastapi", reason="the serve extra is part of the test extra")
from fastapi.testclient import TestClient  # noqa: E402

from fiveup_solver import serve  # noqa: E402

BASE = "http://127.0.0.1:8061"
# what Chromium and Firefox send when they open a page
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.fixture(scope="module")
def client():
    with TestClient(serve.create_app(), base_url=BASE, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("path", ["/nonexistent", "/play/foo", "/analysis/x", "/static/nothing.js"])
def test_an_unknown_page_asked_by_a_browser_is_an_html_page(client, path):
    r = client.get(path, headers={"accept": BROWSER})
    assert r.status_code == 404, (r.status_code, r.text[:200])
    assert r.headers["content-type"].startswith("text/html"), r.headers["content-type"]
    assert r.headers["vary"] == "Accept"
    # the app's security headers as on every answer (nothing loaded from elsewhere)
    assert "default-src 'self'" in r.headers["content-security-policy"]
    page = r.text
    assert page.startswith("<!DOCTYPE html>") and '<html lang="en">' in page
    assert "<title>Exact 61 Five Up: page not found</title>" in page
    assert '<link rel="stylesheet" href="/static/style.css">' in page
    assert f"There is no page at <code>{path}</code>" in page
    assert '<a href="/">play page</a>' in page and '<a href="/analysis">analysis board</a>' in page
    assert "http" not in page and "<script" not in page


def test_the_path_is_shown_as_text_never_as_markup(client):
    r = client.get("/<script>alert(1)</script>", headers={"accept": "text/html"})
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "<script>" not in r.text
    assert "There is no page at <code>/&lt;script&gt;alert(1)&lt;/script&gt;</code>" in r.text
    long = "/x" * 100
    r = client.get(long, headers={"accept": "text/html"})
    shown = r.text.split("<code>")[1].split("</code>")[0]
    assert len(shown) == 80 and shown.endswith("...") and long.startswith(shown[:-3]), shown


@pytest.mark.parametrize("path,accept,error", [
    # the API's paths keep their JSON whatever is asked (a browser opening one sees the JSON)
    ("/api/nothing", BROWSER, "no such page: '/api/nothing'"),
    ("/api", BROWSER, "no such page: '/api'"),
    ("/api/games/nope", BROWSER, "no game 'nope' (unknown, or dropped: untouched for 6 h, or the oldest of 64 games)"),
    # clients that do not ask for HTML: fetch(), curl, httpx (*/*), JSON, or HTML refused (q=0)
    ("/nonexistent", None, "no such page: '/nonexistent'"),
    ("/nonexistent", "*/*", "no such page: '/nonexistent'"),
    ("/nonexistent", "application/json", "no such page: '/nonexistent'"),
    ("/nonexistent", "text/html;q=0, application/json", "no such page: '/nonexistent'"),
    ("/static/nothing.js", "*/*", "no such page: /static/'nothing.js'"),
])
def test_the_api_and_clients_not_asking_for_html_keep_the_json_error(client, path, accept, error):
    r = client.get(path, headers={} if accept is None else {"accept": accept})
    assert r.status_code == 404 and r.headers["content-type"] == "application/json"
    assert r.json() == {"error": error}
    assert r.text == '{"error":"%s"}' % error           # byte for byte as before


def test_a_page_that_exists_is_unchanged_for_a_browser(client):
    for path in ("/", "/analysis"):
        r = client.get(path, headers={"accept": BROWSER})
        assert r.status_code == 200 and "page not found" not in r.text, path
