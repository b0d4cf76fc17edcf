"""Pictures of the game for Discord: pure drawing with Pillow, no discord and no I/O; each returns image bytes.

- ``render_room(state)``: the table of a game (``room.py``), ``room_layout(state)`` its card places.
- ``games.picture.duel.render_duel(state)``: the duel board (``duel.py``), ``duel_layout(state)`` its places.
- ``games.picture.replay.render_replay`` and ``games.picture.duel_replay.render_duel_replay``: a whole game or
  duel as an animated GIF, one frame per move.

The one font, DejaVu Sans Bold, ships in ``fonts/`` with its licence (Bitstream Vera terms).
"""

from games.picture.duel import FILENAME as DUEL_FILENAME
from games.picture.duel import render_duel
from games.picture.duel_replay import FILENAME as DUEL_REPLAY_FILENAME
from games.picture.replay import FILENAME as REPLAY_FILENAME
from games.picture.replay import render_replay
from games.picture.room import FILENAME, HEIGHT, WIDTH, Box, Place, RoomLayout, render_room, room_layout

__all__ = [
    "FILENAME", "HEIGHT", "WIDTH", "Box", "Place", "RoomLayout", "render_room", "room_layout", "DUEL_FILENAME",
    "render_duel", "DUEL_REPLAY_FILENAME", "REPLAY_FILENAME", "render_replay",
]
