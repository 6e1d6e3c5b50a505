"""Translations: the gettext catalogs of app/locales/ for the pages, the API's error
messages and the browser client.

English is the source language: every message id is the English text, so English needs no
catalog.  ``app/locales/messages.pot`` is what ``make messages`` extracts (babel.cfg: the
Python of app/, the Jinja2 templates, the client's ``t('...')`` calls in static/);
``app/locales/<lang>/LC_MESSAGES/messages.po`` holds one language's translations and is read
at start (no compiled ``.mo`` file to keep in step).  tests/app/test_i18n.py fails when the
template is out of date or a message has no translation.

A request's language: the ``lang`` cookie (the switch in the page header) if it names a
known language, else the best one of the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import gettext
import hashlib
import io
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection

from .error_text import ERROR_TEXT, N_

__all__ = ["N_"]

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
#: The languages offered, each named in itself (the header's switch).
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch"}
DEFAULT = "en"
COOKIE = "lang"


def po_path(lang: str) -> Path:
    """The catalog file of one language."""
    return LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """One language's translations (English, or a language without a catalog: none)."""
    path = po_path(lang)
    if lang == DEFAULT or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)  # fuzzy entries left out: an unchecked guess is not shown
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@lru_cache(maxsize=None)
def client_catalog(lang: str) -> dict[str, Any]:
    """What the browser client gets (``/i18n/<lang>.json``): ``messages`` maps each English
    text to its translation (translated ones only), ``plurals`` the English singular of each
    message with plural forms to its translated forms in the catalog's order (static/i18n.js
    ``tn()``), ``errors`` each error code to its translated message (app/error_text.py)."""

    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    path = po_path(lang)
    if lang != DEFAULT and path.is_file():
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang)
        for m in catalog:
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, str) and m.string:
                messages[m.id] = str(m.string)
            elif isinstance(m.id, tuple | list) and isinstance(m.string, tuple | list):
                if all(m.string):
                    plurals[m.id[0]] = [str(x) for x in m.string]
    tr = translations(lang)
    return {
        "lang": lang,
        "messages": messages,
        "plurals": plurals,
        "errors": {code: tr.gettext(text) for code, text in ERROR_TEXT.items()},
    }


@lru_cache(maxsize=None)
def catalog_version(lang: str) -> str:
    """A short hash of the client catalog: its URL changes when the catalog does (cached)."""
    import json

    blob = json.dumps(client_catalog(lang), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


def parse_accept_language(header: str) -> list[str]:
    """The primary language tags of an ``Accept-Language`` header, best first (RFC 9110
    12.5.4: ``q`` weights, ``q=0`` means "not this one")."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        tag = tag.strip().lower().split("-")[0]
        if tag and q > 0:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def language_of(conn: HTTPConnection) -> str:
    """The language of one request or websocket: the ``lang`` cookie, else the browser's."""
    chosen = conn.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    for tag in parse_accept_language(conn.headers.get("accept-language", "")):
        if tag in LANGUAGES:
            return tag
    return DEFAULT


def gettext_for(lang: str) -> Any:
    """``gettext`` of one language (a function of the English text)."""
    return translations(lang).gettext


def ngettext_for(lang: str) -> Any:
    """``ngettext`` of one language (singular, plural, count)."""
    return translations(lang).ngettext


@jinja2.pass_context
def _jinja_gettext(ctx: jinja2.runtime.Context, message: str) -> str:
    return translations(ctx.get("lang") or DEFAULT).gettext(message)


@jinja2.pass_context
def _jinja_ngettext(ctx: jinja2.runtime.Context, singular: str, plural: str, n: int) -> str:
    return translations(ctx.get("lang") or DEFAULT).ngettext(singular, plural, n)


@jinja2.pass_context
def _jinja_term(ctx: jinja2.runtime.Context, text: Any) -> str:
    return translations(ctx.get("lang") or DEFAULT).gettext(str(text)) if text else ""


def template_environment(directory: Path) -> jinja2.Environment:
    """The pages' Jinja2 environment: autoescaped, with ``{% trans %}`` and ``_()`` in the
    language of the page's ``lang`` (set by :func:`page_context`), and the ``term`` filter:
    a text the server holds (a scenario's name, app/i18n_terms.py) in that language."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(directory)),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(_jinja_gettext, _jinja_ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.filters["term"] = _jinja_term
    return env


def page_context(request: Any) -> dict[str, Any]:
    """What every page knows about its language (a Jinja2Templates context processor)."""
    lang = language_of(request)
    return {
        "lang": lang,
        "languages": LANGUAGES,
        "i18n_url": f"/i18n/{lang}.json?v={catalog_version(lang)}",
    }
