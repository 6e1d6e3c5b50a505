"""The browser client's files (``/static``)."""

from __future__ import annotations

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope


class ClientFiles(StaticFiles):
    """``/static``, each response marked ``Cache-Control: no-cache``: a browser asks on
    every page load whether a file changed (a 304 by its ETag when not).  The modules
    import each other by plain names, without versions, so a browser that kept an old
    one by its own guess (no cache header: a fraction of the file's age) could run it
    beside a new one after a deploy, and a page would break on a missing export."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return response
