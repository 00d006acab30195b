"""A seat's connection to the host: asyncio streams on the table's Unix socket, requests up,
news down (`tui.table.protocol`). The seat app, the tests, the soak scripts and the benchmark
all talk to a host through this one class; it holds no rules and no authority."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import Any

from tui.table import protocol as P


class SeatClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._next = 0

    @classmethod
    async def connect(cls, path: str | os.PathLike[str]) -> SeatClient:
        """OSError (one line) if there's no table at `path` or it isn't ours to reach."""
        reader, writer = await asyncio.open_unix_connection(os.fspath(path), limit=P.MAX_DOWN)
        return cls(reader, writer)

    async def send(self, t: str, **fields: Any) -> int:
        """Send a request; return its id (echoed in the host's answer)."""
        self._next += 1
        self.writer.write(P.request(t, id=self._next, **fields))
        await self.writer.drain()
        return self._next

    async def send_raw(self, line: bytes) -> None:
        """Any bytes at all (the fuzz tests)."""
        self.writer.write(line)
        await self.writer.drain()

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the host; EOFError when the host hung up; ProtocolError for
        a line that isn't one."""
        try:
            line = await asyncio.wait_for(self.reader.readuntil(b"\n"), timeout)
        except asyncio.IncompleteReadError:
            raise EOFError("the host hung up") from None
        except asyncio.LimitOverrunError:
            raise P.ProtocolError("too-long", "the host sent an over-long line") from None
        return P.decode_news(line)

    async def until(self, *types: str, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message of one of `types` arrives (others are skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"no {'/'.join(types)} from the host")
            msg = await self.recv(left)
            if msg["t"] in types:
                return msg

    async def hello(self, seat: str) -> dict[str, Any]:
        """Take `seat`: the `welcome`, or the `refused` message."""
        await self.send("hello", seat=seat)
        return await self.until("welcome", "refused", "error")

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()
