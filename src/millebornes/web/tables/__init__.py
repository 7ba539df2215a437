"""The live game (lichess's round): every table of this process, its seats, its sockets and its clock.

- :mod:`.hall` holds the rooms of this process; :mod:`.room` is one table's actor: it takes a seat's frame or a
  timed step and hands it to the part that does it.
- The table as its seats see it: :mod:`.table` (the shown steps), :mod:`.view` (what a frame may show),
  :mod:`.facts` (what anybody may know, in memory or not), :mod:`.turn`, :mod:`.presence`, :mod:`.cardhelp`.
- What a room waits for and who plays itself: :mod:`.pacing`, :mod:`.seatbots`; a seat's extras: :mod:`.hints`,
  :mod:`.chat`, :mod:`.rematch`.
- Making a table: :mod:`.creation`; its rows and queries: :mod:`.repo`; who may look back at it: :mod:`.privacy`.
- The wire: :mod:`.inbound` (what a client may send), :mod:`.outbound` (what the server sends), :mod:`.client`
  (one socket's queue), :mod:`.socket` (the WebSocket route), :mod:`.routes` (the HTTP routes), :mod:`.drain`
  (the open sockets handed over when the process stops).
"""
