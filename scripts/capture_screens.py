"""Screenshots of every screen a player sees, from the real bot under SimCord, into ``docs/screens/``.

    .venv/bin/pip install -e ".[dev,screens]"   # SimCord's preview extra
    apt-get install chromium                    # Debian's headless browser
    .venv/bin/python scripts/capture_screens.py [--out docs/screens] [--only room,duel] [--locale de] [--widths phone]
    .venv/bin/python scripts/capture_screens.py --words-only     # only each screen's words file: no browser

The bot runs for real on a temporary database inside a SimCord world (virtual Discord, virtual clock); each
screen is reached by slash commands and button clicks as a player would, shown in SimCord's Discord-like preview
(dark theme) and captured by headless chromium (once the preview says it has settled) at phone width (390 px)
and desktop width (1280 px), as ``<screen>-phone.png`` (cut to the message: no toolbar, no empty page; the
shown width of each picture is printed) and ``<screen>-desktop.png``. With ``--locale`` (a Discord
locale such as ``de``) the players' clients and the server speak that language, so does the preview, and the
captures go to ``docs/screens/<locale>/``.

Every screen comes from a fixed deal (the seeds below, and a fixed seed for each daily instead of the database's
random secret), so it is the same on every run until the product changes. Beside the captures each screen's words
are written as ``<screen>.json`` (``scripts/screen_words.py``): ``tests/test_screens.py`` reaches every screen again
with ``--words-only`` and compares them, so a committed screen that no longer matches the code fails CI.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

import discord
import simcord

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.daily.days import DAILY_RULES, day_of  # noqa: E402
from app.daily.deal import daily_deck, remember_par, todays_challenge  # noqa: E402
from app.solver.worker import coach_score, solve_par  # noqa: E402
from bot.client import ScoundrelBot  # noqa: E402
from bot.config import Config  # noqa: E402
from games.engine import apply, deal, encode, legal_actions, new_game, preset, seed_to_text  # noqa: E402
from games.i18n.messages import messages_for  # noqa: E402
from games.picture.duel_replay import MOVE_MS as DUEL_MOVE_MS  # noqa: E402
from games.picture.replay import FIRST_MS, MOVE_MS, RESULT_MS  # noqa: E402
from scripts import screen_words  # noqa: E402

FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.screenshot-token-not-real-000000000000"
# The dailies' deals: Daily #1 (played on the first day) and Daily #2 (posted the next morning), fixed here
# rather than drawn from the database's random secret, so their screens are the same on every run.
DAILY_SEEDS = (20260101, 20260102)
DAY_SOLVE_S = 900  # the day's par and coach, solved by this script: about a minute each, longer on a busy machine
WIDTHS = {"phone": (390, 1100), "desktop": (1280, 1000)}
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def buttons(message):
    if isinstance(message, simcord.ResponseMessage):
        message = message.message
    return [c for row in message.components for c in row.children if hasattr(c, "custom_id")]


def by_code(message) -> dict:
    return {b.custom_id.split(":")[-1]: b for b in buttons(message) if (b.custom_id or "").startswith("sc:g:")}


async def click_code(actor, message, code: str):
    await actor.click(message, custom_id=by_code(message)[code].custom_id)


def speak(locale: str) -> None:
    """Every interaction arrives in ``locale`` (the player's client language) with its server's preferred locale,
    as Discord sends them; SimCord fixes both to ``en-US``, so its payload builder is wrapped (as the tests'
    ``Locales`` does)."""
    from simcord import interactions

    build = interactions.base_payload

    def with_locale(backend, *, user_id, guild_id=None, **rest):
        record, payload = build(backend, user_id=user_id, guild_id=guild_id, **rest)
        payload["locale"] = locale
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    interactions.base_payload = with_locale


async def capture(env, channel, viewer, target, name: str, out: Path, browser: str, locale: str,
                  after: float = 0.0) -> None:
    for label, (width, height) in WIDTHS.items():
        path = out / f"{name}-{label}.png"
        for _ in range(3):  # a message longer than the window (the rules in a longer language): a taller one
            # A fixed profile at the window's size: the page lays out once, with nothing left to adapt when the
            # screenshot is taken.
            async with env.preview(channel, viewers=[viewer], display="fixed", width=width, height=height,
                                   locale=locale) as preview:
                await preview.show(target)
                await preview.refresh()
                await screenshot(browser, preview.url, width, height, path, after=after)
            if label != "phone" or not reaches_bottom(path):  # (the desktop's sidebar runs to the bottom)
                break
            height += 400
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        if label == "phone":
            print(f"{shown}  message height {message_height(path)} px")
            crop_to_message(path)
        else:
            print(shown)


def crop_to_message(path: Path, margin: int = 12) -> None:
    """A phone capture cut to its message, the whole width kept: no preview toolbar, no empty page under it."""
    from PIL import Image

    rows, height = message_rows(path)
    if not rows:
        return
    with Image.open(path) as image:
        cropped = image.crop((0, max(0, rows[0] - margin), image.width, min(height, rows[-1] + margin + 1)))
        cropped.load()
    cropped.save(path, optimize=True)


# The preview is ready once it says so (``window.simcordPreview``: no action of its own pending, such as applying
# the window's size), its status line is no longer busy, its fonts are loaded and every image has loaded.
READY = ("(() => { const text = document.body ? document.body.innerText : '';"
         " const preview = window.simcordPreview;"
         " return Boolean(preview && preview.ready && preview.complete) && text.length > 0"
         " && !/Updating|Loading|Sending|Saving|Switching|Opening|Completing/.test(text)"
         " && document.fonts.status === 'loaded'"
         " && [...document.images].every(image => image.complete && image.naturalWidth > 0); })()")
# The message's pictures: each one's own width and the width the page shows it at (what a phone's reader sees).
PICTURES = ("[...document.images].filter(image => image.naturalWidth >= 400)"
            ".map(image => [image.naturalWidth, image.getBoundingClientRect().width])")
STEADY = 4  # polls in a row (a second): the page settles after one more action of its own


async def screenshot(browser: str, url: str, width: int, height: int, path: Path, patience: float = 30,
                     after: float = 0.0) -> None:
    """Open ``url`` in headless chromium, wait (in real time) until the preview is ready (and ``after`` seconds
    more: an animated replay shown at a later frame), save a PNG.

    Driven through the DevTools protocol (aiohttp's websocket client, which discord.py already needs): a plain
    ``--screenshot`` runs on virtual time and, on a busy machine, may shoot the page while it is still updating.
    """
    import base64
    import itertools
    import json

    import aiohttp

    with tempfile.TemporaryDirectory() as profile:
        process = await asyncio.create_subprocess_exec(
            browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
            "--remote-debugging-port=0", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            for _ in range(int(patience * 10)):
                if port_file.exists() and port_file.read_text().strip():
                    break
                await asyncio.sleep(0.1)
            port = int(port_file.read_text().split()[0])
            ids = itertools.count(1)
            async with aiohttp.ClientSession() as session:
                async with session.get(f"http://127.0.0.1:{port}/json/list") as answer:
                    page = next(t for t in await answer.json(content_type=None) if t["type"] == "page")
                async with session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                    async def call(method: str, **params):
                        number = next(ids)
                        await ws.send_str(json.dumps({"id": number, "method": method, "params": params}))
                        async for message in ws:
                            data = json.loads(message.data)
                            if data.get("id") == number:
                                return data.get("result", {})
                        raise RuntimeError("chromium closed the connection")

                    await call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                               deviceScaleFactor=1, mobile=False)
                    await call("Page.navigate", url=url)
                    loop = asyncio.get_running_loop()
                    deadline = loop.time() + patience
                    steady = 0
                    while loop.time() < deadline:
                        await asyncio.sleep(0.25)
                        ready = await call("Runtime.evaluate", expression=READY, returnByValue=True)
                        steady = steady + 1 if ready.get("result", {}).get("value") is True else 0
                        if steady == STEADY:
                            break
                    else:
                        print(f"  {path.name}: the preview still looked busy after {patience:.0f} s")
                    await asyncio.sleep(0.3 + after)  # the last layout and paint
                    shown = await call("Runtime.evaluate", expression=PICTURES, returnByValue=True)
                    for natural, displayed in shown.get("result", {}).get("value") or ():
                        print(f"  picture {natural} px wide shown {displayed:.1f} px wide")
                    shot = await call("Page.captureScreenshot", format="png")
                    await asyncio.to_thread(path.write_bytes, base64.b64decode(shot["data"]))
                    await call("Browser.close")
        finally:
            if process.returncode is None:
                try:
                    await asyncio.wait_for(process.wait(), 10)
                except TimeoutError:
                    process.kill()
                    await process.wait()


def message_rows(path: Path) -> tuple[list[int], int]:
    """The rows below the preview's toolbar that differ from the page background, and the page's height."""
    from PIL import Image

    image = Image.open(path).convert("RGB")
    width, height = image.size
    background = image.getpixel((width - 2, height - 2))
    toolbar = 110  # the preview's own bar and its status line
    def differs(pixel) -> bool:
        return max(abs(a - b) for a, b in zip(pixel, background, strict=True)) > 8

    rows = [y for y in range(toolbar, height)  # the left edge has a shadow: start at the avatar's column
            if any(differs(image.getpixel((x, y))) for x in range(14, width - 4, 3))]
    return rows, height


def message_height(path: Path) -> int:
    """The focused message's height on the page, from its first row to its last (the budget for a room at phone
    width is 450 px)."""
    rows, _ = message_rows(path)
    return rows[-1] - rows[0] + 1 if rows else 0


def reaches_bottom(path: Path, margin: int = 24) -> bool:
    """Whether the message runs to the window's lower edge (so part of it may be cut off)."""
    rows, height = message_rows(path)
    return bool(rows) and rows[-1] >= height - margin


def line_to(rules, predicate, pick=lambda actions: actions[-1], seeds=range(500)) -> tuple[int, list[str]]:
    """Engine only: a seed and the codes of a line of play to the first state that satisfies ``predicate``."""
    for seed in seeds:
        state = new_game(rules, seed=seed)
        while not state.over and not predicate(state):
            state = apply(state, pick(legal_actions(state)))
        if predicate(state):
            return seed, [a.code for a in state.history]
    raise SystemExit("no deal reaches that screen")


async def play_codes(actor, message, channel, codes: list[str]):
    for code in codes:
        if code not in by_code(message):  # the other fight mode shows this move
            await click_code(actor, message, "mode")
            message = channel.last_message
        await click_code(actor, message, code)
        message = channel.last_message
    return message


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--only", default="", help="comma-separated screen names")
    parser.add_argument("--browser", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--widths", default=",".join(WIDTHS), help="comma-separated: phone, desktop")
    parser.add_argument("--locale", default="en-US",
                        help="a Discord locale (de, fr, es-ES, ...): the players' and the server's language; "
                             "captures go to <out>/<locale>/")
    parser.add_argument("--words-only", action="store_true",
                        help="write each screen's words (<screen>.json) and capture nothing: no browser needed")
    args = parser.parse_args(argv)
    for label in set(WIDTHS) - set(args.widths.split(",")):
        del WIDTHS[label]
    if args.locale != "en-US":
        speak(args.locale)
        args.out = args.out / args.locale
    args.out.mkdir(parents=True, exist_ok=True)
    only = set(filter(None, args.only.split(",")))

    with tempfile.TemporaryDirectory() as tmp:
        # The solver runs (its worker process), as on a real bot: Hint, Review and Best possible are shown.
        bot = ScoundrelBot(Config(token=FAKE_TOKEN, database=Path(tmp) / "screens.sqlite3"))
        # The solver works in real time: a fair Review (up to 10 s) must be waited for. Below the post count's
        # five-minute wait (cogs/daily/count.py), which a longer limit would wait out in real time after each
        # daily played; the day's par and coach are solved before the daily is played (solve_the_day).
        env = simcord.Env(bot, settle_timeout=120.0)
        await env.start()
        try:
            await shoot_all(env, args.out, None if args.words_only else args.browser, only, args.locale)
        finally:
            await env.shutdown()
            await bot.close()
            from app.solver.worker import close_par

            await close_par()
    return 0


async def shoot_all(env, out: Path, browser: str | None, only: set[str], locale: str) -> None:
    """Reach every screen and write its words; capture it too unless ``browser`` is None."""
    tr = messages_for(locale)  # the labels the players click, as their client shows them
    guild = env.create_guild("Dungeon Hall", preferred_locale=locale)
    channel = guild.create_text_channel("general")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))

    async def shot(name, target, viewer=alice, where=channel, after=0.0):
        if not only or name in only:
            await env.settle()
            screen_words.write(out, name, screen_words.words(env, where, target))
            if browser is not None:
                await capture(env, where, viewer, target, name, out, browser, locale, after)

    today = day_of(env.now())
    for day, seed in enumerate(DAILY_SEEDS, start=today):
        await env.bot.store.put_daily(day, seed, DAILY_RULES)

    # The first room, then a room mid-game with a weapon and its kills fanned over it.
    classic = preset("classic")
    seed, line = line_to(classic, lambda s: len(s.kills) >= 3 and s.resolved_this_turn == 0 and s.health > 4,
                         pick=_fights_first)
    message = (await alice.slash(channel, "scoundrel play", seed=seed_to_text(seed))).response.message
    await shot("room-start", message)
    message = await play_codes(alice, message, channel, line)
    await shot("room", message)
    await shot("hint", await ask_hint(alice, message))
    message = await play_out(alice, message, channel)  # the finished game: final table, score
    await shot("game-over", message)
    review = await alice.click(message, label=tr("Review"))
    await shot("review", last_answer(review))
    best = await alice.click(message, label=tr("Best possible"))
    await shot("best-possible", last_answer(best))
    # A won game (a deal a beam search survives, played through the buttons), then its replay as the GIF plays
    # in the client: the deal (its first frame), then the result (its last).
    seed, line, par = winning_line(classic)
    # Its deal solved before (as Best possible on the same seed would have): the finished game shows par.
    await env.bot.store.put_par(classic.key, deal(classic, seed), par, encode(_actions(classic, seed, line)))
    message = (await alice.slash(channel, "scoundrel play", seed=seed_to_text(seed))).response.message
    message = await play_codes(alice, message, channel, line)
    await shot("game-won", message)
    await alice.click(message, label=tr("Replay"))
    replay = channel.last_message
    await shot("replay-first", replay)
    # The preview is ready about a second after the GIF starts; the last frame shows for RESULT_MS from then on.
    await shot("replay-last", replay, after=(FIRST_MS + MOVE_MS * (len(line) - 1) + RESULT_MS / 2) / 1000 - 1.0)

    # The expansion: the merchant's offer, then the necromancer's raised room.
    expansion = preset("expansion")
    seed, line = line_to(expansion, lambda s: bool(s.pending) and s.pending[0] == "merchant")
    message = (await bob.slash(channel, "scoundrel play", seed=seed_to_text(seed), preset="expansion")).response.message
    message = await play_codes(bob, message, channel, line)
    await shot("merchant", message, viewer=bob)
    ask = await bob.slash(channel, "scoundrel abandon")
    await bob.click(ask.response, label=tr("Abandon game"))
    seed, line = line_to(expansion.with_health(40), lambda s: bool(s.pending) and s.pending[0] == "underworld",
                         pick=lambda actions: next((a for a in actions if a.kind == "raise"), actions[-1]))
    message = (await bob.slash(channel, "scoundrel play", seed=seed_to_text(seed), preset="expansion",
                               health=40)).response.message
    message = await play_codes(bob, message, channel, line)
    await shot("underworld", message, viewer=bob)

    # Full deck (aces low) with custom health.
    full = preset("full-deck")
    seed, line = line_to(full, lambda s: any(c is not None and c.value == 1 for c in s.room) and s.weapon is not None,
                         pick=_fights_first)
    message = (await carol.slash(channel, "scoundrel play", seed=seed_to_text(seed), preset="full-deck",
                                 health=30)).response.message
    message = await play_codes(carol, message, channel, line)
    await shot("full-deck", message, viewer=carol)

    # The daily: played privately, then its spoiler-free share, the leaderboard and stats. Its par and the coach's
    # score are solved first by the solver's worker, as the night's job does at 00:00, and stored as it stores them.
    for day in range(today, today + len(DAILY_SEEDS)):  # today's, and tomorrow's for the morning post
        await solve_the_day(env.bot.store, day)
    daily = await alice.slash(channel, "scoundrel daily")
    await shot("daily", daily)
    record = await env.bot.store.active_game(alice.id, "daily")
    for code in good_line(record.state):  # a real run: several rooms, some damage, maybe a win
        if code not in by_code(daily.response.message):
            await click_code(alice, daily.response.message, "mode")
        await click_code(alice, daily.response.message, code)
    await shot("daily-over", daily)
    for player in (bob, carol):  # two more results for the next day's post
        other = await player.slash(channel, "scoundrel daily")
        await play_out(player, None, channel, response=other.response)
    await alice.click(daily.response, label=tr("Share result"))
    await shot("share", channel.last_message)
    board = await alice.slash(channel, "scoundrel leaderboard")
    await shot("leaderboard", board)
    stats = await alice.slash(channel, "scoundrel stats")
    await shot("stats", stats)
    rules = await alice.slash(channel, "scoundrel rules")
    await shot("rules", rules)
    await shot("help", await alice.slash(channel, "scoundrel help"))

    # A duel a few turns in.
    challenge = (await alice.slash(channel, "scoundrel duel", opponent=bob, seed="0000-0004")).response
    await bob.click(challenge, label=tr("Accept"))
    await play_duel_moves(env, challenge.message, moves=40, tr=tr)
    await shot("duel", challenge)
    for player in (alice, bob):  # the private hand of whoever is to play
        hand = await player.click(challenge, label=tr("My hand"))
        if any(True for _ in hand.response.message.components):
            await shot("duel-hand", hand, viewer=player)
            break

    # The same duel played to its end: the board with its Replay button, then the replay as it plays in the
    # client (pressed by Carol, who watched): its first frame (the deal) and its last (the result).
    actions = await play_duel_moves(env, challenge.message, moves=1000, tr=tr, to_the_end=True)
    await shot("duel-over", challenge)
    await carol.click(challenge, label=tr("Replay"))
    replay = channel.last_message
    await shot("duel-replay-first", replay, viewer=carol)
    await shot("duel-replay-last", replay, viewer=carol,
               after=(FIRST_MS + DUEL_MOVE_MS * actions + RESULT_MS / 2) / 1000 - 1.0)

    # The scheduled daily post, the next morning: today's Play button, yesterday's best here and its seed.
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[mods])
    posts = guild.create_text_channel("daily")
    await admin.slash(channel, "scoundrel-admin daily", channel=posts, time="08:00")
    await alice.slash(channel, "scoundrel remind", when=8)  # reminded at 16:00 UTC on days she hasn't played
    await env.advance_time(33 * 3600)  # 2026-01-02 09:00 UTC: Daily #2 is posted
    await shot("daily-post", posts.last_message, where=posts)

    # The post through the day: two players here have played Daily #2 (a count, never a score).
    for player in (bob, carol):
        other = await player.slash(channel, "scoundrel daily")
        await play_out(player, None, channel, response=other.response)
    await env.advance_time(5 * 60)  # the post is edited at most once every five minutes
    await shot("daily-post-live", posts.last_message, where=posts)

    # Alice has not played today: her reminder, in her DMs at 16:00 UTC. Then the month board.
    await env.advance_time(7 * 3600)
    dms = alice.user.dm_channel
    await shot("reminder", dms.last_message, viewer=alice.user, where=dms)
    board = await alice.slash(channel, "scoundrel leaderboard", board="month")
    await shot("month-board", board)

    # A challenge in the channel (last: its close moves the clock, which the screens above must not see): the
    # invite, the standings as three players go, and the final standings with par, the coach and the replays.
    await shoot_challenge(env, channel, shot, tr, alice, bob, carol)


async def shoot_challenge(env, channel, shot, tr, alice, bob, carol) -> None:
    invite = (await alice.slash(channel, "scoundrel challenge", seed="K7Q2-M9XD", minutes=15)).response.message
    await shot("challenge-invite", invite)
    games = {}
    for player in (alice, bob, carol):
        games[player] = (await player.click(invite, label=tr("Join"))).response
    await click_code(alice, games[alice].message, "A")  # alice avoids the first room
    for _ in range(3):  # bob goes a few cards in
        await play_first(bob, games[bob])
    await play_out(carol, None, channel, response=games[carol])  # carol plays to the end
    await env.advance_time(3)  # the standings are edited in their turn (at most once every 2 s)
    await shot("challenge-live", invite)
    await play_out(bob, None, channel, response=games[bob])
    await alice.click(invite, label=tr("Close now"))  # the starter closes it: alice's game ends unfinished
    keeper = env.bot.get_cog("StandingsKeeper")
    for _ in range(600):  # par and the coach's play of the deal, worked out in the solver's worker
        if keeper.finals:
            break
        await env.advance_time(1)
    await shot("challenge-final", invite)


async def play_first(actor, response) -> None:
    """One click: the first playable card of the game in ``response``."""
    moves = [b for c, b in by_code(response.message).items() if not b.disabled and c not in ("mode", "A")]
    await actor.click(response.message, custom_id=moves[0].custom_id)


async def solve_the_day(store, day: int) -> None:
    """Par and the coach's score of the day's deal, worked out in the solver's worker (minutes of real time) by
    this script rather than by the bot's own background job."""
    challenge = await todays_challenge(store, day)
    deck = daily_deck(challenge)
    par = await solve_par(challenge.rules, deck, time_limit=DAY_SOLVE_S)
    coach = await coach_score(challenge.rules, deck, time_limit=DAY_SOLVE_S)
    await store.set_daily_par(day, par.best_score, par.line_codes, coach)
    remember_par(challenge, par.best_score)


async def ask_hint(actor, message):
    """The Hint button's answer (confirmed first, when the bot asks whether to give up counting the game)."""
    hint = next(b for b in buttons(message) if b.custom_id.startswith("sc:hint:"))  # the 💡, with no label
    click = await actor.click(message, custom_id=hint.custom_id)
    confirm = [b for b in buttons(click.response) if b.custom_id.startswith("sc:hintok:")] if click.response else []
    if confirm:
        click = await actor.click(click.response, custom_id=confirm[0].custom_id)
    return last_answer(click)


def last_answer(click):
    """The last message an interaction answered with (the solver's answer follows a deferred "thinking…")."""
    answers = [click.response] + list(click.followups)
    return [a for a in answers if a is not None][-1]


async def play_out(actor, message, channel, response=None):
    """Click the first playable card (never avoiding) until the game is over."""
    for _ in range(300):
        current = response.message if response is not None else message
        moves = [b for c, b in by_code(current).items() if not b.disabled and c not in ("mode", "A")]
        if not moves:
            return current
        await actor.click(current, custom_id=moves[0].custom_id)
        if response is None:
            message = channel.last_message
    raise SystemExit("the game did not end")


async def play_duel_moves(env, message, moves: int, tr, to_the_end: bool = False) -> int:
    """Random legal duel moves through the store (as the hand's buttons make them), shown on the board in the
    mover's language (``tr``); ``to_the_end``: a column is finished whenever one can be, so the duel ends. Returns
    how many actions the duel has had."""
    import random

    from cogs.duel.view import refresh_board
    from games.duel import legal_actions as duel_actions
    from storage.duels import load_duel, play_duel

    bot = env.bot
    record = None
    for duel_id in range(1, 10):
        try:
            record = await load_duel(bot.store, duel_id)
            break
        except Exception:  # noqa: BLE001 - looking for the one duel of this world
            continue
    rng = random.Random(4)
    for _ in range(moves):
        if record.state.over:
            break
        actions = [a for a in duel_actions(record.state) if a.kind != "R"]
        builds = [a for a in actions if a.kind in ("B", "F")]
        finishes = [a for a in actions if a.kind == "F"] if to_the_end else []
        action = finishes[0] if finishes else rng.choice(builds or actions)
        player = record.players[record.state.actor]
        record = await play_duel(bot.store, record.id, player, record.version, action)
    await refresh_board(bot, record, tr)
    return record.version


def good_line(start, width: int = 6) -> list[str]:
    """Engine only: a beam search's line of play (not the best, but a run worth sharing)."""
    def value(s):
        if s.over:
            return (10**6 + s.score) if s.status == "won" else -(10**6) + len(s.history)
        weapon = s.weapon.value if s.weapon else 0
        reach = s.kills[-1].value if s.kills else 15
        return s.health * 3 + weapon * 2 + min(reach, weapon + 3) - len(s.dungeon) * 0.5

    frontier = [start]
    while not all(s.over for s in frontier):
        following = []
        for s in frontier:
            following += [s] if s.over else [apply(s, a) for a in legal_actions(s)]
        frontier = sorted(following, key=value, reverse=True)[:width]
    return [a.code for a in frontier[0].history[len(start.history):]]


def winning_line(rules, seeds=range(50)) -> tuple[int, list[str], int]:
    """Engine and solver only: the first seed whose deal can be survived, par's line through it (the best play,
    so the won game shows a real score) and par."""
    from games.solver import solve

    for seed in seeds:
        best = solve(rules, deal(rules, seed))
        if best.best_score > 0:
            return seed, [a.code for a in best.actions], best.best_score
    raise SystemExit("no deal won in the seeds tried")


def _actions(rules, seed: int, codes: list[str]):
    """The engine's actions of a line of codes on the seed's deal."""
    state = new_game(rules, seed=seed)
    for code in codes:
        state = apply(state, next(a for a in legal_actions(state) if a.code == code))
    return state.history


def _fights_first(actions):
    fights = [a for a in actions if a.kind == "weapon"]
    takes = [a for a in actions if a.kind == "take"]
    return (fights or takes or actions)[0]


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
