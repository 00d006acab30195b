"""How real files arrive: byte-order marks, CRLF, non-ASCII names, stray Windows paths,
pages with scripts, broken lines, several stat blocks in one file (issue 18)."""

from __future__ import annotations

from engine.importers import import_bytes
from engine.importers.run import detect
from tests.support.importers import SAMPLES, creature, imported, powers


def test_bom_and_crlf_character_builder_save() -> None:
    raw = (SAMPLES / "brunhilde-fighter.dnd4e").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw  # the sample is what it claims
    hero = creature("brunhilde-fighter.dnd4e", "brunhilde-eisenfaust")
    assert hero["name"] == "Brünhilde Eisenfaust"
    lf = import_bytes(raw.removeprefix(b"\xef\xbb\xbf").replace(b"\r\n", b"\n"), "lf.dnd4e")
    assert lf.library()["creatures"][0] == hero  # same content whatever the line ends


def test_windows_paths_in_text_fields_never_reach_the_content() -> None:
    text = str(imported("brunhilde-fighter.dnd4e").library())
    assert "C:\\" not in text and "D:\\" not in text and "Users" not in text


def test_the_same_save_in_utf16_imports_the_same() -> None:
    raw = (SAMPLES / "ilvaris-wizard.dnd4e").read_text(encoding="utf-8")
    utf16 = raw.replace('encoding="utf-8"', 'encoding="utf-16"').encode("utf-16")
    got = import_bytes(utf16, "wizard16.dnd4e")
    assert got.library() == imported("ilvaris-wizard.dnd4e").library()


def test_pasted_text_with_broken_lines_and_crlf() -> None:
    raw = (SAMPLES / "fen-raiders.txt").read_bytes()
    assert b"\r\n" in raw and b"Bloodied\r\n31" in raw and b"vs.\r\nReflex" in raw
    hag = powers("fen-raiders.txt", "mire-hag")
    assert "Wail of the Drowned" in hag  # a name broken over two lines
    assert hag["Bog Bolt"]["attack"] == {"vs": "reflex", "bonus": 8}  # "vs." / "Reflex"
    skulker = powers("fen-raiders.txt", "bog-goblin-skulker")
    assert skulker["Dart"]["usage"] == "at-will"  # "(standard;" / "at-will)"
    assert skulker["Rusty Spear"]["basic"] is True  # the "m" icon letter: basic melee


def test_recharge_as_die_faces_and_as_numbers() -> None:
    assert powers("marsh-wyrm.txt", "marsh-wyrm")["Acid Breath"]["recharge"] == 5  # ⚄ ⚅
    assert powers("fen-raiders.txt", "mire-hag")["Choking Mire"]["recharge"] == 5  # 5 6
    assert powers("ogre-warhulk.html", "ogre-warhulk")["Sweeping Club"]["recharge"] == 5
    assert powers("ogre-warhulk.html", "ogre-warhulk")["Hurl Boulder"]["recharge"] == 6


def test_html_page_scripts_and_titles_are_not_read() -> None:
    # the page's <script> holds "<b>AC</b> 99": never read as the AC
    assert creature("ogre-warhulk.html", "ogre-warhulk")["defenses"]["ac"] == 22


def test_one_file_per_source_with_every_creature_in_it() -> None:
    ids = [c["id"] for c, _, _ in imported("fen-raiders.txt").creatures]
    assert ids == ["bog-goblin-skulker", "mire-hag"]


def test_sources_are_told_apart_by_content() -> None:
    assert detect(b"\xef\xbb\xbf<?xml version='1.0'?><D20Character/>", "x.txt") == "cb4e"
    assert detect(b"<html><h1>", "x.dnd4e") == "cb4e"  # the extension says a save
    assert detect(b"Goblin  Level 1 Brute", "x.txt") == "text"
    assert detect(b"", "party.library") == "masterplan"
    assert detect(b"<?xml version='1.0'?><html><body><h1>", "page.xhtml") == "text"
    assert imported("ogre-warhulk.html").source == "html"
    assert imported("marsh-wyrm.txt").source == "text"


def test_elite_and_solo_action_points_and_the_rank_rule_when_none_is_printed() -> None:
    assert creature("ogre-warhulk.html", "ogre-warhulk")["action_points"] == 1
    assert creature("marsh-wyrm.txt", "marsh-wyrm")["action_points"] == 2
    text = (SAMPLES / "marsh-wyrm.txt").read_text().replace("Action Points 2\n", "")
    got = import_bytes(text.encode(), "wyrm.txt")
    assert got.library()["creatures"][0]["action_points"] == 2
    assert any("solo rule" in s for s in got.creatures[0][2].summary)


def test_ids_stay_unique_across_files_of_one_import() -> None:
    taken: set[str] = set()
    a = import_bytes((SAMPLES / "marsh-wyrm.txt").read_bytes(), "a.txt", taken)
    b = import_bytes((SAMPLES / "marsh-wyrm.txt").read_bytes(), "b.txt", taken)
    ids_a = {p["id"] for p in a.library()["powers"]} | {a.library()["creatures"][0]["id"]}
    ids_b = {p["id"] for p in b.library()["powers"]} | {b.library()["creatures"][0]["id"]}
    assert not ids_a & ids_b
    assert b.library()["creatures"][0]["id"] == "marsh-wyrm-2"


def test_the_newer_stat_block_layout_with_action_sections_and_labels() -> None:
    """Monster Manual 3 / Monster Vault: `m Name (keywords) ✦ Usage` under "Standard
    Actions", "Minor Actions", "Triggered Actions"; `Attack:`/`Hit:`/`Miss:` lines; traits."""
    ogre = powers("cinder-ogre-mm3.txt", "cinder-ogre-bruiser")
    assert ogre["Burning Maul"]["basic"] is True and ogre["Burning Maul"]["keywords"] == ["fire"]
    assert ogre["Cinder Glare"]["action"] == "minor"
    assert ogre["Cinder Glare"]["hit"]["effects"] == [
        {"duration": "end_of_next_turn", "conditions": ["blinded"]}
    ]
    assert ogre["Ash Sweep"]["hit"]["forced"] == {"kind": "push", "distance": 1}
    assert ogre["Ash Sweep"]["miss"] == {"half_damage": True}
    flare = ogre["Flare Up"]
    assert flare["action"] == "free"  # "Effect (Free Action):" under "Triggered Actions"
    assert "Trigger: The ogre is first bloodied." in flare["description"]
    text = creature("cinder-ogre-mm3.txt", "cinder-ogre-bruiser")["description"]
    assert "Smoldering Hide" in text and "Threatening Reach" in text and "Darkvision" in text


def test_a_melee_weapon_power_with_a_reach_weapon_has_its_reach() -> None:
    raw = (SAMPLES / "brunhilde-fighter.dnd4e").read_bytes()
    glaive = raw.replace(b'name="Longsword" type="Weapon"', b'name="Glaive" type="Weapon"')
    got = {p["name"]: p for p in import_bytes(glaive, "glaive.dnd4e").library()["powers"]}
    assert got["Cleave"]["reach"] == 2 and got["Melee Basic Attack"]["reach"] == 2
    assert "reach" not in powers("brunhilde-fighter.dnd4e", "brunhilde-eisenfaust")["Cleave"]
