"""Translations (issue 40, point 2): the catalogs are complete and up to date, the
language follows the browser or the header's switch, pages, the client's catalog and the
API's error messages come in that language, while error codes stay English."""

from __future__ import annotations

import io
import subprocess
import sys

import httpx
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.error_text import ERROR_TEXT
from app.i18n import LANGUAGES, language_of, parse_accept_language, po_path
from tests.app.test_protocol_codes import codes_in_source

from .conftest import ROOT

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "t": None}


def extracted() -> set[str]:
    """The message ids the sources hold now (what `make messages` extracts)."""
    method_map = [
        ("app/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("static/**.js", "javascript"),
    ]
    options = {"static/**.js": {"parse_template_string": "true"}}
    ids: set[str] = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
        str(ROOT), method_map, options, keywords=KEYWORDS
    ):
        ids.add(message if isinstance(message, str) else message[0])
    return ids


def catalog_ids(path: str) -> dict[str, object]:
    with open(path, "rb") as f:
        cat = read_po(f)
    return {m.id if isinstance(m.id, str) else m.id[0]: m for m in cat if m.id}


def test_terms_file_is_what_the_engine_says() -> None:
    out = subprocess.run(
        [sys.executable, "scripts/i18n_terms.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert (ROOT / "app" / "i18n_terms.py").read_text("utf-8") == out, (
        "app/i18n_terms.py is out of date: run `make messages`"
    )


def test_template_is_up_to_date() -> None:
    pot = set(catalog_ids(str(ROOT / "app/locales/messages.pot")))
    now = extracted()
    assert now - pot == set(), (
        f"messages not in the template (run `make messages`): {sorted(now - pot)[:20]}"
    )
    assert pot - now == set(), (
        f"messages no longer used (run `make messages`): {sorted(pot - now)[:20]}"
    )


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_message_is_translated(lang: str) -> None:
    pot = set(catalog_ids(str(ROOT / "app/locales/messages.pot")))
    cat = catalog_ids(str(po_path(lang)))
    assert set(cat) == pot, f"{lang} catalog out of date (run `make messages`)"
    missing = sorted(k for k, m in cat.items() if not m.string or m.fuzzy)  # type: ignore[attr-defined]
    assert not missing, f"{len(missing)} messages without a {lang} translation: {missing[:20]}"
    # placeholders kept: "{name}" in the English text is in the translation too
    for k, m in cat.items():
        if isinstance(m.string, str):  # type: ignore[attr-defined]
            for ph in __import__("re").findall(r"\{\w+\}", k):
                assert ph in m.string, f"{lang}: {k!r} lost {ph}"  # type: ignore[attr-defined]


def test_every_error_code_has_a_message() -> None:
    missing = sorted(set(codes_in_source()) - set(ERROR_TEXT))
    assert not missing, f"error codes without a message in app/error_text.py: {missing}"


def test_accept_language() -> None:
    assert parse_accept_language("de-DE,de;q=0.9,en;q=0.8") == ["de", "de", "en"]
    assert parse_accept_language("en;q=0.5, fr") == ["fr", "en"]
    assert parse_accept_language("fr;q=0, de;q=bad, en") == ["en"]

    class Conn:
        def __init__(self, header: str, cookie: str | None = None) -> None:
            self.headers = {"accept-language": header}
            self.cookies = {"lang": cookie} if cookie else {}

    assert language_of(Conn("es-ES, fr;q=0.7, de;q=0.9")) == "de"  # type: ignore[arg-type]
    assert language_of(Conn("es, it")) == "en"  # type: ignore[arg-type]
    assert language_of(Conn("de", cookie="fr")) == "fr"  # type: ignore[arg-type]
    assert language_of(Conn("de", cookie="xx")) == "de"  # type: ignore[arg-type]


def test_pages_catalog_switch_and_errors(api: httpx.Client) -> None:
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    page = api.get("/", headers=fr).text
    assert '<html lang="fr"' in page and "Nouvelle partie" in page and "New game" not in page
    de = api.get("/", headers={"Accept-Language": "de-DE"}).text
    assert '<html lang="de"' in de and "Neue Partie" in de
    # the switch: a cookie for a year, back to the page (this site only)
    r = api.get("/lang/de?next=/campaigns", headers=fr, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/campaigns"
    assert "lang=de" in r.headers["set-cookie"]
    assert (
        api.get("/lang/de?next=//evil.example", follow_redirects=False).headers["location"] == "/"
    )
    assert api.get("/lang/xx").json()["error"]["code"] == "unknown_language"
    page = api.get("/", headers={**fr, "Cookie": "lang=de"}).text
    assert "Neue Partie" in page
    # the client's catalog
    cat = api.get("/i18n/fr.json").json()
    assert cat["messages"]["New game"] == "Nouvelle partie"
    assert cat["errors"]["not_your_turn"] == "Ce n'est pas votre tour."
    # an API error: the code stays, the message is the reader's
    err = api.get("/api/games/nope", headers=fr).json()["error"]
    assert (
        err["code"] == "game_not_found" and err["message"] == "Cette partie n'existe pas (ou plus)."
    )
    err = api.get("/api/games/nope").json()["error"]
    assert err["code"] == "game_not_found" and "game" in err["message"]


def test_catalog_files_parse() -> None:
    # a catalog that does not parse would silently show English
    for lang in LANGUAGES:
        if lang != "en":
            with open(po_path(lang), "rb") as f:
                data = f.read()
            assert len(list(read_po(io.BytesIO(data)))) > 100
