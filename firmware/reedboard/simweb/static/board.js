// The board's picture, shared by the simulator's page and the board's own page: the
// squares with their pieces and lights, the move list with its numbers, both clocks. It
// draws what it is given (the `state` both pages are sent) and keeps no game of its own.
"use strict";

const GLYPHS = { k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f" };
const FILES = "abcdefgh";
const PIECE_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

function glyph(letter) {
  const span = document.createElement("span");
  span.textContent = GLYPHS[letter.toLowerCase()];
  span.className = letter === letter.toUpperCase() ? "w" : "b";
  span.dataset.piece = letter;
  return span;
}

// The 64 squares, White's side at the bottom unless `flipped`, each named for screen readers.
function buildSquares(board, flipped) {
  board.textContent = "";
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = flipped ? 7 - col : col;
      const rank = flipped ? row : 7 - row;
      const name = FILES[file] + (rank + 1);
      const sq = document.createElement("div");
      sq.className = "sq " + ((file + rank) % 2 ? "light" : "dark");
      sq.dataset.square = name;
      sq.setAttribute("role", "img");
      sq.innerHTML = '<div class="led"></div><div class="piece"></div>';
      if (col === 0 || row === 7) {
        const label = document.createElement("span");
        label.className = "name";
        label.textContent = name;
        sq.appendChild(label);
      }
      board.appendChild(sq);
    }
  }
}

// Pieces, lights and roles on the squares already built; only what changed is written (a
// state comes each second while a clock runs, most often with the same board).
function drawSquares(board, s) {
  for (const sq of board.querySelectorAll(".sq")) {
    const name = sq.dataset.square;
    const index = FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
    const colour = s.leds[index];
    const led = sq.querySelector(".led");
    const lit = colour !== "#000000";
    if (led.classList.contains("on") !== lit) led.classList.toggle("on", lit);
    if (led.style.getPropertyValue("--led") !== colour) led.style.setProperty("--led", colour);
    const role = s.roles[name];
    if (sq.dataset.role !== role) {
      if (role) sq.dataset.role = role;
      else delete sq.dataset.role;
    }
    const letter = s.pieces[name];
    const piece = sq.querySelector(".piece");
    setIf(piece, "textContent", letter ? GLYPHS[letter.toLowerCase()] : "");
    setIf(piece, "className", "piece" + (letter ? (letter === letter.toUpperCase() ? " w" : " b") : ""));
    const said = letter
      ? `${letter === letter.toUpperCase() ? "white" : "black"} ${PIECE_NAMES[letter.toLowerCase()]}`
      : "empty";
    const label = `${name} ${said}${role ? ", " + role : ""}`;
    if (sq.getAttribute("aria-label") !== label) sq.setAttribute("aria-label", label);
  }
}

// The moves in SAN, one numbered line a move: "e4 e5" under 1; written again only when
// they changed.
function drawMoves(list, san) {
  const lines = [];
  for (let i = 0; i < san.length; i += 2) lines.push(san.slice(i, i + 2).join(" "));
  const shown = [...list.children].map((li) => li.textContent);
  if (shown.length === lines.length && shown.every((line, i) => line === lines[i])) return;
  list.textContent = "";
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    list.appendChild(li);
  }
}

// Each clock on its player's side of the board: White's below when White plays up. The
// page is written to only where what it shows changes: a running clock is drawn again
// many times for each new text, and a write costs the browser a layout and a paint.
function drawClocks(clocks, clock, flipped) {
  setIf(clocks, "hidden", !clock);
  if (clocks.classList.contains("flipped") !== flipped) clocks.classList.toggle("flipped", flipped);
  if (!clock) return;
  for (const side of ["white", "black"]) {
    const shown = clocks.querySelector("#clock-" + side);
    const running = clock.running === side;
    if (shown.classList.contains("running") !== running) shown.classList.toggle("running", running);
    const name = side === "white" ? "White" : "Black";
    setIf(shown, "textContent", `${running ? "▶ " : ""}${name} ${clockText(clock[side + "_ms"])}`);
  }
}

function setIf(element, property, value) {
  if (element[property] !== value) element[property] = value;
}

// Below this, a clock shows tenths of a second; above, whole seconds (as on Lichess).
const TENTHS_BELOW_MS = 10000;

// A clock's time as players read it: 4:58, 0:09.7 in the last ten seconds, 1:30:00 from
// an hour up; each figure rounded down, so 0:00.0 only once the time is gone. The
// simulator's words say times the same way (simweb/clock_text.py; a test holds both to
// one table).
function clockText(ms) {
  const left = Math.max(0, ms);
  const two = (n) => String(n).padStart(2, "0");
  if (left < TENTHS_BELOW_MS) return `0:${two(Math.floor(left / 1000))}.${Math.floor(left / 100) % 10}`;
  const seconds = Math.floor(left / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours) return `${hours}:${two(minutes)}:${two(seconds % 60)}`;
  return `${minutes}:${two(seconds % 60)}`;
}

// How long until a clock running down from `ms` shows another text: the wait to the next
// tenth in the last ten seconds, to the next second before (a millisecond past it).
function untilClockChanges(ms) {
  const left = Math.max(0, ms);
  const step = left < TENTHS_BELOW_MS ? 100 : 1000;
  return (left % step) + 1;
}
