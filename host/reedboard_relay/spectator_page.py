"""The spectator page: every board's game, live (server-sent events from `/events`), on
a desk or a phone. Each board shows its event, round and board number, both players with
their clocks, the position (the firmware's SVG, with alt text that says it in words; a
button turns it round), the result and its reason, and the moves in SAN, numbered."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>reedboard relay</title>
<style>
* { box-sizing: border-box; }
body { font-family: sans-serif; margin: 0.5em; }
h1 { font-size: 1.4em; margin: 0.2em 0 0.5em; }
#boards { display: grid; gap: 1em;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 300px), 1fr)); }
.board { min-width: 0; border: 1px solid #bbb; border-radius: 6px; padding: 0.5em; }
.board h2 { font-size: 1em; margin: 0 0 0.3em; }
.board img { display: block; width: 100%; height: auto; }
.player { display: flex; justify-content: space-between; gap: 0.5em; margin: 0.2em 0; }
.name { overflow-wrap: anywhere; }
.clock { font-variant-numeric: tabular-nums; font-weight: bold; white-space: nowrap; }
.result { font-weight: bold; margin: 0.3em 0; }
.moves { font-family: monospace; overflow-wrap: anywhere; max-height: 9em; overflow-y: auto;
  margin: 0.3em 0; }
.flip { min-height: 44px; padding: 0 1em; }
.off { opacity: 0.55; }
</style></head>
<body><h1>reedboard relay</h1><div id="boards"></div>
<script>
const shown = new Map();
const flipped = new Set();
function clock(ms) {
  if (ms === null || ms === undefined) return "";
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? h + ":" + two(m) + ":" + two(sec) : m + ":" + two(sec);
}
function lastMove(moves) {
  const words = moves.split(" ").filter((w) => w);
  if (!words.length) return "";
  const last = words[words.length - 1];
  const numbers = words.filter((w) => /^\\d+\\.$/.test(w) || /^\\d+\\.\\.\\.$/.test(w));
  const number = numbers.length ? parseInt(numbers[numbers.length - 1], 10) : 1;
  const white = /\\.$/.test(words[words.length - 2] || "") && !/\\.\\.\\.$/.test(words[words.length - 2]);
  return white ? number + ". " + last : number + "... " + last;
}
function title(b) {
  const parts = [];
  if (b.event) parts.push(b.event);
  if (b.round && b.round !== "?") parts.push("round " + b.round);
  parts.push("board " + (b.board_number || b.id));
  return parts.join(", ");
}
function card(b) {
  const el = document.createElement("article");
  el.className = "board";
  el.dataset.board = b.id;
  el.innerHTML = '<h2></h2><div class="player top"><span class="name"></span>' +
    '<span class="clock"></span></div><img><div class="player bottom">' +
    '<span class="name"></span><span class="clock"></span></div>' +
    '<button type="button" class="flip" aria-pressed="false">Flip board</button>' +
    '<p class="result" aria-live="polite"></p><p class="moves"></p>';
  el.querySelector(".flip").addEventListener("click", () => {
    if (flipped.has(b.id)) flipped.delete(b.id); else flipped.add(b.id);
    fill(el, el.summary);
  });
  return el;
}
function fill(el, b) {
  el.summary = b;
  const flip = flipped.has(b.id);
  el.classList.toggle("off", !b.online);
  el.dataset.ply = b.ply;
  el.dataset.flipped = flip ? "1" : "0";
  el.querySelector("h2").textContent = title(b);
  const sides = flip ? [["White", b.white, b.white_ms], ["Black", b.black, b.black_ms]]
                     : [["Black", b.black, b.black_ms], ["White", b.white, b.white_ms]];
  for (const [place, [colour, name, ms]] of [["top", sides[0]], ["bottom", sides[1]]]) {
    const row = el.querySelector(".player." + place);
    row.querySelector(".name").textContent = (colour === "White" ? "\\u2654 " : "\\u265a ") + name;
    row.querySelector(".clock").textContent = clock(ms);
    row.querySelector(".clock").setAttribute("aria-label", colour + "'s clock " + clock(ms));
  }
  el.querySelector(".flip").setAttribute("aria-pressed", flip ? "true" : "false");
  el.querySelector(".result").textContent = b.result
    ? b.result + (b.reason ? ": " + b.reason : "")
    : (b.online ? (b.ply ? "Playing" : "Not started") : "Board offline");
  el.querySelector(".moves").textContent = b.moves;
  const img = el.querySelector("img");
  const src = "/boards/" + encodeURIComponent(b.id) + ".svg?ply=" + b.ply + (flip ? "&flip=1" : "");
  if (img.getAttribute("src") !== src) img.setAttribute("src", src);
  img.alt = "Board " + (b.board_number || b.id) + ": " + b.white + " (White) against " +
    b.black + " (Black), " + (b.ply ? "after " + lastMove(b.moves) : "the starting position") +
    (b.result ? ", " + b.result : "") + ", " + (flip ? "Black" : "White") + " at the bottom";
}
function draw(list) {
  const root = document.getElementById("boards");
  for (let b of list) {
    let el = shown.get(b.id);
    if (b.moves === undefined) {  // what changed: its fields, and the moves' new text
      const before = el ? el.summary : {moves: ""};
      const moves = before.moves.slice(0, b.moves_at) + b.moves_new;
      b = Object.assign({}, before, b, {moves: moves});
    }
    if (!el) {
      el = card(b);
      root.appendChild(el);
      shown.set(b.id, el);
    }
    fill(el, b);
  }
}
new EventSource("/events").onmessage = (e) => draw(JSON.parse(e.data));
</script></body></html>
"""
