"""The start screen: the unfinished fights to resume (newest first), then the bundled
encounters with their description, size and ruleset; `default` is selected, so that
`skirmish` then Enter starts the default fight, and `r` resumes the newest unfinished one.

The screen draws at once and fills its list from a worker: listing the encounters loads the
content code (pydantic, networkx), which is most of the app's start-up time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tui.safetext import cells, clean, fit, fit_words, pad, plain

if TYPE_CHECKING:
    from engine.autosave import SaveInfo
    from engine.content.bundled import EncounterInfo

TITLE = "SKIRMISH  tactical d20 encounters"
HELP_TITLE = "Keys on the start screen (in a fight, ? lists the fight's keys)"
MAX_RESUMES = 5
"""Unfinished fights offered here (`skirmish resume` lists them all)."""


unreadable: list[SaveInfo] = []
"""Saves the last `load_lists` couldn't read (each with its `error`): the offer counts them."""


def tail_fit(source: str, width: int) -> str:
    """An encounter's name as `skirmish play` takes it back: a bundled name, or a file's path
    cut from the left when long, since its end tells it apart ("…/fixtures/hostile.yaml")."""
    text = clean(source)
    if cells(text) <= width:
        return text
    out = ""
    for ch in reversed(text):
        if cells(out + ch) + 1 > width:
            break
        out = ch + out
    return "…" + out


def load_lists() -> tuple[list[EncounterInfo], list[SaveInfo], str | None]:
    """The bundled encounters, the unfinished fights, and why the encounters can't be listed
    (a broken bundled file must not hide the fights to resume). Worker thread: it imports
    the engine."""
    from engine.autosave import list_saves

    everything = list_saves()  # a bad file is listed with its error, never raised
    saves = [s for s in everything if s.error is None and not s.finished]
    unreadable.clear()
    unreadable.extend(s for s in everything if s.error is not None)
    try:
        from engine.content.bundled import bundled_encounters

        return bundled_encounters(), saves, None
    except Exception as exc:  # ContentErrors: say it, keep the app up
        return [], saves, str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class StartScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Play", tooltip="play the highlighted fight (default: default)"),
        Binding("q,escape", "quit", "Quit", tooltip="leave Skirmish"),
        Binding("r", "resume", "Resume newest", tooltip="play on the newest unfinished fight"),
        Binding("question_mark", "help", "Help", tooltip="this help"),
        Binding("down,j", "down", "Down", show=False, tooltip="next in the list"),
        Binding("up,k", "up", "Up", show=False, tooltip="previous in the list"),
    ]

    def __init__(
        self,
        encounters: list[EncounterInfo] | None = None,
        saves: list[SaveInfo] | None = None,
    ) -> None:
        super().__init__()
        self.encounters = encounters
        self.saves: list[SaveInfo] = saves or []

    def compose(self) -> ComposeResult:
        with Vertical(id="start"):
            yield Static(Text(TITLE, style="bold"), id="start-title")
            yield Static("", id="start-resume")
            yield Static("Loading the encounters...", id="start-hint")
            yield OptionList(id="encounters")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#start-resume", Static).display = False
        self.query_one(OptionList).focus()
        if self.encounters is not None:
            self.fill(self.encounters, self.saves)
        else:
            self.run_worker(self._load, thread=True, group="start", exit_on_error=False)

    def _load(self) -> None:
        encounters, saves, problem = load_lists()
        self.app.call_from_thread(self.fill, encounters, saves, problem)

    def description_room(self) -> int:
        """Cells for a description on its one line: the list's width less the option's
        padding and the three-space indent (70 before the list has a size)."""
        width = self.query_one(OptionList).scrollable_content_region.width
        return max(12, width - 2 - 3) if width > 0 else 70

    def on_resize(self) -> None:
        """Descriptions are cut to the width: cut them again (the highlight stays put)."""
        if self.encounters is None:
            return
        ol = self.query_one(OptionList)
        index = ol.highlighted
        option_id = ol.get_option_at_index(index).id if index is not None else None
        self.fill(self.encounters, self.saves)
        if option_id is not None:
            ol.highlighted = ol.get_option_index(option_id)

    def fill(
        self, encounters: list[EncounterInfo], saves: list[SaveInfo], problem: str | None = None
    ) -> None:
        from tui.cli_saves import when

        self.encounters = encounters
        self.saves = saves[:MAX_RESUMES]
        options: list[Option | None] = []
        for i, s in enumerate(self.saves):
            line = Text()
            line.append("Resume ", style="bold reverse")
            line.append(f" {tail_fit(s.encounter, 30)}", style="bold")
            line.append(f"  round {s.round}, {when(s.updated)}")
            options.append(Option(line, id=f"resume:{i}"))
        if self.saves:
            options.append(None)
        name_w = max((len(e.name) for e in encounters), default=0)
        room = self.description_room()
        for e in encounters:
            line = Text()
            line.append(pad(e.name, name_w), style="bold")
            size = f"{e.width}x{e.height}"
            line.append(f"  {size:>5}  {pad(e.ruleset, 6)} {e.creatures:>2} creatures\n")
            line.append(f"   {fit_words(e.description, room)}", style="italic")
            options.append(Option(line, id=e.name))
        ol = self.query_one(OptionList)
        ol.set_options(options)
        # By id: separators are not options, so counting rows lands one too far (on `fog`).
        first = "default" if "default" in {e.name for e in encounters} else None
        if first is None and encounters:
            first = encounters[0].name
        if first is not None:
            ol.highlighted = ol.get_option_index(first)
            self.call_after_refresh(ol.scroll_to_highlight)
        hint = "Choose an encounter (Enter plays it):"
        if problem:
            hint = f"Can't list the encounters: {problem}"
        self.query_one("#start-hint", Static).update(plain(fit(hint, 76)))
        offer = self.query_one("#start-resume", Static)
        text = Text()
        if self.saves:
            newest = self.saves[0]
            n = len(saves)
            text.append(f"{n} unfinished fight{'s' if n > 1 else ''}", style="bold")
            text.append(
                f": r resumes the newest ({tail_fit(newest.encounter, 30)}, round {newest.round}, "
                f"{when(newest.updated)})"
            )
            if n > 1:
                text.append("; the others are at the top of the list")
        if unreadable:  # never hidden: say so, and where the reasons are
            bad = len(unreadable)
            text.append("\n" if self.saves else "")
            text.append(f"{bad} save{'s' if bad > 1 else ''} can't be read", style="bold")
            text.append(" (`skirmish resume` lists why)")
        offer.update(text)
        offer.display = bool(self.saves or unreadable)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.saves) if action == "resume" else True

    @on(OptionList.OptionSelected)
    def _start(self, event: OptionList.OptionSelected) -> None:
        from tui.app import SkirmishApp

        app = self.app
        assert isinstance(app, SkirmishApp)
        oid = event.option.id or "default"
        if oid.startswith("resume:"):
            app.resume_save(self.saves[int(oid.split(":")[1])].path)
        else:
            app.play_named(oid)

    def action_resume(self) -> None:
        from tui.app import SkirmishApp

        app = self.app
        assert isinstance(app, SkirmishApp)
        if not self.saves:
            self.notify("No unfinished fight to resume", timeout=3)
            return
        app.resume_save(self.saves[0].path)

    def action_quit(self) -> None:
        self.app.exit(0)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.BINDINGS, HELP_TITLE))

    def action_select(self) -> None:
        self.query_one(OptionList).action_select()

    def action_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()
