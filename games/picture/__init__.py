"""Pictures of the game for Discord: pure drawing with Pillow, no discord and no I/O; each returns image bytes.

- ``render_room(state)``: the table of a game (``room.py``), ``room_layout(state)`` its card places.
- ``games.picture.duel.render_duel(state)``: the duel board (``duel.py``), ``duel_layout(state)`` its places.
- ``games.picture.replay.render_replay`` and ``games.picture.duel_replay.render_duel_replay``: a whole game or
  duel as an animated GIF, one frame per move.

The one font, DejaVu Sans Bold, ships in ``fonts/`` with its licence (Bitstream Vera terms).
"""

from games.picture.room import FILENAME, HEIGHT, WIDTH, Box, Place, RoomLayout, render_room, room_layout

__all__ = ["FILENAME", "HEIGHT", "WIDTH", "Box", "Place", "RoomLayout", "render_room", "room_layout"]
