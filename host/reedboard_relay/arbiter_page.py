"""The arbiter's console page: plain HTML and a script, usable with the keyboard (each
action a form sent with Enter), served by arbiter_console under the arbiter's token. The
script calls the console's API (`/arbiter/api/...`); the browser sends the token's cookie
(console_guard), which no script can read. The page's inline script and style are the
only ones its Content-Security-Policy allows (by their hashes): keep handlers in them."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>reedboard relay: arbiter</title>
<style>
body { font-family: sans-serif; margin: 1em; max-width: 60em; }
fieldset { margin: 0.8em 0; }
label { display: inline-block; margin: 0.2em 0.6em 0.2em 0; }
#moves { font-family: monospace; }
#status { font-weight: bold; min-height: 1.4em; }
</style></head>
<body>
<h1>Arbiter</h1>
<p id="status" role="status" aria-live="polite"></p>
<ul id="lichess" aria-live="polite"></ul>
<form id="round"><fieldset><legend>The round</legend>
<label><input type="checkbox" id="tournament"> Tournament mode on every board
(no assistance on the LEDs, the voice silent)</label>
<button type="submit">Apply</button></fieldset></form>
<form id="delay"><fieldset><legend>Broadcast delay (the page, the PGN and Lichess show
each game as it stood this long ago; this console stays live)</legend>
<label>Minutes <input id="delay-minutes" type="number" min="0" step="any" value="0"></label>
<button type="submit">Set the delay</button></fieldset></form>
<label>Board <select id="board"></select></label>
<p id="game"></p>
<p>Moves (ply numbers): <span id="moves"></span></p>
<ul id="corrections"></ul>
<form id="result"><fieldset><legend>Result</legend>
<label>Result <select id="result-value">
<option>1-0</option><option>0-1</option><option>1/2-1/2</option>
<option value="*">* (undo: the board's own)</option></select></label>
<label>Reason <input id="result-reason" size="30"></label>
<button type="submit">Set the result</button></fieldset></form>
<form id="players"><fieldset><legend>Players</legend>
<label>White <input id="white"></label><label>Elo <input id="white_elo" size="5"></label>
<label>Title <input id="white_title" size="4"></label><br>
<label>Black <input id="black"></label><label>Elo <input id="black_elo" size="5"></label>
<label>Title <input id="black_title" size="4"></label>
<button type="submit">Fix the players</button></fieldset></form>
<form id="correct"><fieldset><legend>Illegal move found later (FIDE 7.5.1)</legend>
<label>Ply of the illegal move <input id="ply" type="number" min="1"></label>
<label>Note <input id="note" size="30"></label>
<button type="submit">Reinstate the position before it</button></fieldset></form>
<script>
const FIELDS = ["white", "black", "white_elo", "black_elo", "white_title", "black_title"];
let boards = [];
let shownBoard = null;
let shownCorrections = null;
let roundOn = false;  // the round's tournament mode
function say(text) { document.getElementById("status").textContent = text; }
async function call(path, body) {
  const answer = await fetch("/arbiter/api/" + path, {
    method: body ? "POST" : "GET",
    headers: {"Content-Type": "application/json"},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await answer.json().catch(() => ({error: "answer " + answer.status}));
  if (!answer.ok) throw new Error(data.error || ("answer " + answer.status));
  return data;
}
function correction(c) {
  const item = document.createElement("li");
  item.textContent = "ply " + c.ply + " (" + c.cancelled.join(" ") + ") cancelled: " +
    c.state + (c.answer ? ": " + c.answer : "");
  if (c.state === "sent" || c.state === "refused") {  // not carried out on the board
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Withdraw";
    button.setAttribute("aria-label", "Withdraw the correction at ply " + c.ply);
    button.addEventListener("click", async () => {
      try {
        await call("withdraw", {board: board(), number: c.number});
        say("Correction at ply " + c.ply + " withdrawn on " + board());
        await refresh();
      } catch (error) { say("Refused: " + error.message); }
    });
    item.append(" ", button);
  }
  return item;
}
function chosen() { return boards.find((b) => b.id === document.getElementById("board").value); }
function show() {
  const b = chosen();
  if (!b) return;
  document.getElementById("game").textContent =
    (b.twins ? "TWO BOARDS publish as " + b.id + ": give each its own id; " : "") +
    (b.online ? "online" : "offline") + ", game " + b.game + ", result " + (b.result || "*") +
    (b.arbiter_result ? " (set by the arbiter; the board says " + (b.board_result || "*") + ")" : "") +
    (b.tournament === null ? "" : ", tournament mode " + (b.tournament ? "on" : "off")) +
    (b.left_tournament ? ", LEFT tournament mode mid-round (told again)" : "") +
    (b.tournament_confirmed ? " (the round's)" :
      roundOn ? ", the round's tournament mode not confirmed yet" : "");
  document.getElementById("moves").textContent =
    b.moves.map((m, i) => (i + 1) + ":" + m).join(" ");
  const listed = b.id + " " + JSON.stringify(b.corrections);
  if (shownCorrections !== listed) {  // redrawn only on a change: a focused button stays
    shownCorrections = listed;
    document.getElementById("corrections").replaceChildren(...b.corrections.map(correction));
  }
  // Another board or game: a new game's players may read as the last one's (the same
  // pairing) while a field still holds an edit of that game, never sent or sent and not
  // yet seen: the game is in the key, so that edit never carries over.
  const players = [b.id, b.games_before, b.game, JSON.stringify(b.players)].join(" ");
  if (shownBoard !== players) {  // the fields the arbiter edits, filled as they change
    shownBoard = players;
    for (const f of FIELDS) document.getElementById(f).value = b.players[f] || "";
  }
  document.body.dataset.board = b.id;
  document.body.dataset.ply = b.moves.length;
  document.body.dataset.result = b.result || "*";
}
async function refresh() {
  try {
    const data = await call("boards");
    boards = data.boards;
    roundOn = data.tournament;
    const select = document.getElementById("board");
    for (const b of boards) {
      if (![...select.options].some((o) => o.value === b.id)) select.add(new Option(b.id, b.id));
    }
    document.getElementById("lichess").replaceChildren(...boards.filter((b) => b.lichess)
      .map((b) => Object.assign(document.createElement("li"),
        {textContent: "Board " + b.id + ": its game " + b.lichess})));
    if (document.activeElement !== document.getElementById("tournament"))
      document.getElementById("tournament").checked = data.tournament;
    show();
  } catch (error) { say("Cannot read the boards: " + error.message); }
}
function act(form, path, body, done) {
  document.getElementById(form).addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await call(path, body()); say(done()); await refresh(); }
    catch (error) { say("Refused: " + error.message); }
  });
}
const board = () => document.getElementById("board").value;
act("result", "result", () => ({board: board(),
  result: document.getElementById("result-value").value,
  reason: document.getElementById("result-reason").value}), () => "Result set on " + board());
act("players", "players", () => Object.assign({board: board()},
  Object.fromEntries(FIELDS.map((f) => [f, document.getElementById(f).value]))),
  () => "Players fixed on " + board());
act("correct", "correct", () => ({board: board(),
  ply: parseInt(document.getElementById("ply").value, 10),
  note: document.getElementById("note").value}),
  () => "Position reinstated on " + board() + "; the board guides the players back");
act("round", "tournament", () => ({on: document.getElementById("tournament").checked}),
  () => "Tournament mode told to every board");
act("delay", "delay", () => ({minutes: parseFloat(document.getElementById("delay-minutes").value)}),
  () => "Broadcast delay set to " + document.getElementById("delay-minutes").value + " minutes");
call("delay").then((d) => { document.getElementById("delay-minutes").value = d.minutes; })
  .catch((error) => say("Cannot read the delay: " + error.message));
document.getElementById("board").addEventListener("change", show);
refresh();
setInterval(refresh, 1000);
</script><form id="add-time"><fieldset><legend>Add time to a clock
(FIDE 7.5.5: two minutes to the opponent of an illegal move; 6.10/6.11)</legend>
<label>To <select id="time-color"><option>white</option><option>black</option></select></label>
<label>Minutes <input id="time-minutes" type="number" min="0.5" max="60" step="0.5" value="2">
</label><label>Note <input id="time-note" size="20" value="FIDE 7.5.5"></label>
<button type="submit">Add the time</button></fieldset></form>
<ul id="added"></ul>
<script>
act("add-time", "time", () => ({board: board(),
  color: document.getElementById("time-color").value,
  minutes: parseFloat(document.getElementById("time-minutes").value),
  note: document.getElementById("time-note").value}),
  () => "Time added on " + board() + "; the board's clock follows");
async function showAdded() {
  if (!board()) return;
  try {
    const data = await call("time?board=" + encodeURIComponent(board()));
    document.getElementById("added").replaceChildren(...data.added.map((a) => {
      const item = document.createElement("li");
      item.textContent = "ply " + a.ply + ": " + a.comment + ": " + a.state +
        (a.answer ? ": " + a.answer : "");
      return item;
    }));
  } catch (error) { say("Cannot read the time added: " + error.message); }
}
setInterval(showAdded, 1000);
</script>
<form id="evidence"><fieldset><legend>Evidence (what the board's sensors recorded and
what was decided, to settle a claim; nothing of it was enforced on the board)</legend>
<label>At ply <input id="evidence-ply" type="number" min="0" placeholder="every ply"></label>
<button type="submit">Show</button> <a id="evidence-csv" href="#">Export as CSV</a>
</fieldset></form>
<p id="evidence-limits"></p>
<ol id="evidence-rows"></ol>
<script>
async function showEvidence(event) {
  if (event) event.preventDefault();
  if (!board()) return;
  const ply = document.getElementById("evidence-ply").value;
  try {
    const data = await call("evidence?board=" + encodeURIComponent(board()) +
      (ply ? "&ply=" + encodeURIComponent(ply) : ""));
    document.getElementById("evidence-limits").textContent = data.limits;
    document.getElementById("evidence-rows").replaceChildren(...data.rows.map((r) => {
      const item = document.createElement("li");
      item.textContent = new Date(r.at * 1000).toISOString().slice(11, 23) + " ply " + r.ply +
        ": " + r.text + (r.stood_ms === null ? "" : " (stood " + r.stood_ms / 1000 + " s)");
      return item;
    }));
  } catch (error) { say("Cannot read the evidence: " + error.message); }
}
document.getElementById("evidence").addEventListener("submit", showEvidence);
document.getElementById("board").addEventListener("change", () => {
  document.getElementById("evidence-csv").href =
    "/arbiter/evidence.csv?board=" + encodeURIComponent(board());
  showEvidence();
});
</script>
</body></html>
"""
