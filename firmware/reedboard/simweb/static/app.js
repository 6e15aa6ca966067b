// The simulator's page: draws what the board sends (pieces, LEDs, moves, effects) and
// turns mouse gestures into lifts and places (the board's picture is board.js's, shared
// with the board's own page). It keeps no game logic of its own: every
// rule is the firmware's, so what the page shows is what the board decided.
"use strict";

let socket = null;
let state = null;
let flipped = false;
let drag = null; // the square a drag started on, while the button is down
// The number of the last sentence said here: the board numbers them from 1, so 0 is
// "none yet"; null until the first state, which tells what a page opened late has missed.
let lastSpoken = null;
let sayingFleeting = false; // whether the sentence being spoken may be cut

const $ = (id) => document.getElementById(id);

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function command(fields) {
  send({ op: "command", command: fields });
}

// ----- the board -----

function buildBoard() {
  buildSquares($("board"), flipped);
  if (state) draw(state);
}

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? el.closest(".sq, #tray-shelf") : null;
}

function onPointerDown(event) {
  const sq = event.target.closest(".sq");
  if (!sq || !state) return;
  const name = sq.dataset.square;
  // The board decides whether this lifts or places: the picture here may be a step behind.
  send({ op: "touch", square: name });
  if (state.pieces[name]) {
    drag = { from: name, piece: state.pieces[name] };
    showGhost(event);
  }
}

function onPointerMove(event) {
  if (drag) showGhost(event);
}

function onPointerUp(event) {
  if (!drag) return;
  const target = squareAt(event.clientX, event.clientY);
  hideGhost();
  const from = drag.from;
  drag = null;
  if (!target) return;
  if (target.id === "tray-shelf") send({ op: "to_tray" });
  // Let go on the square it came from: a click, the piece stays in hand. Let go on an
  // opponent's piece: the board takes it off and puts this one down, a capture.
  else if (target.dataset.square !== from) send({ op: "place", square: target.dataset.square });
}

function showGhost(event) {
  const ghost = $("ghost");
  ghost.hidden = false;
  ghost.textContent = GLYPHS[drag.piece.toLowerCase()];
  ghost.style.color = drag.piece === drag.piece.toUpperCase() ? "#fff" : "#000";
  ghost.style.webkitTextStroke = drag.piece === drag.piece.toUpperCase() ? "1.5px #000" : "";
  ghost.style.left = event.clientX + "px";
  ghost.style.top = event.clientY + "px";
}

function hideGhost() {
  $("ghost").hidden = true;
}

// ----- drawing the state -----

// What each part of the page was last drawn from: a state comes whenever anything on the
// board changed (an LED, a clock's text), and most parts are as they were. A part is
// written again only when what it shows changed: each write costs the browser a style, a
// layout and a paint, on a phone too.
const drawnFrom = {};

function changed(part, key) {
  if (drawnFrom[part] === key) return false;
  drawnFrom[part] = key;
  return true;
}

function draw(s) {
  drawSquares($("board"), s);
  if (changed("hand", JSON.stringify(s.hand))) {
    const hand = $("hand");
    hand.textContent = "";
    s.hand.forEach((held, i) => {
      const span = glyph(held.piece);
      span.title = held.from ? "from " + held.from : "from beside the board";
      if (i === s.hand.length - 1) span.classList.add("active");
      span.addEventListener("click", () => send({ op: "select", index: i }));
      hand.appendChild(span);
    });
  }
  if (changed("tray", s.tray.join(""))) {
    const tray = $("tray");
    tray.textContent = "";
    for (const letter of s.tray) tray.appendChild(trayPiece(letter));
  }
  const spares = $("spares");
  if (!spares.childElementCount) for (const letter of s.spares) spares.appendChild(trayPiece(letter));

  drawMoves($("moves"), s.san);
  drawClocks($("clocks"), s.clock, flipped);
  setIf($("result"), "textContent", s.result_text || "");
  setIf($("notice"), "textContent", s.notice || "");
  if (changed("effects", JSON.stringify([s.effects, s.effect_words]))) drawEffects(s);
  speakNew(s);
  setIf($("status"), "textContent", s.status);
  setIf($("pty"), "textContent", "serial: " + s.pty);
  if (document.activeElement !== $("mode")) $("mode").value = s.mode;
  if (document.activeElement !== $("settle")) $("settle").value = s.settle_ms;
}

// The latest effects first, in words, each after its time in a column of its own (the
// words start at the same place whatever the time); the link's JSON only while asked for.
function drawEffects(s) {
  const effects = $("effects");
  effects.textContent = "";
  const latest = s.effects.length - 1;
  for (let i = latest; i >= 0; i--) {
    const li = document.createElement("li");
    const at = document.createElement("span");
    at.className = "at";
    at.textContent = `${(s.effects[i].t_ms / 1000).toFixed(1)} s`;
    li.append(at, `  ${s.effect_words[i]}`);
    effects.appendChild(li);
  }
  const raw = $("effects-json");
  raw.textContent = "";
  if (!$("effects-raw").open) return;
  for (let i = latest; i >= 0; i--) {
    const li = document.createElement("li");
    li.textContent = JSON.stringify(s.effects[i]);
    raw.appendChild(li);
  }
}

function trayPiece(letter) {
  const span = glyph(letter);
  span.addEventListener("click", (event) => {
    event.stopPropagation();
    send({ op: "from_tray", piece: letter });
  });
  return span;
}

// ----- the voice: the board's sentences, read by screen readers and spoken -----

function speakNew(s) {
  if (document.activeElement !== $("language")) $("language").value = s.language;
  if (lastSpoken === null) {
    // A page opened mid-game says nothing of the past.
    lastSpoken = s.spoken.length ? s.spoken[s.spoken.length - 1].n : 0;
    return;
  }
  const fresh = s.spoken.filter((said) => said.n > lastSpoken);
  for (const said of fresh) {
    lastSpoken = said.n;
    const li = document.createElement("li");
    li.textContent = said.text;
    const log = $("spoken");
    log.appendChild(li);
    while (log.childElementCount > 30) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight; // the latest in sight
    speak(said.text, said.fleeting, s.language);
  }
}

// The board's own rule: a new sentence cuts one that only said what was wrong a moment
// ago; a move or a result is never cut, and the next one waits for it.
function speak(text, fleeting, language) {
  if (!$("speak").checked || !("speechSynthesis" in window)) return;
  if (sayingFleeting) speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = language === "fr" ? "fr-FR" : "en-GB";
  utterance.onend = () => {
    sayingFleeting = false;
  };
  sayingFleeting = fleeting;
  speechSynthesis.speak(utterance);
}

function typed(event) {
  event.preventDefault();
  const input = $("move-text");
  const text = input.value.trim();
  if (!text) return;
  if (text === "?") send({ op: "ask", text: "position" });
  else if (text === "!") send({ op: "ask", text: "last" });
  else if (/^clocks?$/i.test(text)) send({ op: "ask", text: "clock" });
  else if (/^\?[a-h][1-8]$/i.test(text)) send({ op: "ask", text: text.slice(1).toLowerCase() });
  else send({ op: "move", text });
  input.value = "";
}

// ----- the link to the board -----

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      state = message;
      draw(state);
    } else if (message.type === "error") {
      $("message").textContent = message.message;
      if (state) speak(message.message, true, state.language);
    } else if (message.type === "reply") {
      $("message").textContent = message.kind === "error" ? message.message : "";
    }
  };
  socket.onclose = () => {
    $("status").textContent = "disconnected: is reedboard sim still running?";
    setTimeout(connect, 1000);
  };
}

// ----- the controls -----

function controls() {
  $("board").addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  $("tray-shelf").addEventListener("click", () => {
    if (state && state.hand.length) send({ op: "to_tray" });
  });
  $("new-game").addEventListener("click", () => {
    const variant = $("variant").value;
    // A time control as players write it (5+3, 90/40:30+30); empty: an untimed game.
    const clock = $("time-control").value.trim();
    const timed = clock ? { clock } : {};
    if (variant === "standard") command({ type: "new_game", ...timed });
    else if (variant === "random") command({ type: "new_game", variant: "chess960", ...timed });
    else {
      const number = Number($("number").value);
      command({ type: "new_game", variant: "chess960", number, ...timed });
    }
  });
  $("mode").addEventListener("change", () => command({ type: "mode", mode: $("mode").value }));
  $("set-settle").addEventListener("click", () =>
    command({ type: "settings", settle_ms: Number($("settle").value) }),
  );
  $("flip").addEventListener("click", () => {
    flipped = !flipped;
    buildBoard();
  });
  $("takeback").addEventListener("click", () => command({ type: "takeback" }));
  $("arrange").addEventListener("click", () => send({ op: "arrange" }));
  for (const button of document.querySelectorAll(".promote"))
    button.addEventListener("click", () => command({ type: "promotion", piece: button.dataset.piece }));
  $("play").addEventListener("click", () => send({ op: "script", text: $("script").value }));
  $("type-move").addEventListener("submit", typed);
  $("effects-raw").addEventListener("toggle", () => state && drawEffects(state));
  $("language").addEventListener("change", () => send({ op: "language", text: $("language").value }));
}

buildBoard();
controls();
connect();
