"""One game behind every surface: the Discord cogs and the terminal's ``play`` start, move and finish a game through
the same application functions (``app.play.solo``), and the same deal played the same way ends the same."""

from __future__ import annotations

import asyncio
import io

from app.play import solo
from games.engine import apply, new_game, preset, seed_from_text
from terminal.play import run, typed_move

SEED = "0000-0004"
CARD_CODES = [f"{kind}{slot}" for slot in range(4) for kind in ("W", "T")]  # a weapon first where it can be used


class Through:
    """Which application functions ran, by name; each still runs as it is (the real store, the real engine)."""

    def __init__(self, monkeypatch, *names: str) -> None:
        self.calls: list[str] = []
        for name in names:
            monkeypatch.setattr(solo, name, self._counted(name, getattr(solo, name)))

    def _counted(self, name, real):
        async def counted(*args, **kwargs):
            self.calls.append(name)
            return await real(*args, **kwargs)
        return counted

    def take(self) -> list[str]:
        calls, self.calls = self.calls, []
        return calls


def card_buttons(message) -> dict:
    found = {}
    for row in message.components:
        for item in row.children:
            code = (getattr(item, "custom_id", None) or "").split(":")
            if code[:2] == ["sc", "g"] and not item.disabled:
                found[code[-1]] = item
    return found


async def test_discord_and_the_terminal_play_a_game_through_the_same_functions(world, monkeypatch):
    through = Through(monkeypatch, "start_game", "move")

    # In Discord: /scoundrel play, then the first playable card of each room until the game ends.
    result = await world.alice.slash(world.channel, "scoundrel play", seed=SEED)
    assert through.take() == ["start_game"]
    message = result.response.message
    for _ in range(200):
        by_code = card_buttons(message)
        playable = [code for code in CARD_CODES if code in by_code]
        if not playable:
            break
        await world.alice.click(message, custom_id=by_code[playable[0]].custom_id)
        message = world.channel.last_message
    chat = (await world.store.recent_games(world.alice.id, 1))[0]
    assert chat.status in ("won", "dead")
    moves = len(chat.state.history)
    assert through.take() == ["move"] * moves

    # In the terminal: the same deal, the same moves typed.
    state, typed = new_game(preset("classic"), seed=seed_from_text(SEED)), []
    for action in chat.state.history:
        typed.append(typed_move(state, action))
        state = apply(state, action)
    out = io.StringIO()
    assert await asyncio.to_thread(run, seed_from_text(SEED), "classic", io.StringIO("\n".join(typed) + "\n"), out) == 0
    assert through.take() == ["start_game"] + ["move"] * moves
    assert f"Score: {chat.score}." in out.getvalue()
    assert "Moves: " + " ".join(typed) in out.getvalue()


async def test_the_cogs_word_the_application_layers_refusals(world):
    from app.errors import NotYourGame, StaleVersion
    from cogs.plumbing.errors import friendly_message

    await world.alice.slash(world.channel, "scoundrel play", seed=SEED)
    record = await world.store.active_game(world.alice.id)
    assert "someone else" in friendly_message(NotYourGame(record, world.bob.id))[0]
    assert "out of date" in friendly_message(StaleVersion(record, 3))[0]
