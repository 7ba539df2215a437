"""The live game (lichess's round): every table of this process, its seats, its sockets and its clock.

- :mod:`.hall` loads and holds the rooms of this process and hears the other processes' notices; its
  :mod:`.sweeper` takes idle rooms out of memory and expires the tables nobody uses (lichess's Titivate).
- :mod:`.room` is one table's actor: it keeps the table's state and its one lock, seats sockets, takes every action
  (``submit``) and hands the rest to a part that holds the room (named by the protocol in :mod:`.host`):
  :mod:`.clock` (the timed step: bots' moves, the coup-fourré window's end, the turn clock, retries),
  :mod:`.standins` (absent players and the bots standing in), :mod:`.following` (the other server processes'
  notices, and this room's), :mod:`.takebacks` (taking back a move), :mod:`.rematchseats` (the rematch's seats).
- The table as its seats see it: :mod:`.table` (the shown steps), :mod:`.view` (what a frame may show),
  :mod:`.facts` (what anybody may know, in memory or not), :mod:`.turn`, :mod:`.presence`, :mod:`.cardhelp`.
- What a room waits for and who plays itself: :mod:`.pacing`, :mod:`.seatbots`; a seat's extras: :mod:`.hints`,
  :mod:`.chat`, :mod:`.rematch` (its frames).
- Making a table: :mod:`.creation`; its rows and queries: :mod:`.repo`; who may look back at it: :mod:`.privacy`.
- The wire: :mod:`.inbound` (what a client may send), :mod:`.outbound` (what the server sends), :mod:`.client`
  (one socket's queue), :mod:`.socket` (the WebSocket route), :mod:`.routes` (the HTTP routes), :mod:`.drain`
  (the open sockets handed over when the process stops).
"""
