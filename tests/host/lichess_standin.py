"""A stand-in for Lichess in a thread on 127.0.0.1, in the shapes Lichess publishes (its
OpenAPI description: `GameFullEvent`, `GameStateEvent`, `GameEventInfo`, `ChallengeJson`,
`ChallengeDeclinedJson`, the Board API's paths and forms): the account, the event stream,
the game stream, seeks, challenges both ways, moves, draw offers, takebacks, resignation,
abort, claims when the opponent has left.

One game at a time. Its opponent answers each of the board player's moves with a move of
its own (from `opponent_script` while that is legal, else a random one). Like Lichess it
writes castling as king takes rook in every variant and reads either notation.

A takeback accepted goes back to the proposer's turn, as Lichess's does: one ply if the
proposer moved last, else two; an opponent who is then to move plays again.

Knobs a test turns: `refuse_plies` (the board player's moves refused once, by game ply),
`refuse_next` (the next requests of a kind answered with these statuses: 429, 503...;
`retry_after`, the Retry-After of a 429),
`redirect_to` (every request sent on to another server), `forget_game()` (its stream
answers 404 from then on),
`answer` (what the challenged player does), `accepts_draws`, `offer_draw()`,
`propose_takeback()`, `answer_takeback()`, `replies` (off: the opponent moves only on
`opponent_plays()`), `opponent_leaves()`, `drop_streams()`,
`send_challenge()`, `garbage` (odd lines on the streams), `game_stream_gate` (the game
stream answered only once the event is set)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.position import Position

ME = {"id": "boardplayer", "username": "BoardPlayer"}
OPPONENT = {"id": "standin", "name": "StandIn"}
KEEPALIVE_S = 0.3
VARIANT_NAMES = {"standard": ("Standard", "Std"), "chess960": ("Chess960", "960"),
                 "fromPosition": ("From Position", "FEN"), "atomic": ("Atomic", "Atom")}  # fmt: skip
STATUS_IDS = {"created": 10, "started": 20, "aborted": 25, "mate": 30, "resign": 31,
              "stalemate": 32, "timeout": 33, "draw": 34, "outoftime": 35}  # fmt: skip
GARBAGE_EVENTS = ['[1, 2]', 'not json', '{"type": "gameStart"}', '{"type": "gameStart", "game": null}',
                  '{"type": "challenge", "challenge": {"id": 5, "challenger": "x", "variant": 3}}',
                  '{"type": "challengeDeclined", "challenge": []}', '{"type": "mystery"}']  # fmt: skip
GARBAGE_GAME = ['{"type": "gameState", "moves": 42, "status": []}', '{"type": "gameFull"}',
                '{"type": "gameState", "moves": "e2e4 zz99"}', '"just a string"']  # fmt: skip


def _kind(method: str, path: str) -> str:
    """What a request is, for `refuse_next` and `requests`: account, events, game (its
    stream), move, call (any other game call), or other."""
    parts = path.strip("/").split("/")
    if path == "/api/account":
        return "account"
    if path == "/api/stream/event":
        return "events"
    if parts[:4] == ["api", "board", "game", "stream"]:
        return "game"
    if method == "POST" and parts[:3] == ["api", "board", "game"] and len(parts) > 4:
        return "move" if parts[4] == "move" else "call"
    return "other"


def _user(who: dict[str, str], rating: int) -> dict[str, Any]:
    return {"id": who["id"], "name": who.get("name") or who["username"], "title": None,
            "rating": rating, "provisional": False, "online": True, "lag": 4}  # fmt: skip


def _variant(key: str) -> dict[str, str]:
    name, short = VARIANT_NAMES[key]
    return {"key": key, "name": name, "short": short}


class StandIn:
    def __init__(self, token: str, *, seed: int = 5) -> None:
        self.token = token
        self.rng = random.Random(seed)
        self.changed = threading.Condition()
        self.events: list[dict[str, Any]] = []  # what happened, for event streams
        self.pending: dict[str, dict[str, Any]] = {}  # incoming challenges not answered
        self.game: Game | None = None
        self.game_id = ""
        self.variant = "standard"
        self.initial_fen = "startpos"
        self.clock = (900, 10)  # seconds, as the game was created
        self.me_white = True
        self.status = "started"
        self.winner: str | None = None
        self.draw_offer = {"white": False, "black": False}
        self.takeback_offer = {"white": False, "black": False}
        # The last version a game stream has sent: a state the bridge reads before any later
        # one. Versions are not each sent: a stream sends the latest it finds, so two changes
        # made before it looks reach the bridge as one.
        self.streamed_version = -1
        self.claimable = False  # the opponent left long enough ago for a claim
        self.version = 0  # bumped on every change of the game
        self.generation = 0  # bumped to drop every open stream
        # What the bridge asked for.
        self.seeks: list[dict[str, str]] = []
        self.challenges: list[tuple[str, dict[str, str]]] = []
        self.accepted: list[str] = []
        self.declined: dict[str, str] = {}
        self.posts: list[str] = []  # game calls after /api/board/game/{id}/
        self.refused: list[str] = []
        self.stream_opens: dict[str, int] = {}
        self.auth_headers: set[str] = set()
        self.requests: dict[str, int] = {}  # by kind (`_kind`), as they came
        self.not_found: list[str] = []  # the paths answered 404
        # Knobs.
        self.game_news: list[dict[str, Any]] = []  # chat, opponentGone: for open streams
        self.opponent_script: list[str] = []
        self.refuse_plies: set[int] = set()
        self.answer: Literal["accept", "decline"] = "accept"
        self.accepts_draws = False
        self.replies = True
        self.garbage = False
        self.refuse_next: dict[str, list[int]] = {}  # kind -> statuses of its next answers
        self.redirect_to: str | None = None  # a server every request is sent on to
        self.retry_after: str | None = None  # the Retry-After header of a 429
        # Set: a game stream opened is answered only once it is set (a slow Lichess).
        self.game_stream_gate: threading.Event | None = None
        self.closing = False
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_GET(self) -> None:
                standin._handle(self, "GET")

            def do_POST(self) -> None:
                standin._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()
        self.server.shutdown()
        self.server.server_close()

    # ----- what a test sees and does -----

    def moves(self, start: int = 0) -> list[str]:
        """The game's moves from ply `start`, in the board's notation (`Position.uci`)."""
        with self.changed:
            g = self.game
            if g is None:
                return []
            pairs = list(zip(g.positions, g.moves, strict=False))[start:]
            return [b.uci(m) for b, m in pairs]

    def start_game(
        self,
        game_id: str,
        *,
        me_white: bool = True,
        variant: str = "standard",
        fen: str = "startpos",
        moves: tuple[str, ...] = (),
        clock: tuple[int, int] = (900, 10),
    ) -> None:
        """A game begins (or is already going on, with `moves`): gameStart follows."""
        with self.changed:
            start = (
                Position.standard()
                if fen == "startpos"
                else Position.from_fen(fen, chess960=variant == "chess960")
            )
            self.game = Game(start)
            for uci in moves:
                self.game.push_uci(uci)
            self.game_id, self.variant, self.initial_fen = game_id, variant, fen
            self.me_white, self.clock = me_white, clock
            self.status, self.winner = "started", None
            self.draw_offer = {"white": False, "black": False}
            self.takeback_offer = {"white": False, "black": False}
            self.claimable = False
            self._opponent_moves()
            self.version += 1
            self.events.append({"type": "gameStart", "game": self._game_info()})
            self.changed.notify_all()

    def offer_draw(self) -> None:
        with self.changed:
            self.draw_offer["black" if self.me_white else "white"] = True
            self.version += 1
            self.changed.notify_all()

    def propose_takeback(self) -> None:
        with self.changed:
            self.takeback_offer["black" if self.me_white else "white"] = True
            self.version += 1
            self.changed.notify_all()

    def answer_takeback(self, accept: bool) -> None:
        """The opponent answers the board player's takeback proposal."""
        with self.changed:
            me = "white" if self.me_white else "black"
            assert self.takeback_offer[me], "no takeback proposed"
            if accept:
                self._take_back(me)
            else:
                self.takeback_offer[me] = False
                self.version += 1
            self.changed.notify_all()

    def opponent_plays(self) -> None:
        """The opponent's move held back while `replies` is off."""
        with self.changed:
            self._opponent_moves(force=True)
            self.changed.notify_all()

    def opponent_leaves(self, claim_in: int) -> None:
        """The opponent leaves the game; a claim is possible in `claim_in` seconds (at
        once if 0: no test waits for a clock)."""
        with self.changed:
            self.claimable = claim_in == 0
            self.game_news.append(
                {"type": "opponentGone", "gone": True, "claimWinInSeconds": claim_in}
            )
            self.changed.notify_all()

    def say(self, item: dict[str, Any]) -> None:
        """A line for the game stream besides the game's state (opponentGone, chatLine)."""
        with self.changed:
            self.game_news.append(item)
            self.changed.notify_all()

    def decline_draw(self) -> None:
        """The opponent says no to the board player's draw offer."""
        with self.changed:
            self.draw_offer["white" if self.me_white else "black"] = False
            self.version += 1
            self.changed.notify_all()

    def lichess_moves(self) -> str:
        """The moves as the game stream writes them."""
        with self.changed:
            return self._lichess_moves()

    def forget_game(self) -> None:
        """The game is no more: its stream answers 404, as Lichess's for a game it has
        not (a game id of another server, a game deleted)."""
        with self.changed:
            self.game, self.game_id = None, ""
            self.generation += 1
            self.changed.notify_all()

    def drop_streams(self) -> None:
        """Every open stream ends, as when Lichess restarts or the line breaks."""
        with self.changed:
            self.generation += 1
            self.changed.notify_all()

    def send_challenge(self, challenge_id: str, challenger: dict[str, str], *,
                       variant: str = "standard", limit: int = 600, increment: int = 5,
                       color: str = "white", fen: str | None = None) -> None:  # fmt: skip
        """Someone challenges the board player; `color` is the board player's."""
        with self.changed:
            c = self._challenge_json(challenge_id, challenger, ME, variant, limit, increment)
            if fen is not None:
                c["initialFen"] = fen
            c |= {"direction": "in", "finalColor": "black" if color == "white" else "white",
                  "color": "black" if color == "white" else "white"}  # fmt: skip
            self.pending[challenge_id] = c
            self.events.append({"type": "challenge", "challenge": c,
                                "compat": {"bot": False, "board": True}})  # fmt: skip
            self.changed.notify_all()

    # ----- requests -----

    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        auth = h.headers.get("Authorization", "")
        path = urllib.parse.urlsplit(h.path).path
        kind = _kind(method, path)
        with self.changed:
            self.auth_headers.add(auth)
            self.requests[kind] = self.requests.get(kind, 0) + 1
            refusals = self.refuse_next.get(kind) or []
            status = refusals.pop(0) if refusals else None
        if self.redirect_to is not None:
            h.send_response(302)
            h.send_header("Location", self.redirect_to + h.path)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return None
        if auth != f"Bearer {self.token}":
            return self._json(h, 401, {"error": "No such token"})
        if status is not None:
            extra = {"Retry-After": self.retry_after} if status == 429 and self.retry_after else {}
            return self._json(h, status, {"error": "Too many requests. Try again later."}, extra)
        length = int(h.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(h.rfile.read(length).decode())) if length else {}
        parts = path.strip("/").split("/")
        if method == "GET" and path == "/api/account":
            return self._json(h, 200, {**ME, "url": "https://lichess.org/@/BoardPlayer",
                                       "createdAt": 1700000000000, "perfs": {}})  # fmt: skip
        if method == "GET" and path == "/api/stream/event":
            return self._stream(h, "events", self._event_lines)
        if method == "GET" and parts[:4] == ["api", "board", "game", "stream"]:
            if len(parts) == 5 and parts[4] == self.game_id and self.game is not None:
                if (gate := self.game_stream_gate) is not None:
                    gate.wait()
                return self._stream(h, "game", self._game_lines)
            with self.changed:
                self.not_found.append(path)
            return self._json(h, 404, {"error": "Not found"})
        if method == "POST" and path == "/api/board/seek":
            return self._seek(h, form)
        if method == "POST" and parts[:2] == ["api", "challenge"] and len(parts) == 3:
            return self._challenge(h, parts[2], form)
        if method == "POST" and parts[:2] == ["api", "challenge"] and len(parts) == 4:
            return self._answer(h, parts[2], parts[3], form)
        if method == "POST" and parts[:3] == ["api", "board", "game"] and len(parts) > 4:
            with self.changed:
                ok = parts[3] == self.game_id and self._game_post(parts[4:])
                self.changed.notify_all()
            return self._json(h, 200 if ok else 400, {"ok": True} if ok else {"error": "Not your turn, or game already over"})  # fmt: skip
        return self._json(h, 404, {"error": "Not found"})

    def _seek(self, h: BaseHTTPRequestHandler, form: dict[str, str]) -> None:
        self.seeks.append(form)
        # Paired at once: the game starts; the seek's stream ends without a word.
        self.start_game(
            "abcd1234", clock=(int(float(form.get("time", 15)) * 60), int(form.get("increment", 0)))
        )
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.end_headers()
        h.wfile.write(b"\n")

    def _challenge(self, h: BaseHTTPRequestHandler, user: str, form: dict[str, str]) -> None:
        challenge_id = "chal1234"
        limit, increment = int(form.get("clock.limit", 0)), int(form.get("clock.increment", 0))
        dest = {"id": user.lower(), "name": user}
        with self.changed:
            self.challenges.append((user, form))
            c = self._challenge_json(challenge_id, {**ME, "name": ME["username"]}, dest,
                                     form.get("variant", "standard"), limit, increment)  # fmt: skip
            c |= {"direction": "out", "rated": form.get("rated") == "true"}
            self.events.append({"type": "challenge", "challenge": c})
            self.changed.notify_all()
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.end_headers()
        h.wfile.write((json.dumps(c) + "\n\n").encode())
        h.wfile.flush()
        if self.answer == "accept":
            self.start_game(challenge_id, variant=c["variant"]["key"], clock=(limit, increment),
                            me_white=c["finalColor"] == "white")  # fmt: skip
            done = "accepted"
        else:
            with self.changed:
                reason = "I'm not accepting challenges at the moment."
                declined = {**c, "status": "declined", "declineReason": reason,
                            "declineReasonKey": "generic"}  # fmt: skip
                self.events.append({"type": "challengeDeclined", "challenge": declined})
                self.changed.notify_all()
            done = "declined"
        h.wfile.write((json.dumps({"done": done}) + "\n").encode())

    def _answer(
        self, h: BaseHTTPRequestHandler, challenge_id: str, verb: str, form: dict[str, str]
    ) -> None:
        with self.changed:
            c = self.pending.pop(challenge_id, None)
            if c is None or verb not in ("accept", "decline"):
                return self._json(h, 404, {"error": "Not found"})
            if verb == "decline":
                self.declined[challenge_id] = form.get("reason", "generic")
            else:
                self.accepted.append(challenge_id)
        if verb == "accept":
            limit, increment = c["timeControl"]["limit"], c["timeControl"]["increment"]
            self.start_game(challenge_id, variant=c["variant"]["key"], clock=(limit, increment),
                            me_white=c["finalColor"] != "white",  # the challenger's colour
                            fen=c.get("initialFen", "startpos"))  # fmt: skip
        return self._json(h, 200, {"ok": True})

    def _game_post(self, rest: list[str]) -> bool:
        self.posts.append("/".join(rest))
        if self.status != "started" or self.game is None:
            return False
        me, them = ("white", "black") if self.me_white else ("black", "white")
        if rest[:1] == ["move"] and len(rest) == 2:
            return self._board_move(rest[1])
        if rest == ["resign"]:
            self._end("resign", them)
        elif rest == ["abort"]:
            self._end("aborted", None)
        elif rest == ["draw", "yes"]:
            if self.draw_offer[them] or self.accepts_draws:
                self._end("draw", None)
            else:
                self.draw_offer[me] = True
                self.version += 1
        elif rest == ["draw", "no"]:
            self.draw_offer[them] = False
            self.version += 1
        elif rest == ["takeback", "yes"]:
            if self.takeback_offer[them]:
                self._take_back(them)
            elif len(self.game):
                self.takeback_offer[me] = True
                self.version += 1
            else:
                return False
        elif rest == ["takeback", "no"]:
            # Declines the opponent's proposal, or withdraws one's own, as on Lichess.
            if not (self.takeback_offer[them] or self.takeback_offer[me]):
                return False
            self.takeback_offer = {"white": False, "black": False}
            self.version += 1
        elif rest in (["claim-victory"], ["claim-draw"]):
            if not self.claimable:
                return False
            if rest == ["claim-victory"]:
                self._end("timeout", me)
            else:
                self._end("draw", None)
        else:
            return False
        return True

    def _take_back(self, proposer: str) -> None:
        """Back to the proposer's turn: one ply if they moved last, else two."""
        assert self.game is not None
        proposer_white = proposer == "white"
        plies = 1 if self.game.position.turn != proposer_white else 2
        for _ in range(min(plies, len(self.game))):
            self.game.pop()
        self.takeback_offer = {"white": False, "black": False}
        self.version += 1
        self._opponent_moves()

    def _board_move(self, uci: str) -> bool:
        assert self.game is not None
        ply = len(self.game) + 1
        if self.game.position.turn != self.me_white:
            return False
        if ply in self.refuse_plies:
            self.refuse_plies.discard(ply)
            self.refused.append(uci)
            return False
        try:
            self.game.push_uci(uci)
        except ValueError:
            return False
        # A move answers the opponent's draw offer with a no.
        self.draw_offer["black" if self.me_white else "white"] = False
        self.version += 1
        self._opponent_moves()
        return True

    def _opponent_moves(self, *, force: bool = False) -> None:
        game = self.game
        assert game is not None
        if not (self.replies or force):
            return
        if game.position.turn == self.me_white or self._over_by_rules():
            return
        move = self._scripted(game.position) or self.rng.choice(list(game.position.legal_moves()))
        game.push(move)
        self.draw_offer["white" if self.me_white else "black"] = False
        self.version += 1
        self._over_by_rules()

    def _scripted(self, position: Position) -> Move | None:
        while self.opponent_script:
            try:
                return position.parse_uci(self.opponent_script.pop(0))
            except ValueError:
                continue
        return None

    def _over_by_rules(self) -> bool:
        assert self.game is not None
        outcome = self.game.outcome()
        if outcome is None:
            return False
        winner = {"1-0": "white", "0-1": "black"}.get(outcome.result)
        self._end(
            "mate" if winner else "stalemate" if outcome.reason == "stalemate" else "draw", winner
        )
        return True

    def _end(self, status: str, winner: str | None) -> None:
        self.status, self.winner = status, winner
        self.version += 1
        self.events.append({"type": "gameFinish", "game": self._game_info()})

    # ----- answers -----

    @staticmethod
    def _json(
        h: BaseHTTPRequestHandler,
        code: int,
        body: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> None:
        data = json.dumps(body).encode()
        h.send_response(code)
        for name, value in (headers or {}).items():
            h.send_header(name, value)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _stream(self, h: BaseHTTPRequestHandler, name: str, lines: Any) -> None:
        sent: dict[str, int] = {}
        with self.changed:
            self.stream_opens[name] = self.stream_opens.get(name, 0) + 1
            generation = self.generation
            # Where the stream starts is fixed before its headers go: once they have, the
            # bridge counts it open and may act, and what follows must reach it.
            out = lines(sent)
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.end_headers()
        try:
            while True:
                h.wfile.write("".join(line + "\n" for line in out).encode())
                h.wfile.flush()
                with self.changed:
                    if self.closing or self.generation != generation:
                        return
                    out = lines(sent)
                    if not out:
                        self.changed.wait(KEEPALIVE_S)
                        out = lines(sent) or [""]
        except OSError:
            return  # the bridge went away

    def _event_lines(self, sent: dict[str, int]) -> list[str]:
        if "events" not in sent:
            # A new stream: the challenges waiting and the games going on, as Lichess does.
            sent["events"] = len(self.events)
            now = [{"type": "challenge", "challenge": c} for c in self.pending.values()]
            if self.game is not None and self.status == "started":
                now.append({"type": "gameStart", "game": self._game_info()})
            odd = GARBAGE_EVENTS if self.garbage else []
            return odd + [json.dumps(e) for e in now] + [""]
        start = sent["events"]
        sent["events"] = len(self.events)
        return [json.dumps(e) for e in self.events[start:]]

    def _game_lines(self, sent: dict[str, int]) -> list[str]:
        if "version" not in sent:
            sent["version"], sent["news"] = self.version, len(self.game_news)
            self.streamed_version = self.version
            first = self.stream_opens["game"] == 1
            chat = {
                "type": "chatLine",
                "username": "StandIn",
                "text": "good luck",
                "room": "player",
            }
            odd = GARBAGE_GAME if self.garbage and first else []
            return [json.dumps(self._full())] + odd + ([json.dumps(chat)] if first else [])
        news = [json.dumps(item) for item in self.game_news[sent["news"] :]]
        sent["news"] = len(self.game_news)
        if sent["version"] == self.version:
            return news
        sent["version"] = self.streamed_version = self.version
        return [*news, json.dumps(self._state())]

    # ----- the shapes -----

    def _lichess_moves(self) -> str:
        # King takes rook for castling in every variant, as Lichess writes it.
        assert self.game is not None
        return " ".join(m.uci() for m in self.game.moves)

    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "type": "gameState", "moves": self._lichess_moves(),
            "wtime": self.clock[0] * 1000, "btime": self.clock[0] * 1000,
            "winc": self.clock[1] * 1000, "binc": self.clock[1] * 1000, "status": self.status,
        }  # fmt: skip
        # An offer is `true`, else the field is left out.
        for colour in ("white", "black"):
            if self.draw_offer[colour]:
                state[f"{colour[0]}draw"] = True
            if self.takeback_offer[colour]:
                state[f"{colour[0]}takeback"] = True
        if self.winner:
            state["winner"] = self.winner
        return state

    def _players(self) -> tuple[dict[str, Any], dict[str, Any]]:
        me = {"id": ME["id"], "name": ME["username"], "title": None, "rating": 1500}
        them = {**OPPONENT, "title": None, "rating": 1620, "provisional": True}
        return (me, them) if self.me_white else (them, me)

    def _full(self) -> dict[str, Any]:
        white, black = self._players()
        speed = "classical" if self.clock[0] + 40 * self.clock[1] >= 1500 else "rapid"
        return {
            "id": self.game_id, "variant": _variant(self.variant), "speed": speed,
            "perf": {"name": speed.title()}, "rated": False, "createdAt": 1789845859939,
            "white": white, "black": black, "initialFen": self.initial_fen,
            "clock": {"initial": self.clock[0] * 1000, "increment": self.clock[1] * 1000},
            "type": "gameFull", "state": self._state(),
        }  # fmt: skip

    def _game_info(self) -> dict[str, Any]:
        """`GameEventInfo`, as in gameStart and gameFinish."""
        assert self.game is not None
        moves = self.game.moves
        mine = self.game.position.turn == self.me_white
        return {
            "fullId": self.game_id + "wxyz", "gameId": self.game_id,
            "fen": self.game.position.fen(), "color": "white" if self.me_white else "black",
            "lastMove": moves[-1].uci() if moves else "", "source": "friend",
            "status": {"id": STATUS_IDS.get(self.status, 20), "name": self.status},
            "variant": {"key": self.variant, "name": VARIANT_NAMES[self.variant][0]},
            "speed": "rapid", "perf": "rapid", "rated": False, "hasMoved": bool(moves),
            "opponent": {"id": OPPONENT["id"], "username": OPPONENT["name"], "rating": 1620},
            "isMyTurn": mine, "secondsLeft": self.clock[0],
            "compat": {"bot": False, "board": True}, "id": self.game_id,
        }  # fmt: skip

    def _challenge_json(self, challenge_id: str, challenger: dict[str, str], dest: dict[str, str],
                        variant: str, limit: int, increment: int) -> dict[str, Any]:  # fmt: skip
        """`ChallengeJson`."""
        speed = "classical" if limit + 40 * increment >= 1500 else "rapid"
        return {
            "id": challenge_id, "url": f"https://lichess.org/{challenge_id}", "status": "created",
            "challenger": _user(challenger, 1500), "destUser": _user(dest, 1620),
            "variant": _variant(variant), "rated": False, "speed": speed,
            "timeControl": {"type": "clock", "limit": limit, "increment": increment,
                            "show": f"{limit / 60:g}+{increment}"},
            "color": "random", "finalColor": "white", "perf": {"icon": "#", "name": speed.title()},
        }  # fmt: skip


class HeaderRecorder:
    """Another server on 127.0.0.1 that answers every request with `{}` and keeps its
    headers: where a redirect must not take the token."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_GET(self) -> None:
                recorder.headers.append(dict(self.headers.items()))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            do_POST = do_GET

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> HeaderRecorder:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


class ManualClock:
    """The Lichess API's clock in a test: time moves only when the test says (`advance`),
    so a minute's pause is waited out at once, and the waits asked for are seen: `asked`,
    their deadlines in order, and `sleepers`, those waited for now."""

    def __init__(self) -> None:
        self.t = 0.0
        self.asked: list[float] = []
        self.sleepers: list[float] = []
        self.changed = threading.Condition()

    def now(self) -> float:
        with self.changed:
            return self.t

    async def wait_until(self, deadline: float) -> None:
        with self.changed:
            self.asked.append(deadline)
            self.sleepers.append(deadline)
            self.changed.notify_all()
        try:
            # The test's thread moves the clock: its loop looks often, and a stop cancels.
            while self.now() < deadline:
                await asyncio.sleep(0.01)
        finally:
            with self.changed:
                self.sleepers.remove(deadline)

    def advance(self, seconds: float) -> None:
        with self.changed:
            self.t += seconds
            self.changed.notify_all()

    def wait_asked(self, n: int, timeout_s: float = 10) -> float:
        """The deadline of the `n`th wait asked for (from 0), once it has been asked."""
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.asked) > n, timeout_s):
                raise AssertionError(f"no wait number {n} on the clock: {self.asked}")
            return self.asked[n]
