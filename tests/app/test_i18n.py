"""Translations (issue 40, point 2): the catalogs are complete and up to date, the
language follows the browser or the header's switch, pages, the client's catalog and the
API's error messages come in that language, while error codes stay English."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.error_text import ERROR_TEXT
from app.i18n import LANGUAGES, language_of, parse_accept_language, po_path
from tests.app.test_protocol_codes import codes_in_source

from .conftest import ROOT

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "t": None, "tn": (1, 2)}


def extracted(plurals: bool = False) -> set[str]:
    """The message ids the sources hold now (what `make messages` extracts); with
    ``plurals``, the plural forms' English too."""
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
        if isinstance(message, str):
            ids.add(message)
        else:
            ids.update(message if plurals else message[:1])
    return ids


def catalog_ids(path: str, locale: str | None = None) -> dict[str, object]:
    with open(path, "rb") as f:
        cat = read_po(f, locale=locale)
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
    cat = catalog_ids(str(po_path(lang)), lang)
    assert set(cat) == pot, f"{lang} catalog out of date (run `make messages`)"
    missing = sorted(
        k
        for k, m in cat.items()
        if m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string)  # type: ignore[attr-defined]
    )
    assert not missing, f"{len(missing)} messages without a {lang} translation: {missing[:20]}"
    # placeholders kept: "{name}" / "%(name)s" of the English text is in every form of
    # the translation ("{n}" of a plural may be left out of the singular form)
    for k, m in cat.items():
        forms = m.string if isinstance(m.string, tuple) else (m.string,)  # type: ignore[attr-defined]
        for i, form in enumerate(forms):
            for ph in re.findall(r"\{\w+\}|%\(\w+\)s", k):
                assert ph in form or (ph == "{n}" and i == 0 and len(forms) > 1), (
                    f"{lang}: {k!r} lost {ph}"
                )


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
    # each rule system's help, in the reader's language
    de = {"Accept-Language": "de-DE"}
    assert "Die Teams" in api.get("/help/overlord", headers=de).text
    assert "Les équipes" in api.get("/help/overlord", headers=fr).text
    assert "Memoir '44: die Regeln in Kürze" in api.get("/help/m44", headers=de).text
    assert "Fast Play '44 : les règles en bref" in api.get("/help/fastplay", headers=fr).text


def test_catalog_files_parse() -> None:
    # a catalog that does not parse would silently show English
    for lang in LANGUAGES:
        if lang != "en":
            with open(po_path(lang), "rb") as f:
                data = f.read()
            assert len(list(read_po(io.BytesIO(data)))) > 100


# ---------------------------------------------------------------- untranslated texts
# A static scan of what the pages and the client show: every text that reads as words
# must go through the catalogs (`_()` / `{% trans %}` in templates, `t()` / `tn()` /
# `term()` in static/), else a French or German page shows English.

#: words that are the same in every language (names, codes), by file
NOT_WORDS: dict[str, set[str]] = {
    "templates/base.html": {"Overlord"},
    "templates/verify.html": {"SHA-256(seed ‖ salt)", "python -m engine verify game- .json"},
    "static/sw.js": {"Overlord"},
    "static/remote.js": {"Notification"},
    # ids of the board's descriptions, an SVG attribute, a class
    "static/board.js": {"board-keys hex-description", "xMidYMid meet", "pip lost"},
}
JINJA = re.compile(r"\{#.*?#\}|\{%-?\s*trans\b.*?endtrans\s*-?%\}|\{\{.*?\}\}|\{%.*?%\}", re.S)
BODY_ATTRS = re.compile(r"\{%\s*block bodyattrs\s*%\}.*?\{%\s*endblock\s*%\}", re.S)
WORDS = re.compile(r"[A-Za-z][a-z]+[,;:.!?'’]* +[A-Za-z]{2,}|^[A-Z][a-z]{2,}[.!?…:]*$")
ESCAPE = re.compile(r"\\(.)")


def template_texts(path: Path) -> list[tuple[int, str]]:
    """The texts and the shown attributes of a template outside Jinja2 expressions."""
    from html.parser import HTMLParser

    src = BODY_ATTRS.sub("", path.read_text("utf-8"))
    src = JINJA.sub(lambda m: "\n" * m.group(0).count("\n") + " ", src)
    found: list[tuple[int, str]] = []

    class Texts(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.tags: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append(tag)
            for name, value in attrs:
                if name in ("title", "placeholder", "aria-label", "alt") and value:
                    found.append((self.getpos()[0], value.strip()))

        def handle_endtag(self, tag: str) -> None:
            if tag in self.tags:
                del self.tags[len(self.tags) - 1 - self.tags[::-1].index(tag) :]

        def handle_data(self, data: str) -> None:
            if data.strip() and not {"script", "style", "code"} & set(self.tags):
                found.append((self.getpos()[0], " ".join(data.split())))

    Texts().feed(src)
    return found


def js_literals(src: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of the string literals of a script (a template literal's
    ``${...}`` parts read as ``{}``); comments skipped."""
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(src)
    while i < n:
        if src.startswith("//", i):
            i = src.find("\n", i) % (n + 1) or n
            continue
        if src.startswith("/*", i):
            i = src.find("*/", i) + 2 or n
            continue
        quote = src[i]
        if quote not in "'\"`":
            i += 1
            continue
        j, text = i + 1, []
        while j < n and src[j] != quote:
            if src[j] == "\\":
                text.append(src[j : j + 2])
                j += 2
            elif quote == "`" and src.startswith("${", j):
                depth, j = 1, j + 2
                while j < n and depth:
                    depth += {"{": 1, "}": -1}.get(src[j], 0)
                    j += 1
                text.append("{}")
            else:
                text.append(src[j])
                j += 1
        unescaped = ESCAPE.sub(
            lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), "".join(text)
        )
        out.append((i, j + 1, unescaped))
        i = j + 1
    return out


#: code around a literal that makes it no text for people (a key, a class, a selector)
NOT_SHOWN = re.compile(
    r"(class|className|id|href|type|rel|style|viewBox|points|d|transform|fill)\s*:\s*$"
    r"|(classList\.\w+|querySelector(All)?|closest|getElementById|addEventListener"
    r"|setAttribute|getAttribute|dataset\[|import|from|case)\s*\(?\s*$"
    r"|[=!]==?\s*$"
)


def untranslated_js(path: Path, msgids: set[str]) -> list[tuple[int, str]]:
    src = path.read_text("utf-8")
    found = []
    for start, end, text in js_literals(src):
        shown = text.replace("{}", " ").strip()
        if not WORDS.search(shown) or text in msgids or shown.startswith(("<", ".", "#")):
            continue
        before, after = src[max(0, start - 60) : start], src[end : end + 2]
        if NOT_SHOWN.search(before) or after.lstrip().startswith(":") and "?" not in before[-3:]:
            continue
        found.append((src.count("\n", 0, start) + 1, text))
    return found


def test_templates_and_client_show_no_untranslated_text() -> None:
    msgids = extracted(plurals=True)
    left: list[str] = []
    for path in sorted((ROOT / "templates").glob("*.html")):
        rel = str(path.relative_to(ROOT))
        for line, text in template_texts(path):
            if WORDS.search(text) and text not in NOT_WORDS.get(rel, set()):
                left.append(f"{rel}:{line}: {text!r}")
    for path in sorted((ROOT / "static").rglob("*.js")):
        rel = str(path.relative_to(ROOT))
        for line, text in untranslated_js(path, msgids):
            if text not in NOT_WORDS.get(rel, set()):
                left.append(f"{rel}:{line}: {text!r}")
    assert not left, "texts shown without a translation:\n" + "\n".join(left)


CALL = re.compile(r"""\b(?:t|tn)\(\s*$|\btn\(\s*(?:'[^']*'|"[^"]*")\s*,\s*$""")


def test_every_client_message_is_extracted() -> None:
    """A t() / tn() call written inside the arguments of another is not extracted by
    Babel (its text would stay English): such a call goes into a variable first."""
    msgids = extracted(plurals=True)
    missed = []
    for path in sorted((ROOT / "static").rglob("*.js")):
        src = path.read_text("utf-8")
        for start, _end, text in js_literals(src):
            if CALL.search(src[max(0, start - 200) : start]) and text not in msgids:
                missed.append(
                    f"{path.relative_to(ROOT)}:{src.count(chr(10), 0, start) + 1}: {text!r}"
                )
    assert not missed, "messages not extracted:\n" + "\n".join(missed)


# a t() / tn() call with a literal first argument, wherever it stands (also inside a
# template literal's ${...}, which the check above does not parse)
ANY_CALL = re.compile(r"""\b(?:t|tn)\(\s*(['"])((?:\\.|(?!\1).)*)\1""")


def test_every_literal_t_call_is_extracted() -> None:
    msgids = extracted(plurals=True)
    missed = []
    for path in sorted((ROOT / "static").rglob("*.js")):
        for no, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for m in ANY_CALL.finditer(line):
                text = m.group(2).replace("\\'", "'").replace('\\"', '"')
                if text not in msgids:
                    missed.append(f"{path.relative_to(ROOT)}:{no}: {text!r}")
    assert not missed, "messages not extracted:\n" + "\n".join(missed)


def test_scan_finds_untranslated_text() -> None:
    src = "el('b', {}, 'Rules help'); el('b', { class: 'muted side-box' }, t('Rules help'));"
    found = [text for _s, _e, text in js_literals(src) if WORDS.search(text)]
    assert found == ["Rules help", "muted side-box", "Rules help"]
    path = ROOT / "tests" / "app" / "_scan_probe.js"
    try:
        path.write_text(src + "\nconst x = `${n} units left`;\n", "utf-8")
        assert [t for _l, t in untranslated_js(path, {"Rules help"})] == ["{} units left"]
    finally:
        path.unlink()


def test_every_closed_chat_reason_is_worded_by_the_client() -> None:
    """The chat's closed-line reasons (app/chat/policy.py, stable English texts) are
    catalog messages of static/chat.js, so a French or German reader gets them in his
    language: a new reason without its wording there fails here."""
    from app.chat import policy

    chat_js = (ROOT / "static" / "chat.js").read_text("utf-8")
    reasons = [v for k, v in vars(policy).items() if k.startswith("R_") and isinstance(v, str)]
    reasons += [policy.r_visiting(fg) for fg in policy.FG_NAMES]
    assert len(reasons) > 10
    ids = extracted()
    for r in reasons:
        r = r.lstrip("; ") if r.startswith(";") else r
        assert r in chat_js, r
        assert r in ids or f"; {r}" in ids, r
