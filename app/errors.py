"""One error base class for the whole app, mapped to JSON by one exception handler.

Every error answers ``{"error": {"code", "message", "details"}}`` with a stable ``code``
(documented in docs/protocol.md).  Engine refusals (``EngineError``) map to 422 with the
engine's own code.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .engine_api import EngineError
from .error_text import ERROR_TEXT
from .i18n import DEFAULT, gettext_for, language_of

log = logging.getLogger("app")


class AppError(Exception):
    """Base of every refusal the server makes.  Subclasses fix ``code`` and ``status``."""

    code: str = "app_error"
    status: int = 400

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        status: int | None = None,
        **details: Any,
    ) -> None:
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.message = message or self.code.replace("_", " ")
        self.details = details
        super().__init__(f"{self.code}: {self.message}")

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class BadRequest(AppError):
    code, status = "bad_request", 400


class Unauthenticated(AppError):
    code, status = "unauthenticated", 401


class Forbidden(AppError):
    code, status = "forbidden", 403


class NotFound(AppError):
    code, status = "not_found", 404


class Conflict(AppError):
    code, status = "conflict", 409


class Unprocessable(AppError):
    code, status = "unprocessable", 422


class TooLarge(AppError):
    code, status = "file_too_large", 413


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def localized(request: Request, code: str, message: str) -> str:
    """The message of a refusal in the request's language (app/error_text.py): English
    keeps the refusal's own words; the code is never translated."""
    lang = language_of(request)
    if lang == DEFAULT or code not in ERROR_TEXT:
        return message
    return str(gettext_for(lang)(ERROR_TEXT[code]))


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(request: Request, exc: AppError) -> JSONResponse:
        return JSONResponse(
            error_body(exc.code, localized(request, exc.code, exc.message), exc.details),
            status_code=exc.status,
        )

    @app.exception_handler(EngineError)
    async def _engine_error(request: Request, exc: EngineError) -> JSONResponse:
        return JSONResponse(
            error_body(
                exc.code, localized(request, exc.code, exc.message), exc.to_dict().get("details")
            ),
            status_code=422,
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in exc.errors()
        ]
        return JSONResponse(
            error_body(
                "validation_error",
                localized(request, "validation_error", "request validation failed"),
                {"errors": errors},
            ),
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(code, localized(request, code, str(exc.detail))), status_code=exc.status_code
        )

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse(error_body("internal_error", "internal server error"), status_code=500)
