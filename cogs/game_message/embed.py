"""The game message's embed: what the player reads about a game, from a ``GameRecord`` alone.

Pure text building, and the notes that say why a click changed nothing; the buttons live in
``cogs/game_message/view.py``, the picture of the table in ``games.picture``. The text says only what the picture
cannot: what to do now and what the last move did. Every function takes the reader's ``Messages`` as ``tr``
(English by default): a game message is written in its player's language.
"""

from __future__ import annotations

import dataclasses

import discord

from app.daily.days import DAILY_RULES, day_end
from cogs.text.card_text import readable
from cogs.text.command_text import command_word, slash
from games.engine import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    CARDS_FACED,
    DEAD,
    IN_UNDERWORLD,
    JOKER,
    LOOP_BONUS,
    MAX_LOOPS,
    MERCHANT,
    MONSTER,
    NECROMANCER,
    NECROMANCER_COST,
    POTION,
    WEAPON,
    WON,
    Rules,
    State,
    seed_to_text,
)
from games.i18n import ENGLISH, N_, Messages
from games.picture import FILENAME

HINTED = N_("💡 hinted — not counted")
ABANDONED = "abandoned"  # storage's status for a game given up with /scoundrel abandon

COLOUR_PLAYING = discord.Colour.blurple()
COLOUR_FINAL_ROOM = discord.Colour.gold()
COLOUR_WON = discord.Colour.green()
COLOUR_DEAD = discord.Colour.red()
COLOUR_ABANDONED = discord.Colour.dark_grey()

KIND_EMOJI = {MONSTER: "👹", WEAPON: "🗡️", POTION: "🧪", MERCHANT: "💰", JOKER: "🃏", NECROMANCER: "💀"}
BAR_BLOCKS = 10
EVENT_LINES = 3


# The presets' names as a reader's footer shows them (commands and replay commands keep the names themselves).
PRESET_NAMES = {"classic": N_("classic"), "lenient": N_("lenient"), "full-deck": N_("full-deck"),
                "early-win": N_("early-win"), "rules-sheet": N_("rules-sheet"), "shuffled-avoid": N_("shuffled-avoid"),
                "expansion": N_("expansion"), "custom": N_("custom")}


def preset_name(name: str, tr: Messages = ENGLISH) -> str:
    """A preset's name (or "custom") in the reader's language."""
    return tr(PRESET_NAMES[name]) if name in PRESET_NAMES else name


def rules_label(rules: Rules, tr: Messages = ENGLISH) -> str:
    """The preset's name in the reader's language, plus the health setting when it is not the preset's."""
    base = dataclasses.replace(rules, start_health=20, max_health=20)
    name = preset_name(base.name, tr)
    if (rules.start_health, rules.max_health) != (20, 20):
        return tr("{name} · health {health}", name=name, health=rules.start_health)
    return name


def replay_command(rules: Rules, seed: int, tr: Messages = ENGLISH) -> str:
    """``/scoundrel play seed:K7Q2-M9XD preset:expansion``, with the command and option names the reader's Discord
    shows (preset names are the same in every language)."""
    base = dataclasses.replace(rules, start_health=20, max_health=20)
    text = f"{slash(tr, 'play', 'seed')}{seed_to_text(seed)}"
    if base.name not in ("classic", "custom"):
        text += f" {command_word(tr, 'preset', 'option')}:{base.name}"
    if rules.start_health != 20:
        text += f" {command_word(tr, 'health', 'option')}:{rules.start_health}"
    return text


def at_crossroads(state: State) -> bool:
    return bool(state.pending) and state.pending[0] == AT_CROSSROADS


def pending_text(state: State, tr: Messages = ENGLISH) -> str | None:
    """What the player must decide in an expansion sub-phase, or None."""
    if not state.pending:
        return None
    phase = state.pending[0]
    if phase == AT_MERCHANT:
        return tr("💰 **The merchant**: buy one card, or leave.")  # the prices are on the buttons
    if phase == AT_NECROMANCER:
        return tr("💀 **A necromancer**: pay {cost} health to face 3 of 4 cards raised from the graveyard "
                  "({graveyard}), or decline.", cost=NECROMANCER_COST, graveyard=len(state.discard))
    if phase == IN_UNDERWORLD:
        return tr("⚰️ **The raised room**: play 3 of its 4 cards.")  # the room above waits in the picture
    if phase == AT_CROSSROADS:
        return tr("🔁 **Loop {loop} cleared** with {health} health: descend again (+{bonus} if you clear it) or "
                  "retire.", loop=state.loop, health=state.health, bonus=LOOP_BONUS)
    return None  # pragma: no cover - every phase is listed above


def score_explanation(state: State, tr: Messages = ENGLISH) -> str:
    if state.status == DEAD:
        if state.rules.death_score == "dungeon_and_room":
            return tr("minus the monsters left in the dungeon and the room")
        return tr("minus the monsters left in the dungeon")
    parts = [tr("{health} health", health=state.health)]
    last = state.last_card
    if state.health == state.rules.max_health and last is not None and last.kind == POTION:
        parts.append(tr("{value} for ending on {card} at full health", value=last.value, card=readable(last.label)))
    if state.loop > 1:
        extra = tr.plural("{n} extra loop", "{n} extra loops", state.loop - 1)
        parts.append(f"{LOOP_BONUS} × {extra}")
    return " + ".join(parts)


def is_daily(record) -> bool:
    return record.kind in ("daily", "practice") and record.day is not None


def game_name(record, tr: Messages = ENGLISH) -> str:
    """What a game's title calls it: a daily says which day (or that it is a practice replay)."""
    if not is_daily(record):
        return "Scoundrel"
    return tr("Practice") if record.kind == "practice" else tr("Daily #{day}", day=record.day)


def daily_intro(record, tr: Messages = ENGLISH) -> str | None:
    """A counted daily's first line before its first move: that this try counts and when the day ends (the
    title says which day), so the private first message needs no text of its own above the embed."""
    if not is_daily(record) or record.kind == "practice" or record.version or record.status != "playing":
        return None
    return tr("This try counts · ends {ends}", ends=discord.utils.format_dt(day_end(record.day), "R"))


def deal_footer(record, tr: Messages = ENGLISH) -> str | None:
    """The deal and its rules; none for a counted daily being played on the daily's rules (its title says which
    day, and its seed stays secret while the day runs: the daily post reveals it afterwards)."""
    state: State = record.state
    if not is_daily(record) and record.seed is not None and (state.over or record.status == "abandoned"):
        return "🔁 " + replay_command(state.rules, record.seed, tr)  # the deal and its rules, ready to play again
    if not is_daily(record):
        deal = tr("Seed {seed}", seed=seed_to_text(record.seed)) if record.seed is not None else tr("Custom deck")
    elif record.kind == "practice":
        deal = tr("Daily #{day} practice · never counts", day=record.day)
    elif state.rules == DAILY_RULES and (state.over or record.status == "playing"):
        return None  # the title names the day; a running daily's seed stays secret
    else:
        deal = tr("Daily #{day}", day=record.day)
    return f"{deal} · {rules_label(state.rules, tr)}"


def _title_and_colour(record, tr: Messages) -> tuple[str, discord.Colour]:
    state: State = record.state
    name = game_name(record, tr)
    if record.status == ABANDONED:
        if getattr(record, "ended_by", None) == "expired":
            return tr("⌛ Time ran out · Score {score}", score=record.score), COLOUR_ABANDONED
        if record.score is not None:
            return tr("🏳️ Given up · Score {score}", score=record.score), COLOUR_ABANDONED
        return tr("🏳️ Scoundrel — abandoned"), COLOUR_ABANDONED
    # Short enough for one line on a phone: the picture's banner says the rest.
    if state.over and is_daily(record):  # which day, in the title: the footer is left out (see deal_footer)
        mark = "🏆" if state.status == WON else "💀"
        return (tr("{mark} {name} · Score {score}", mark=mark, name=name, score=state.score),
                COLOUR_WON if state.status == WON else COLOUR_DEAD)
    if state.status == WON:
        return tr("🏆 You survived! Score {score}", score=state.score), COLOUR_WON
    if state.status == DEAD:
        return tr("💀 You died · Score {score}", score=state.score), COLOUR_DEAD
    if at_crossroads(state):
        return tr("{name} — loop {loop} cleared!", name=name, loop=state.loop), COLOUR_WON
    if state.final_room:
        return tr("{name} — room {turn}, the final room", name=name, turn=state.turn), COLOUR_FINAL_ROOM
    return tr("{name} — room {turn}", name=name, turn=state.turn), COLOUR_PLAYING


def status_line(state: State, tr: Messages = ENGLISH) -> str:
    """The one line of what to do now: the picture shows the cards, health, weapon and dungeon."""
    note = pending_text(state, tr)
    if note:
        return note
    left = sum(1 for c in state.room if c is not None)
    if state.final_room:  # nothing is carried
        return tr("The final room: play every card.") if left > 1 else tr("The final room: play the last card.")
    to_play = left - 1  # the last card of a room stays for the next one
    if state.resolved_this_turn == 0:
        if state.can_avoid:
            return tr("Play {play} of {left} cards, or avoid the room.", play=min(CARDS_FACED, left), left=left)
        return tr("Play {play} of {left} cards.", play=min(CARDS_FACED, left), left=left)
    return tr.plural("Play {n} more card.", "Play {n} more cards.", to_play)


def quiet_events(record) -> tuple[str, ...]:
    """The event kinds the rest of the message already tells: a finished game's title says how it ended; in the
    raised room the picture shows what rose and the health bar what it cost; at the merchant the picture shows
    the offer (and the buttons its prices); facing a necromancer, the status line says what he offers."""
    state: State = record.state
    if state.over or record.status == ABANDONED:
        return ("death", "clear")
    phase = state.pending[0] if state.pending else None
    quiet: dict[str | None, tuple[str, ...]] = {IN_UNDERWORLD: ("necromancer",), AT_NECROMANCER: ("necromancer",),
                                                AT_MERCHANT: ("merchant",)}
    return quiet.get(phase, ())


def game_embed(record, par: int | None = None, tr: Messages = ENGLISH, hinted: bool = False,
               coach: int | None = None) -> discord.Embed:
    """Title, one status line, this turn's events (at most three lines), the deal in the footer (a counted daily
    being played has none, and its first room a line saying it counts and when it ends), in ``tr``'s language;
    the table is the attached picture (``attachment://`` + ``games.picture.FILENAME``). ``par``: the deal's best
    possible score, shown on a finished game when it is known; ``coach``: the coach's score beside it (a daily)."""
    state: State = record.state
    title, colour = _title_and_colour(record, tr)
    embed = discord.Embed(title=title, colour=colour)
    over = state.over or record.status == ABANDONED
    lines = [status_line(state, tr)] if not over else _game_over_lines(record, par, tr, hinted, coach)
    events = [] if record.status == ABANDONED else events_lines(state, quiet=quiet_events(record), tr=tr)
    lines[1:1] = events  # the last move's story right under the status (or score) line
    intro = daily_intro(record, tr)
    if intro is not None:  # a first room has no events: the intro takes their place
        lines.insert(0, intro)
    embed.description = "\n".join(lines)
    embed.set_image(url=f"attachment://{FILENAME}")
    footer = deal_footer(record, tr)
    if state.rules.looping and not over:  # the picture's loop chip gives way to a phase's words
        footer = " · ".join(filter(None, [tr("Loop {loop}/{loops}", loop=state.loop, loops=MAX_LOOPS), footer]))
    if hinted and not over:  # said wherever the game is shown (a finished game says it in its text)
        footer = " · ".join(filter(None, [footer, tr(HINTED)]))
    if footer is not None:
        embed.set_footer(text=footer)
    return embed


def table_description(state: State, tr: Messages = ENGLISH) -> str:
    """The picture in words, as its alt text (screen readers, and clients that do not load images)."""
    room = " ".join(c.label if c is not None else "·" for c in state.room) or tr("empty")
    if state.weapon is None:
        weapon = tr("no weapon")
    elif state.last_kill is None:
        weapon = tr("weapon {card}", card=state.weapon.label)
    else:
        weapon = tr("weapon {card} (last slew {kill})", card=state.weapon.label, kill=state.last_kill.label)
    return tr("Room {turn}: {room}; health {health}/{max}; {weapon}; {left} cards in the dungeon", turn=state.turn,
              room=room, health=state.health, max=state.rules.max_health, weapon=weapon,
              left=len(state.dungeon))[:1000]


def events_lines(state: State, quiet: tuple[str, ...] = (), tr: Messages = ENGLISH) -> list[str]:
    """What the last move did, newest last, at most ``EVENT_LINES``; the new room's cards are in the picture
    (and a finished game's title already says how it ended: ``quiet`` kinds are left out)."""
    lines = [readable(tr.event(e)) for e in state.events if e.kind != "room" and e.kind not in quiet]
    return lines[-EVENT_LINES:]


def rooms_played(state: State, tr: Messages = ENGLISH) -> str:
    """``12 rooms``, or ``12 rooms, 2 loops`` in a looping game."""
    rooms = tr.plural("{n} room", "{n} rooms", state.turn)
    return tr("{rooms}, {loops} loops", rooms=rooms, loops=state.loop) if state.loop > 1 else rooms


def _game_over_lines(record, par: int | None, tr: Messages, hinted: bool = False,
                     coach: int | None = None) -> list[str]:
    """The score line first (the status line of a finished game), then par and how to replay the deal."""
    state: State = record.state
    ended = getattr(record, "ended_at", None)
    when = discord.utils.format_dt(ended, "R") if ended is not None else None
    if record.status == ABANDONED:
        lines = []
        if record.score is not None:  # a counted daily's forfeit
            lines.append(tr("**Score: {score}**, as if you had died here: every monster not yet slain counts "
                            "against you.", score=record.score))
        if getattr(record, "ended_by", None) == "expired":
            lines.append(tr("Daily #{day} ended at 00:00 UTC with this game in room {turn}.", day=record.day,
                            turn=state.turn))
        elif when:
            lines.append(tr("Given up in room {turn}, {when}.", turn=state.turn, when=when))
        else:
            lines.append(tr("Given up in room {turn}.", turn=state.turn))
    else:
        rooms = rooms_played(state, tr)
        lines = [tr("**Score: {score}** ({explanation}).", score=state.score,
                    explanation=score_explanation(state, tr))]
        # One line for the rooms and par (when and how it ended are the message's time and its title; the footer
        # is the command that replays the deal).
        coach_text = [tr("coach {coach}", coach=coach)] if coach is not None and par is not None else []
        if hinted:  # short, so it stays one line: never "a perfect game"
            par_text = [tr("par {par}", par=par)] if par is not None else []
            lines.append(" · ".join([rooms, *par_text, *coach_text, tr(HINTED)]))
        elif par is None or state.score is None:
            lines.append(tr("{rooms} played.", rooms=rooms))
        elif state.score == par:
            lines.append(" · ".join([tr("{rooms} played · par {par}: a perfect game!", rooms=rooms, par=par),
                                     *coach_text]))
        elif coach_text:  # par sees every card, the coach only what the player saw: a target a player can reach
            lines.append(" · ".join([rooms, tr("par {par} seeing every card", par=par), *coach_text,
                                     tr("you {score}", score=state.score)]))
        else:
            lines.append(tr("{rooms} played · par {par}, {short} short.", rooms=rooms, par=par,
                            short=par - state.score))
    return lines


# --- why a click changed nothing ---------------------------------------------------------

def game_url(record) -> str | None:
    """A jump link to the game's current message, when it is known."""
    if record.message_id is None or record.channel_id is None:
        return None
    return f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}/{record.message_id}"


def day_over_text(record, tr: Messages = ENGLISH) -> str:
    """Why a move on a daily was refused after its day ended, and what the attempt scored."""
    ended = discord.utils.format_dt(day_end(record.day), "R")
    if record.kind != "daily":
        return tr("Daily #{day} ended {ended}, and its practice replays with it: that move was not made.",
                  day=record.day, ended=ended)
    return tr("Daily #{day} ended {ended}, so that move was not made. Your attempt was closed with **{score}**, "
              "as if you had died there: every monster not yet slain counts against you.",
              day=record.day, ended=ended, score=record.score)


def other_players_game(owner_id: int, tr: Messages = ENGLISH) -> str:
    return tr("This is <@{owner}>'s game — start your own with `{play}`.", owner=owner_id, play=slash(tr, "play"))


def out_of_date(record, tr: Messages = ENGLISH) -> str:
    if record.status != "playing":
        return tr("This game is over; start a new one with `{play}`.", play=slash(tr, "play"))
    url = game_url(record)
    if url:
        return tr("This is an old copy of your game, so nothing happened: [jump to your game]({url}).", url=url)
    return tr("This is an old copy of your game, so nothing happened; `{resume}` shows your game as it is now",
              resume=slash(tr, "resume"))


def how_it_went(game, tr: Messages = ENGLISH) -> str:
    if game.status == "won":
        return tr("won, {score}", score=game.score)
    if game.status == "dead":
        return tr("died, {score}", score=game.score)
    if game.status == "abandoned":
        return tr("given up")
    return tr("in progress, room {turn}", turn=game.state.turn)
