// The browser side of the example: a page that logs in through the backend (POST /login), keeps the
// session in localStorage, and talks to Boardhost directly with the session's access token. Its
// fetch wrapper does what @boardhost/client's session client does in Node: on 401 TOKEN_EXPIRED it
// trades the refresh token (POST /sessions/refresh), once for all requests waiting, stores the new
// pair and sends the request again.

/** The HTML page; `boardhostUrl` is Boardhost as the browser reaches it. */
export function page({ boardhostUrl }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Example app on Boardhost</title>
<link rel="icon" href="data:,">
<style>
  body { font: 15px system-ui, sans-serif; margin: 2rem; max-width: 44rem; }
  section { margin-bottom: 1.5rem; } button { margin: 0 .25rem .25rem 0; }
  #board { font: 14px monospace; white-space: pre; background: #f4f4f4; padding: .5rem; }
  #log { color: #a00; }
</style>
</head>
<body>
<h1>Example app: kalah on Boardhost</h1>
<section id="signin">
  <label>Your user name <input id="user" autocomplete="username"></label>
  <button id="login">Log in</button>
</section>
<section id="home" hidden>
  <p>Signed in as <strong id="who"></strong> <button id="logout">Log out</button></p>
  <label>Challenge <input id="opponent" placeholder="another user"></label>
  <button id="challenge">Challenge to kalah</button>
  <h2>Challenges</h2><ul id="challenges"></ul>
  <h2>Games</h2><ul id="games"></ul>
  <div id="game" hidden><p id="status"></p><div id="board"></div><div id="moves"></div>
    <button id="resign">Resign</button></div>
</section>
<p id="log" role="status"></p>
<script type="module">
const BOARDHOST = ${JSON.stringify(boardhostUrl)};
const $ = (id) => document.getElementById(id);
let state = JSON.parse(localStorage.getItem('example-session') ?? 'null');
let refreshing = null;
let current = null; // the game shown

const save = (next) => {
  state = next;
  if (next) localStorage.setItem('example-session', JSON.stringify(next));
  else localStorage.removeItem('example-session');
};

/** Trades the refresh token for a new pair: once, however many requests wait for it. */
function refresh() {
  refreshing ??= (async () => {
    const res = await fetch(BOARDHOST + '/api/v1/sessions/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: state.refreshToken }),
    });
    const body = await res.json();
    if (!res.ok) { save(null); show(); throw new Error(body.code + ': log in again'); }
    save({ ...state, accessToken: body.accessToken, refreshToken: body.refreshToken });
  })().finally(() => (refreshing = null));
  return refreshing;
}

/** A Boardhost call with the session's access token, refreshed when it expired. */
async function bh(method, path, body, headers = {}) {
  for (let attempt = 0; ; attempt++) {
    if (refreshing) await refreshing;
    const used = state.accessToken;
    const res = await fetch(BOARDHOST + '/api/v1' + path, {
      method,
      headers: { authorization: 'Bearer ' + used, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const data = await res.json();
    if (res.status === 401 && attempt === 0 && (data.code === 'TOKEN_EXPIRED' || used !== state.accessToken)) {
      if (used === state.accessToken) await refresh();
      continue;
    }
    if (!res.ok) throw new Error(data.code + ': ' + data.detail);
    return data;
  }
}

const report = (promise) => promise.then(() => ($('log').textContent = ''), (e) => ($('log').textContent = e.message));

function show() {
  $('signin').hidden = !!state;
  $('home').hidden = !state;
  if (state) $('who').textContent = state.account.displayName ?? state.account.username;
}

function button(label, onclick) {
  const b = document.createElement('button');
  b.textContent = label;
  b.onclick = () => report(onclick());
  return b;
}

async function refreshLists() {
  const me = state.account.id;
  const challenges = (await bh('GET', '/challenges')).items;
  $('challenges').replaceChildren(...challenges.map((c) => {
    const li = document.createElement('li');
    li.dataset.challenge = c.id;
    const mine = c.challenger === me;
    li.textContent = (mine ? 'to ' + c.destination : 'from ' + c.challenger) + ': ' + c.kind + ' ';
    if (!mine) li.append(button('Accept', async () => { await bh('POST', '/challenges/' + c.id + '/accept'); await refreshLists(); }));
    return li;
  }));
  const games = (await bh('GET', '/account/games?filter=ongoing')).items;
  $('games').replaceChildren(...games.map((g) => {
    const li = document.createElement('li');
    li.dataset.game = g.id;
    li.append(button(g.kind + ' ' + g.id, () => open(g.id)));
    return li;
  }));
  if (current) await open(current.id);
}

async function open(id) {
  const game = await bh('GET', '/games/' + id);
  current = game;
  const myTurn = game.status === 'ongoing' && game.seats[game.toMove]?.account === state.account.id;
  $('game').hidden = false;
  $('status').textContent = game.status === 'ongoing'
    ? (myTurn ? 'Your move' : 'Waiting for ' + game.toMoveName)
    : 'Over: ' + (game.result?.reason ?? game.status);
  $('board').textContent = game.position;
  $('moves').replaceChildren(...(myTurn ? game.legalMoves : []).map((m) =>
    button(m, async () => {
      await bh('POST', '/games/' + id + '/moves', { move: m }, { 'if-match': '"' + game.version + '"' });
      await open(id);
    })));
  $('resign').hidden = game.status !== 'ongoing';
}

$('login').onclick = () => report((async () => {
  const res = await fetch('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: $('user').value }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error);
  save(body);
  show();
  await refreshLists();
})());
$('logout').onclick = () => report((async () => {
  await bh('DELETE', '/session').catch(() => undefined); // ends the session on Boardhost too
  save(null);
  show();
})());
$('challenge').onclick = () => report((async () => {
  const res = await fetch('/players/' + encodeURIComponent($('opponent').value));
  if (!res.ok) throw new Error('no such player');
  const opponent = await res.json();
  await bh('POST', '/challenges', { to: opponent.id, kind: 'kalah' });
  await refreshLists();
})());
$('resign').onclick = () => report((async () => {
  await bh('POST', '/games/' + current.id + '/resign');
  await open(current.id);
})());

show();
if (state) report(refreshLists());
setInterval(() => { if (state) report(refreshLists()); }, 2000);
</script>
</body>
</html>
`;
}
