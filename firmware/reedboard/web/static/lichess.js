// The page's Lichess controls (docs/page.md): the API token, entered once (sent to the
// board, which checks it with Lichess and keeps it; the field is emptied at once and the
// token is never shown again), and the words for a game on Lichess. Uses page.js's send().
"use strict";

function lichessControls() {
  const after = document.getElementById("opponent-form");
  const form = document.createElement("form");
  form.id = "lichess-form";
  form.className = "row";
  form.autocomplete = "off";
  form.hidden = after.hidden;
  form.innerHTML =
    '<label for="lichess-token">Lichess token</label>' +
    '<input id="lichess-token" type="password" size="16" placeholder="lip_…" ' +
    'autocomplete="off" spellcheck="false">' +
    '<button type="submit">Keep</button>' +
    '<label for="lichess-word">On Lichess</label>' +
    '<select id="lichess-word"><option value="draw">offer or accept a draw</option>' +
    '<option value="takeback">propose or accept a takeback</option>' +
    '<option value="no">decline</option><option value="resign">resign</option>' +
    '<option value="abort">abort</option><option value="claim">claim the win</option></select>' +
    '<button id="lichess-say" type="button">Send</button>';
  after.after(form);
  // Shown with the opponent's form, once the device is paired.
  new MutationObserver(() => (form.hidden = after.hidden)).observe(after, {
    attributes: true,
    attributeFilter: ["hidden"],
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const field = document.getElementById("lichess-token");
    const token = field.value.trim();
    field.value = "";
    if (token) send({ op: "lichess_token", token: token });
  });
  document.getElementById("lichess-say").addEventListener("click", () =>
    send({ op: "lichess", command: document.getElementById("lichess-word").value }),
  );
}

lichessControls();
