"""Named configurations of the tactical policy: the knobs a league compares and a GM picks.

A configuration is everything that makes two tactical players differ: how much each side
weighs its exposure at the end square (on top of the role weights of `ai.roles`), its default
styles (`ai.styles`: attacks on the dying, breaking off when badly hurt, caution), how many
end squares are tried for ranged and area attacks. `CONFIGS` names them;
`ai.driver.make_policy` builds a policy from a name, so `skirmish sim --policy SIDE=NAME` and
the league bench (`tests/benchmarks/bench_league.py`) use the same names.

- `tactical`: the default; what `skirmish play` and `sim` use. It weighs its exposure 1.5
  times the role table's weight, is patient (it won't walk into the enemies' reach on a turn it
  can't attack: `patience`) but waits only for the enemies that will come (`read_comers`,
  `ai.comers`: one that held while my side was hurt, with one of us in its walk or while my
  side is outshot, is no reason to wait), reads each creature's powers to correct its role's
  weights (`read_powers`, `ai.profile`) and the turn order (`read_initiative`: in the surprise
  round, the surprised enemies that act after it land no blow before it moves again) and what
  reaches its body (`read_body`: an insubstantial or invisible creature takes about half the
  blows its exposure counts).
- `classic`: the tactical policy's weights as they were when issue 15 was filed, kept as a
  fixed reference to measure the default against (no patience, roles read from the tag
  only; ruthless, as it was: it attacks the dying while a standing enemy is free).
- `exposure-x2`, `exposure-x3`: `classic` weighing its exposure two and three times as much
  (the patient copies that beat `classic` when the issue was filed).
- `tactical-shooters`: `tactical` whose patience leaves out the enemies that strike from
  afar (`read_shooters`), a candidate for the default: its monsters win `crossroads-4srd`
  against the tactical party where `tactical` ones lose it (docs/ai.md, "Asymmetric play",
  "Round 7"), but as the party too it only ties there, and it falls to 59.5% against
  `exposure-x3` in the `mirror` league.
- `tactical-waiting`: `tactical` as it was before `read_comers` (round 7): patient toward
  every enemy that can walk up and strike, whether or not it comes. Against the tactical
  party its monsters lost `crossroads-4srd` 64 / 94 to `classic` ones over seeds 1-200
  (p = 0.002), which `read_comers` turns into 95 / 94 (docs/ai.md, "Asymmetric play",
  "Round 8").
- `tactical-r8`: `tactical` as it was in round 8, before `read_body`: the exposure of the
  fog's Mist Wraith (insubstantial) and Fen Shade (invisible) counted as a visible, solid
  creature's. Against the tactical party its monsters won `fog` 330 of 1,000 (seeds 1-1000)
  where `classic` ones won 367 and `tactical` ones win 375 (docs/ai.md, "Round 9").
- `tactical-r9`: `tactical` before its end-square exposure grew with the allies around it
  (`crowd` 0.35, allies share the blows, where `tactical` has -0.1: a crowd draws the blows
  and the bursts). Against its own party its monsters lost `brawl` 503 / 558 to `classic`
  ones over seeds 1-1000 (p = 0.001); `tactical` monsters with a `tactical` party beat
  `classic` ones on all eight encounters played (docs/ai.md, "Round 9").
- `tactical-crowd`: `tactical` as it was at the end of round 9, before `read_bursts`: the
  crowd weight -0.1 on every end square, also where no enemy has a burst for it. Its
  monsters lost `battle` (the war band must bunch up to cross the Greywater, against a
  militia with no bursts) 67 / 93 to `classic` ones over seeds 1-440 against its own party;
  `tactical` monsters win it 111 / 104 (docs/ai.md, "Round 10").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ai.styles import Caution, StylePick

TOP_K = 5
"""End squares (best by position) from which ranged and area attacks are tried."""


@dataclass(frozen=True, slots=True)
class AIConfig:
    name: str = "tactical"
    exposure_scale: float = 1.5
    """Multiplies every role's `exposure` weight (`ai.roles.Weights.exposure`). 2 won the
    mirror league too but made monsters too passive against a party; 1 played parties well but
    fell under 60% against exposure-x3 at the `gate` (docs/ai.md, "The league")."""
    flee: bool = False
    """Monsters (not minions, not player characters) break off when badly hurt."""
    top_k: int = TOP_K
    patience: float = 1.0
    """Multiplies every role's `patience` weight (`ai.roles.Weights.patience`): what a turn
    with no attack pays for ending where enemies can walk up and strike first."""
    patient_turns: int = 5
    """Idle turns (nothing attacked) that wear the patience down to nothing (5 beat 3 against
    exposure-x3 at the `gate` chokepoint: 44-16 against 36-24 over the same 60 fights)."""
    read_powers: bool = True
    """Correct the role's weights by what the creature's powers do (`ai.profile`)."""
    read_initiative: bool = True
    """Leave out of the exposure the enemies that can't strike before the creature acts
    again (surprised ones after it in the surprise round: `ai.initiative`)."""
    read_shooters: bool = False
    """Patience leaves out the enemies that strike from afar (`ai.moving.melee_part`): off
    in `tactical` until measured everywhere; on in `tactical-shooters` (docs/ai.md,
    "Asymmetric play")."""
    read_comers: bool = True
    """Patience waits only for the enemies that will come: one that kept its distance on
    its last turn while my side was hurt is left out (`ai.comers`; docs/ai.md, "Patience"):
    on in `tactical`, off in `tactical-waiting` (round 7's default)."""
    read_body: bool = True
    """Weigh the enemies' blows at the end square by what reaches this creature's body: half
    on an insubstantial one (F-DMG-5), half on an invisible one, that no enemy sees (F-MOD-8,
    F-MOD-11: -5 to hit; `ai.position.body_share`): on in `tactical`, off in `tactical-r8`
    (round 8's default; docs/ai.md, "Asymmetric play", "Round 9")."""
    crowd: float = -0.1
    """What allies near the end square do to its exposure (`ai.roles.Weights.crowd`): divided
    by `1 + crowd * allies` (allies within 2 squares, up to 3). -0.1 in `tactical`: a crowd
    draws the enemies' blows and their bursts (only where they reach, with `read_bursts`);
    0.35 (allies share the blows) in `classic` and in `tactical-r9` (docs/ai.md, "Round 9")."""
    read_bursts: bool = True
    """`crowd` counts only on the end squares where at least half of the enemies that can
    hurt the creature there have an unspent burst or blast that reaches it next round
    (`ai.position.burst_far`); elsewhere allies share the blows (0.35, as in `classic`): on
    in `tactical`, off in `tactical-crowd` (docs/ai.md, "Round 10")."""
    ruthless: bool = False
    """Attacks the dying while a standing enemy is free to attack (`ai.styles`)."""
    caution: Caution = "normal"
    """Scales the exposure and opportunity attack weights (`ai.styles.CAUTION_SCALE`)."""
    calm: bool = True
    """Never provoke needlessly: the chosen turn gives way to the same turn provoking fewer,
    and minor actions pay for what they provoke (`ai.provoking`; off in `classic`)."""
    style: StylePick = field(default_factory=StylePick)
    """The command line's `--ai-style` choices for this side: over the content's `ai` fields,
    which are over the three fields above (`ai.styles.resolve`)."""


CLASSIC = AIConfig(
    name="classic",
    exposure_scale=1.0,
    patience=0.0,
    read_powers=False,
    read_initiative=False,
    read_comers=False,
    read_body=False,
    crowd=0.35,
    read_bursts=False,
    ruthless=True,
    calm=False,
)
CONFIGS: dict[str, AIConfig] = {
    "tactical": AIConfig(),
    "classic": CLASSIC,
    "exposure-x2": replace(CLASSIC, name="exposure-x2", exposure_scale=2.0),
    "exposure-x3": replace(CLASSIC, name="exposure-x3", exposure_scale=3.0),
    "tactical-shooters": AIConfig(
        name="tactical-shooters",
        read_shooters=True,
        read_comers=False,
        read_body=False,
        crowd=0.35,
    ),
    "tactical-waiting": AIConfig(
        name="tactical-waiting", read_comers=False, read_body=False, crowd=0.35
    ),
    "tactical-r8": AIConfig(name="tactical-r8", read_body=False, crowd=0.35),
    "tactical-r9": AIConfig(name="tactical-r9", crowd=0.35),
    "tactical-crowd": AIConfig(name="tactical-crowd", read_bursts=False),
}


def config_named(name: str) -> AIConfig:
    """The named configuration; ValueError naming the known ones otherwise."""
    try:
        return CONFIGS[name]
    except KeyError:
        known = ", ".join(sorted(CONFIGS))
        raise ValueError(f"unknown AI configuration {name!r} (one of: {known})") from None
