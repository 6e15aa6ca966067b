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

// Pieces, lights and roles on the squares already built.
function drawSquares(board, s) {
  for (const sq of board.querySelectorAll(".sq")) {
    const name = sq.dataset.square;
    const index = FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
    const colour = s.leds[index];
    const led = sq.querySelector(".led");
    led.classList.toggle("on", colour !== "#000000");
    led.style.setProperty("--led", colour);
    const role = s.roles[name];
    if (role) sq.dataset.role = role;
    else delete sq.dataset.role;
    const letter = s.pieces[name];
    const piece = sq.querySelector(".piece");
    piece.textContent = letter ? GLYPHS[letter.toLowerCase()] : "";
    piece.className = "piece" + (letter ? (letter === letter.toUpperCase() ? " w" : " b") : "");
    const said = letter
      ? `${letter === letter.toUpperCase() ? "white" : "black"} ${PIECE_NAMES[letter.toLowerCase()]}`
      : "empty";
    sq.setAttribute("aria-label", `${name} ${said}${role ? ", " + role : ""}`);
  }
}

// The moves in SAN, one numbered line a move: "e4 e5" under 1.
function drawMoves(list, san) {
  list.textContent = "";
  for (let i = 0; i < san.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = san.slice(i, i + 2).join(" ");
    list.appendChild(li);
  }
}

// Each clock on its player's side of the board: White's below when White plays up.
function drawClocks(clocks, clock, flipped) {
  clocks.hidden = !clock;
  clocks.classList.toggle("flipped", flipped);
  if (!clock) return;
  for (const side of ["white", "black"]) {
    const shown = clocks.querySelector("#clock-" + side);
    const running = clock.running === side;
    shown.classList.toggle("running", running);
    const name = side === "white" ? "White" : "Black";
    shown.textContent = `${running ? "▶ " : ""}${name} ${clockText(clock[side + "_ms"])}`;
  }
}

// A clock's time as players read it: 4:58.2, or 1:30:00 from an hour up.
function clockText(ms) {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const hours = Math.floor(tenths / 36000);
  const minutes = Math.floor((tenths % 36000) / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  const two = (n) => String(n).padStart(2, "0");
  if (hours) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}.${tenths % 10}`;
}
