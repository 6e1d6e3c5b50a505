"""A real SMTP server for the tests (aiosmtpd, on a free loopback port) that keeps every
message it receives."""

from __future__ import annotations

import contextlib
import email
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller

from .conftest import Server, backend, free_port, stateless_client


class Mailbox:
    """``SMTP_URL`` for the server under test, and the messages received."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=default)
        self.messages.append(msg)  # type: ignore[arg-type]
        return "250 OK"

    def wait(
        self, to: str, subject: str = "", count: int = 1, timeout: float = 15
    ) -> list[EmailMessage]:
        """The messages to ``to`` whose subject holds ``subject``, once there are ``count``."""
        deadline = time.monotonic() + timeout
        while True:
            got = [m for m in self.messages if to in str(m["To"]) and subject in str(m["Subject"])]
            if len(got) >= count or time.monotonic() > deadline:
                return got
            time.sleep(0.05)

    @staticmethod
    def link(msg: EmailMessage, path: str) -> str:
        """The token of the first link to ``path`` in the message's text."""
        body = msg.get_content()
        m = re.search(re.escape(path) + r"\?token=([A-Za-z0-9_.\-]+)", body)
        assert m, body
        return m.group(1)


@contextlib.contextmanager
def mailing_server(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    box: Mailbox,
    env: dict[str, str],
) -> Iterator[Server]:
    """A server of backend ``request.param`` that mails through ``box`` (registration and
    sign-in limits raised: every test client comes from 127.0.0.1)."""
    base = {
        "SMTP_URL": box.url,
        "RATE_LIMITS": "register=1000/hour,login=1000/minute",
    }
    with backend(request.param, Path(tmp_path_factory.mktemp("mail")), {**base, **env}) as srv:
        yield srv


@contextlib.contextmanager
def client(srv: Server) -> Iterator[httpx.Client]:
    with stateless_client(srv) as c:
        yield c
