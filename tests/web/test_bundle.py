"""The client shipped in the package: built, small, and with nothing secret in it."""

from __future__ import annotations

import gzip

from web.routes import static_folder

LIMIT = 150 * 1024  # bytes, gzipped: the whole client a phone downloads


def test_the_client_is_built_and_small():
    folder = static_folder()
    files = [path for path in folder.rglob("*") if path.is_file()]
    assert (folder / "index.html").is_file() and any(path.suffix == ".js" for path in files)
    shipped = sum(len(gzip.compress(path.read_bytes(), 9)) for path in files)
    assert shipped <= LIMIT, f"the client is {shipped} bytes gzipped, over {LIMIT}"


def test_the_page_loads_nothing_from_elsewhere():
    page = (static_folder() / "index.html").read_text()
    assert "http://" not in page and "https://" not in page and "<script>" not in page  # the CSP's 'self' only
