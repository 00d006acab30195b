"""The seat app: the Skirmish app's fight screen, fed by a table's host instead of an engine.

It joins the host's socket, takes its seat (`hello`) and then only reads news and sends
requests: the host decides everything (what is legal, what this seat may see, what an aimed
power would do). If the host refuses the seat or hangs up, the app ends with one line.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from tui.table.client import SeatClient
from tui.table.protocol import ProtocolError

REJOIN_SECONDS = 300.0
"""How long a seat waits for its host to come back (a restart with --resume)."""


class SeatApp(App[int]):
    CSS_PATH = "../skirmish.tcss"
    TITLE = "Skirmish table"
    ENABLE_COMMAND_PALETTE = False
    """A seat behind a forced command may play and nothing else: the palette's system
    commands (a screenshot saved as a file, for one) would run as the host's account."""
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012 (a plain attribute on App)
        (0, "-narrow"),
        (110, "-wide"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True)
    ]

    def __init__(self, socket: str | os.PathLike[str], seat: str) -> None:
        super().__init__()
        self.socket = socket
        self.seat = seat
        self.client: SeatClient | None = None
        self.problem: str | None = None
        """Why the app ended badly (printed by `skirmish join`)."""

    def compose(self) -> ComposeResult:
        yield Static(f"Joining the table as {self.seat}...", id="joining")

    def on_mount(self) -> None:
        self.run_worker(self._join(), group="net", exit_on_error=False)

    async def _join(self) -> None:
        try:
            self.client = await SeatClient.connect(self.socket)
            got = await self.client.hello(self.seat)
        except (OSError, EOFError, TimeoutError, ProtocolError) as exc:
            return self.fail(f"can't reach the table: {exc}")
        if got["t"] != "welcome":
            return self.fail(str(got.get("reason", "refused")))
        from tui.table.seat_screen import SeatScreen

        screen = SeatScreen(self.client, got)
        await self.push_screen(screen)
        await screen.listen()

    async def rejoin(self, patience: float = REJOIN_SECONDS) -> SeatClient | None:
        """Take the seat again once a host answers (None: none did, or it refused us)."""
        import asyncio

        if self.client is not None:
            await self.client.close()
        self.client = None
        loop = asyncio.get_running_loop()
        end = loop.time() + patience
        while loop.time() < end:
            try:
                client = await SeatClient.connect(self.socket)
                got = await client.hello(self.seat)
            except (OSError, EOFError, TimeoutError):
                await asyncio.sleep(0.5)
                continue
            if got["t"] != "welcome":
                await client.close()
                return None
            self.client = client
            return client
        return None

    def fail(self, message: str) -> None:
        self.problem = message
        self.exit(1)

    async def send(self, t: str, **fields: Any) -> None:
        if self.client is None:
            return
        try:
            await self.client.send(t, **fields)
        except (OSError, ConnectionError):
            self.fail("lost the table (the host went away)")

    async def on_unmount(self) -> None:
        if self.client is not None:
            await self.client.close()
