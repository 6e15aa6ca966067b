// The board's own page: draws the board it is sent (board.js, the simulator's picture),
// and for a paired device sends the players' controls. It keeps no game of its own:
// every rule is the board's, so what the page shows is what the board decided.
"use strict";

let socket = null;
let state = null;
let stateAt = 0; // when the state came (performance.now()), for the running clock
let ticking = null; // the timer that draws the running clock's next text
let flipped = false;
let paired = false;
let toldSan = null; // the moves the live log has told (null: none yet, on the page's first state)
let asked = []; // what to say when the board answers each request sent, in order

// The promotion's choices in words, as the log says them.
const PIECES = { q: "queen", r: "rook", b: "bishop", n: "knight" };

const $ = (id) => document.getElementById(id);

// `told`: what the live log says once the board has taken the request (null: nothing).
function send(message, told = null) {
  if (!paired) return say("Pair this device to play from it.");
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    asked.push(told); // the board answers a socket's requests in the order they came
  } else say("Not connected to the board: trying again…");
}

function command(fields, told = null) {
  send({ op: "command", command: fields }, told);
}

// One more line in the live region: screen readers read it out.
function say(text) {
  $("message").textContent = text;
  const li = document.createElement("li");
  li.textContent = text;
  const log = $("said");
  log.appendChild(li);
  while (log.childElementCount > 30) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}

// ----- drawing -----

function build() {
  buildSquares($("board"), flipped);
  if (state) draw(state);
}

function draw(s) {
  drawSquares($("board"), s);
  drawMoves($("moves"), s.san);
  tellMoves(s.san);
  tick();
  $("waiting").textContent = s.waiting;
  $("result").textContent = s.result_text || "";
  $("opponent-now").textContent = "Playing against " + s.opponent + ".";
  $("central").textContent = s.central || "";
  showBroker(s.broker);
  if (document.activeElement !== $("mode") && s.mode) $("mode").value = s.mode;
}

// The board's link to the broadcast's broker. Its line is a status region, written only
// when its words change: a screen reader announces a change of the link once, not each
// state the board sends (the count of what waits for the broker is a line of its own).
function showBroker(broker) {
  const line = $("broker");
  const unsent = $("broker-unsent");
  let text = "";
  if (broker) {
    const since = new Date(broker.since_ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    text = `${broker.words} (since ${since})`;
  }
  if (line.textContent !== text) line.textContent = text;
  line.className = broker && broker.link !== "connected" && broker.link !== "connecting" ? "down" : "";
  const waiting = broker ? broker.unsent : 0;
  unsent.hidden = !waiting;
  const count = waiting === 1 ? "1 update waits" : `${waiting} updates wait`;
  const words = waiting ? `${count} for the broker, kept on the board.` : "";
  if (unsent.textContent !== words) unsent.textContent = words;
}

// The live log tells each move the board made since the last state: a new one, and one
// the board changed in place (a promotion the player made a knight by the board's own
// gesture after the pawn landed: the same ply, another move). A takeback says nothing.
function tellMoves(san) {
  if (toldSan !== null) {
    let same = 0;
    while (same < toldSan.length && same < san.length && toldSan[same] === san[same]) same++;
    for (let ply = same + 1; ply <= san.length; ply++) say(movedWords(san, ply));
  }
  toldSan = san.slice();
}

function movedWords(san, ply) {
  const number = Math.floor((ply - 1) / 2) + 1;
  return `${number}.${ply % 2 ? "" : ".."} ${san[ply - 1]}`;
}

// The running clock goes down between the board's states, drawn again when its text
// changes (each second, each tenth in the last ten seconds): a timer set for that moment,
// not a redraw every tenth, which kept a phone's browser busy for nothing.
function tick() {
  clearTimeout(ticking);
  ticking = null;
  if (!state) return;
  let clock = state.clock;
  if (clock && clock.running && !state.result) {
    const gone = performance.now() - stateAt;
    const left = clock[clock.running + "_ms"] - gone;
    clock = { ...clock, [clock.running + "_ms"]: left };
    if (left > 0) ticking = setTimeout(tick, untilClockChanges(left));
  }
  drawClocks($("clocks"), clock, flipped);
}

function showPaired(hello) {
  paired = hello.paired;
  $("pairing").hidden = paired;
  $("controls").hidden = !paired;
  $("opponent-form").hidden = !hello.opponents;
  showVoice(hello.voice);
  $("status").textContent = paired ? "connected, paired" : "connected: watching";
}

// The voice's settings, when the board has a voice.
function showVoice(voice) {
  $("voice-settings").hidden = !voice;
  if (!voice) return;
  const languages = $("language");
  if (!languages.childElementCount)
    for (const code of voice.languages) {
      const option = document.createElement("option");
      option.value = option.textContent = code;
      languages.appendChild(option);
    }
  $("voice-on").checked = voice.enabled;
  languages.value = voice.language;
}

// ----- the link to the board -----

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      state = message;
      stateAt = performance.now();
      draw(state);
    } else if (message.type === "hello") {
      showPaired(message);
    } else if (message.type === "told") {
      say(message.text);
    } else if (message.type === "error") {
      asked.shift();
      say(message.message);
    } else if (message.type === "reply") {
      const told = asked.shift();
      if (told) say(told);
      else $("message").textContent = message.message || "Done.";
      if (message.voice) showVoice(message.voice);
    }
  };
  socket.onopen = () => {
    asked = []; // a request sent on the socket before is answered there or not at all
  };
  socket.onclose = (event) => {
    if (event.code === 4401) {
      paired = false;
      $("pairing").hidden = false;
      $("controls").hidden = true;
      say("This device is not paired: pair it to play from it.");
    }
    $("status").textContent = "disconnected: reconnecting…";
    setTimeout(connect, 1000);
  };
}

// ----- pairing -----

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch (error) {
    answer = { error: `the board answered ${response.status}` };
  }
  return answer;
}

async function pairStart() {
  const answer = await post("/pair/start", {});
  say(answer.ok ? "Four squares are lit on the board: type their ranks, a to d." : answer.error);
  if (answer.ok) $("pair-code").focus();
}

async function pair(event) {
  event.preventDefault();
  const answer = await post("/pair", { code: $("pair-code").value });
  $("pair-code").value = "";
  if (!answer.ok) return say(answer.error);
  say("This device is paired: you can play from it.");
  socket.close(); // the new socket carries the device's cookie
}

// ----- past games -----

async function pastGames() {
  const list = $("games");
  list.textContent = "";
  const games = await (await fetch("/games")).json();
  if (!games.length) list.textContent = "No games in the board's journal.";
  for (const game of games) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/games/${game.number}.pgn`;
    link.download = `reedboard-${game.number}.pgn`;
    link.textContent = `Game ${game.number}, ${game.started}: ${game.result}, ${game.plies} plies`;
    li.appendChild(link);
    list.appendChild(li);
  }
}

// ----- the controls -----

function newGame() {
  const variant = $("variant").value;
  const clock = $("time-control").value.trim();
  const fields = { type: "new_game" };
  if (clock) fields.clock = clock;
  if (variant !== "standard") fields.variant = "chess960";
  if (variant === "chess960") fields.number = Number($("number").value);
  command(fields);
  command({ type: "mode", mode: $("mode").value });
}

function controls() {
  $("pair-start").addEventListener("click", pairStart);
  $("pair-form").addEventListener("submit", pair);
  $("new-game").addEventListener("click", newGame);
  $("set-promotion").addEventListener("click", () => {
    const piece = $("promotion").value;
    command({ type: "promotion", piece }, `Next promotion: ${PIECES[piece]}`);
  });
  $("resign").addEventListener("click", () => command({ type: "resign" }));
  $("draw").addEventListener("click", () => command({ type: "draw" }));
  $("takeback").addEventListener("click", () => command({ type: "takeback" }));
  $("set-brightness").addEventListener("click", () =>
    command({ type: "brightness", percent: Number($("brightness").value) }),
  );
  $("set-settle").addEventListener("click", () =>
    command({ type: "settings", settle_ms: Number($("settle").value) }),
  );
  $("opponent-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ op: "opponent", spec: $("opponent-spec").value });
  });
  $("hint").addEventListener("click", () => send({ op: "hint" }));
  $("set-voice").addEventListener("click", () =>
    send({ op: "voice", enabled: $("voice-on").checked, language: $("language").value }),
  );
  $("flip").addEventListener("click", () => {
    flipped = !flipped;
    build();
  });
  $("past").addEventListener("toggle", () => $("past").open && pastGames());
}

build();
controls();
connect();
