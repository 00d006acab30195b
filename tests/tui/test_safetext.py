"""tui.safetext (issue 17, names that reach the terminal): control, bidi and zero-width
characters are made visible, widths are measured in cells, and long names are ellipsised."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from tests.support.hostile import NAMES
from tui.safetext import REPLACEMENT, cells, clean, first_line, fit, fit_words, name, pad, plain


def _obeyable(s: str) -> list[str]:
    import unicodedata

    return [
        ch
        for ch in s
        if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F or unicodedata.category(ch) in ("Cf", "Cs")
    ]


@pytest.mark.parametrize("key", sorted(NAMES))
def test_hostile_name_cleaned_has_nothing_a_terminal_obeys(key: str) -> None:
    out = clean(NAMES[key])
    assert _obeyable(out) == []


def test_escape_sequences_made_visible_not_dropped() -> None:
    assert clean("\x1b[2J\x1b]0;pwned\x07") == "␛[2J␛]0;pwned␇"
    assert clean("a\x00b\x7fc") == "a␀b␡c"


def test_c1_bidi_and_zero_width_become_replacement_characters() -> None:
    assert clean("x\x9by") == f"x{REPLACEMENT}y"
    assert clean("Gob\u202elin") == f"Gob{REPLACEMENT}lin"
    assert clean("Zer\u200bo") == f"Zer{REPLACEMENT}o"
    assert clean("a\ufeffb\u2066c\u2028d") == f"a{REPLACEMENT}b{REPLACEMENT}c{REPLACEMENT}d"
    assert clean("soft\xadhyphen") == f"soft{REPLACEMENT}hyphen"


def test_lone_surrogate_from_a_file_name_is_replaced() -> None:
    assert clean("save\udcff.jsonl") == f"save{REPLACEMENT}.jsonl"


def test_newlines_kept_only_when_asked() -> None:
    assert clean("a\nb\tc") == "a␊b␉c"
    assert clean("a\nb\tc", newlines=True) == "a\nb c"


def test_plain_text_and_wide_characters_untouched() -> None:
    for s in ("Goblin Cutter", "龍🐉剣士😀", "Ærwyn Þórsdóttir", "مرحبا", "e\u0301"):
        assert clean(s) == s


def test_zalgo_combining_marks_capped() -> None:
    assert clean("a" + "\u0301" * 40) == "a\u0301\u0301"


def test_markup_is_kept_as_text_in_plain() -> None:
    text = plain("[link=file:///etc/passwd]x[/link]")
    assert text.plain == "[link=file:///etc/passwd]x[/link]"
    assert not text.spans


def test_fit_by_cells_with_ellipsis() -> None:
    assert fit("Goblin", 10) == "Goblin"
    assert fit("Goblin Cutter", 8) == "Goblin …"
    wide = fit("龍龍龍龍龍", 6)
    assert cells(wide) <= 6 and wide.endswith("…")
    assert cell_len(fit("🐉" * 50, 7)) <= 7


def test_pad_makes_exact_columns_for_wide_names() -> None:
    for s in ("Gob", "龍🐉剣士😀", "L" * 200, "Zer\u200bo"):
        assert cell_len(pad(s, 12)) == 12


def test_long_name_in_sentence_is_short() -> None:
    assert cell_len(name("L" * 200)) == 24


def test_first_line_of_error_is_clean() -> None:
    assert first_line("bad \x1b]0;x\x07 name\nsecond") == "bad ␛]0;x␇ name"


def test_fit_words_cuts_at_a_word_boundary() -> None:
    text = "The Lantern Company storms a ruined watchtower yard held by six Red Hand raiders."
    out = fit_words(text, 40)
    assert out == "The Lantern Company storms a ruined…"
    assert cells(out) <= 40
    assert text.startswith(out[:-1])


def test_fit_words_keeps_what_fits_and_drops_trailing_punctuation() -> None:
    assert fit_words("A short line.", 40) == "A short line."
    assert fit_words("one, two, three, four", 11) == "one, two…"
    assert fit_words("anything", 0) == ""


def test_fit_words_cuts_mid_word_only_for_a_very_long_first_word() -> None:
    out = fit_words("Supercalifragilisticexpialidocious is long", 12)
    assert out == "Supercalifr…" and cells(out) == 12


@pytest.mark.parametrize("key", sorted(NAMES))
def test_fit_words_hostile_text_is_clean_and_within_width(key: str) -> None:
    for width in (1, 5, 17, 40):
        out = fit_words(NAMES[key] + " and more words after it", width)
        assert _obeyable(out) == []
        assert cell_len(out) <= width
