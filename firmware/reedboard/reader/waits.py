"""How long the board waits, and what times tell one gesture of the hands from another:
the figures the reader's decisions rest on, with the reasons for each."""

from __future__ import annotations

from reedboard.rules.squares import BB_RANKS, Bitboard

# A sliding piece rests on each square it passes for 20-150 ms; a player who stops
# usually lifts a hand within 100 ms and rarely takes longer than 250 ms to go on after a
# pause. 300 ms is twice the longest waypoint, and short enough that a move that could
# still grow is committed before the opponent's hand arrives (see bench/accuracy.py).
DEFAULT_SETTLE_MS = 300
# A move that castling may still follow (the king's single step in Chess960, or the rook
# moved first in casual mode) waits longer: the other hand must fetch the second piece.
# The opponent starting to move still commits it at once.
DEFAULT_CASTLE_WAIT_MS = 2000
# A capture whose victim's square was empty only a moment, the capturer already in the
# hand, has the sensors of a neighbour knocked by the hand and falling back: only the
# next placement tells. The board never invents a move, so it holds such a capture until
# the opponent lifts a piece or this long (unless no knock looks like it: see
# knock.sure_capture). The hand that knocked a piece sets its own down soon after: in
# the human model 20-650 ms after the knocked piece is back (median 140 ms, p99 510 ms,
# the worst of 9,514 knocks 650 ms; the model cannot pause longer than about 750 ms in
# the bench's knocked-neighbour family, which takes back no capture from a 700 ms wait
# on). The 300 ms beyond that are a margin for real hands, not a fit to the model, and
# slower hands pause longer still: a knock the hands property test found (a script of
# the model's hands, not a recording of real ones:
# tests/reader/cases/knock-then-a-bishop-set-down-far-off.events) sets its queen down
# 1.17 s after the knocked knight is back, beyond even this wait (its capture is sent,
# then taken back). So the evidence gives no ground to shorten it. The trade-off: such
# brisk captures are 30 % of the model's captures (1,496 of 4,925, bench/accuracy.py
# seeds 1-300) and 42 % in the outside run reported with issue 31, and those that are
# not sure reach the host up to this late (1.5 s was the default before). A board may
# set `knock_wait_ms` shorter (down to settle_ms): those captures then wait no longer
# than a move that may grow, but a knocked piece whose carrier is set down after the
# wait reaches the host as a capture, which the board then takes back (docs/hands.md,
# docs/benchmarks.md).
DEFAULT_KNOCK_WAIT_MS = 1000
# The other reading of such a capture (the knock) is followed alongside this long after
# the placement both readings explain (see fork.py): a person who has knocked a piece over
# pauses before setting the piece in the hand down (the human model: 20-610 ms after the
# knocked piece is back, p99 500 ms), and may pause longer.
OTHER_READING_MS = 1500
# A piece put down while no square has been emptied may be a move seen arriving before it
# is seen leaving (a slide's next switch closing first, a promoted queen set down before
# the pawn is cleared): the lift follows within a second or two. A piece that stays alone
# longer came from off the board, and the lights show it.
STRAY_WAIT_MS = 2000
# The hand that has just set a piece down withdraws over its neighbours and may knock one of
# its own pieces (FIDE 4.3 binds only the player having the move). A lift of a piece of
# the player who moved, within this time of the move's completion and two squares of where
# a piece landed, is that hand: the opponent's hand, even in a fast reply, goes for the
# opponent's own pieces first, and a touch of the mover's piece later still binds.
MOVERS_HAND_MS = 400
MOVERS_HAND_REACH = 2

# A switch stuck open or closed makes no edge: the board shows a mismatch that one square
# alone keeps up, and nothing the hands do changes it. After this long with the board
# still and the lights asking, that square's switch is taken as stuck (a piece left
# lying there that long is as well ignored; the square is trusted again once it reads
# what the game says).
STUCK_MS = 30_000

# A move that could still grow is committed when the opponent's hand starts the reply. A
# lift of the opponent's piece alone waits this long first: hands sweeping the pieces off
# after a result the board does not know clear them tens of ms apart, and the moved piece
# may be among them, leaving its target just after (then the move was never made). The
# opponent setting a piece down, or completing a reply, decides at once.
SWEEP_MS = 100
# A neighbour knocked by the hand carrying a piece falls back or is put back within a
# quarter of a second; a capture whose victim's square was empty for less, with the
# capturer already in the hand, may be that knock (see knock.knocked_victim).
KNOCK_MS = 250
# A neighbour knocked off its square by the hand carrying a piece and not falling back is
# put back by hand: a person needs 0.3-1 s to right a piece. Until this long after its
# lift, the board otherwise a move under way, it is no mismatch to show (the lights would
# flash at every knock); left off longer, it is shown as any (see knock.righting_until).
RIGHTING_MS = 1500
# A piece seen arriving before it is seen leaving (the magnet over both switches) opens
# its origin within this long (up to 40 ms, and the switch's bounce); the opponent's
# hand, even in blitz, rarely lifts a neighbour of that square so fast.
ARRIVE_MS = 50
# A piece dropped on a square bounces off it for tens of ms, and a piece set down and slid
# on before the hand lets go leaves its first square within about a tenth of a second: a
# lift of the square a move just landed on, this soon, may be the same hand. So even a
# move that cannot grow waits this long once its piece is set down (FIDE 4.7: the move is
# where the piece is released), or for the opponent's hand: the host never hears of a
# square the piece only touched. The clock still stops at the landing.
RELAND_MS = 150
# A capturer that shoves its victim off the square leaves only its own square emptied, as
# a piece held in the hand does. The opponent lifting a piece this long after the capturer
# was lifted says the hand was done (overlapping blitz hands lift sooner, the player's
# piece still in the air: see push.py).
PUSH_MS = 1000
# A piece knocked aside by the hand carrying another one lands on the next square within
# tens of ms; a piece lifted and set down deliberately takes longer.
STEP_KNOCK_MS = 90

START_OCCUPANCY: Bitboard = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]
