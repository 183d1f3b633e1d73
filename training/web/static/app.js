// heistbench's table in the browser: draws the server's reply (the table as the person's seat
// sees it, their legal moves, the log) and sends the moves. Plain JS, no libraries.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
let reply = null;  // the last reply of the server
let busy = false;  // a move is on its way: further clicks are dropped

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  let data;
  try { data = await r.json(); } catch (_) { data = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) {
    const e = new Error(data.error || r.statusText);
    e.status = r.status;
    throw e;
  }
  return data;
}

function message(text) {
  const m = $("#message");
  m.textContent = text || "";
  m.hidden = !text;
}

// -- the new-game form -------------------------------------------------------------------------
async function setup() {
  $("#setup").hidden = false;
  const cat = await api("GET", "/api/games");
  const games = Object.fromEntries(cat.games.map(g => [g.name, g]));
  const gameSel = $("#game");
  for (const g of cat.games) gameSel.append(new Option(g.title, g.name));

  function fillPlayers() {
    const g = games[gameSel.value];
    const sel = $("#players");
    sel.replaceChildren(...g.player_counts.map(n => new Option(String(n), String(n))));
    sel.value = String(g.default_players);
    fillSeats();
  }
  function fillSeats() {
    const n = Number($("#players").value), g = games[gameSel.value];
    const seat = $("#seat");
    const old = Math.min(Number(seat.value) || 0, n - 1);
    seat.replaceChildren(...Array.from({ length: n }, (_, i) => new Option(`player_${i}`, String(i))));
    seat.value = String(old);
    fillOptions(n, g);
    const box = $("#bots");
    box.replaceChildren(el("legend", "", "Bots in the other seats"));
    box.hidden = n === 1;
    for (let s = 0; s < n; s++) {
      if (s === old) continue;
      const label = el("label", "", `player_${s}`);
      const pick = el("select", "bot");
      pick.dataset.seat = String(s);
      for (const b of g.bots) pick.append(new Option(`${b.spec}: ${b.label}`, b.spec));
      pick.append(new Option("a checkpoint path…", "checkpoint"));
      const path = el("input", "path");
      path.placeholder = cat.checkpoint;
      path.hidden = true;
      pick.onchange = () => { path.hidden = pick.value !== "checkpoint"; };
      label.append(pick, path);
      box.append(label);
    }
  }
  function fillOptions(n, g) {
    const box = $("#options");
    box.replaceChildren(el("legend", "", n === 1 ? "Solo game" : "Rules"));
    const shown = g.options.filter(o => o.players.includes(n));
    box.hidden = !shown.length;
    for (const o of shown) {
      const label = el("label", "", o.name.replaceAll("_", " ") + " ");
      label.title = o.doc;
      const pick = el("select", "option");
      pick.dataset.option = o.name;
      for (const c of o.choices) {
        const text = c === null ? "auto" : String(c).replaceAll("_", " ");
        pick.append(new Option(text, JSON.stringify(c)));
      }
      pick.value = JSON.stringify(o.default);
      label.append(pick);
      box.append(label);
    }
  }
  gameSel.onchange = fillPlayers;
  $("#players").onchange = fillSeats;
  $("#seat").onchange = fillSeats;
  fillPlayers();

  $("#new-game").onsubmit = async ev => {
    ev.preventDefault();
    const bots = [...document.querySelectorAll("#bots label")].map(l => {
      const pick = $("select", l);
      return pick.value === "checkpoint" ? $("input", l).value.trim() : pick.value;
    });
    const options = Object.fromEntries([...document.querySelectorAll("#options select")]
      .map(p => [p.dataset.option, JSON.parse(p.value)]));
    const body = { game: gameSel.value, players: Number($("#players").value),
                   seat: Number($("#seat").value), bots, options };
    if ($("#seed").value !== "") body.seed = Number($("#seed").value);
    try {
      const r = await api("POST", "/api/sessions", body);
      window.location.assign(`/play/${r.session}`);
    } catch (e) {
      message(e.message);
    }
  };
}

// -- drawing the table -------------------------------------------------------------------------
function drawItem(it) {
  const box = el("div", `item ${it.kind}`);
  box.dataset.key = it.key;
  if (it.kind === "rows") {
    box.append(el("span", "label", it.label));
    const list = el("div", "rowlist");
    for (const row of it.rows) {
      const r = el("div", "row");
      r.dataset.index = String(row.index);
      r.append(el("div", "row-title", row.title));
      const items = el("div", "items");
      for (const sub of row.items) items.append(drawItem(sub));
      r.append(items);
      list.append(r);
    }
    box.append(list);
    return box;
  }
  if (it.label && it.kind !== "flag") box.append(el("span", "label", it.label));
  if (it.kind === "cards") {
    const chips = el("div", "chips");
    for (const e of it.entries) {
      const c = el("span", "chip", e.name + " ");
      c.dataset.index = String(e.index);
      if (e.count > 1) c.append(el("b", "", `\u00d7${e.count}`));
      chips.append(c);
    }
    if (!it.entries.length) chips.append(el("span", "label", "none"));
    box.append(chips);
  } else if (it.kind === "dice") {
    const d = el("span", "value");
    for (const f of it.faces) d.append(el("span", "die", DIE[f]));
    d.title = it.text;
    box.append(d);
  } else if (it.kind === "track") {
    const t = el("span", "track");
    for (let i = 1; i <= it.max; i++) t.append(el("span", i <= it.value ? "on" : ""));
    box.append(t, el("span", "value", it.text));
  } else {
    box.append(el("span", "value", it.text));
  }
  return box;
}

function fillItems(container, items) {
  container.replaceChildren(...items.map(drawItem));
}

function seatPanel(s) {
  const p = el("section", "panel seat-panel");
  p.dataset.panel = "seat";
  p.dataset.relative = String(s.relative);
  p.dataset.seat = String(s.seat);
  p.append(el("h2", "", s.name));
  const items = el("div", "items");
  fillItems(items, s.items);
  p.append(items);
  return p;
}

function findTarget(target, index) {
  if (target === "@seat") return $(`.seat-panel[data-relative="${index}"] h2`);
  const [panel, key] = target.split("/");
  const root = panel === "seat" ? $('.seat-panel[data-relative="0"]') : $(`#${panel}`);
  if (!root) return null;
  const item = $(`:scope > .items > [data-key="${key}"]`, root);
  if (!item) return null;
  return $(`:scope > .chips > .chip[data-index="${index}"], ` +
           `:scope > .rowlist > .row[data-index="${index}"]`, item);
}

function moveButton(m) {
  const b = el("button", "move", m.name);
  b.type = "button";
  b.dataset.action = String(m.action);
  b.onclick = ev => { ev.stopPropagation(); closeMenu(); play(m.action); };
  return b;
}

function openMenu(anchor, moves) {
  const menu = $("#menu");
  menu.replaceChildren(...moves.map(moveButton));
  const r = anchor.getBoundingClientRect();
  menu.style.left = `${window.scrollX + r.left}px`;
  menu.style.top = `${window.scrollY + r.bottom + 4}px`;
  menu.hidden = false;
}

function closeMenu() { $("#menu").hidden = true; }

function drawMoves(legal) {
  const byElement = new Map();
  for (const m of legal) {
    if (!m.target) continue;
    const t = findTarget(m.target, m.index);
    if (!t) continue;
    if (!byElement.has(t)) byElement.set(t, []);
    byElement.get(t).push(m);
  }
  for (const [t, moves] of byElement) {
    t.classList.add("legal");
    t.dataset.actions = moves.map(m => m.action).join(",");
    t.title = moves.map(m => m.name).join(" / ");
    t.onclick = ev => {
      ev.stopPropagation();
      if (moves.length === 1) play(moves[0].action); else openMenu(t, moves);
    };
  }
  const list = $("#legal");
  list.replaceChildren();
  let group = null;
  for (const m of legal) {
    if (m.group !== group) { group = m.group; list.append(el("div", "group", group)); }
    list.append(moveButton(m));
  }
  if (!legal.length) list.append(el("span", "label", reply.over ? "none: the game is over" : "none now"));
}

function drawLog(log) {
  const ol = $("#log");
  ol.replaceChildren(...log.map(e => {
    const li = el("li", e.kind, e.text);
    if (e.kind === "move" && e.text.startsWith("you")) li.classList.add("you");
    return li;
  }));
  ol.scrollTop = ol.scrollHeight;
}

function drawResult(res) {
  const box = $("#result");
  box.hidden = !res;
  if (!res) return;
  const t = $("#scores");
  t.replaceChildren();
  const head = el("tr");
  head.append(el("th", "", "player"), el("th", "", "score"));
  t.append(head);
  res.names.forEach((name, s) => {
    const won = res.winners.includes(s);
    const solo = res.names.length === 1;  // the solo game: won by meeting its objective
    const note = won ? " \u2605 winner" : solo ? " (objective not met)" : "";
    const tr = el("tr", won ? "winner" : "");
    tr.append(el("td", "", name + note),
              el("td", "", String(res.scores[s])));
    t.append(tr);
  });
}

function render(r) {
  reply = r;
  closeMenu();
  document.title = `${r.title}: heistbench`;
  $("#title").textContent = `${r.title}: you are player_${r.seat}`;
  $("#status").textContent = r.over ? "game over" : r.to_move ? "your move" : "waiting";
  $("#opponents").replaceChildren(...r.table.seats.filter(s => s.relative !== 0).map(seatPanel));
  $("#me").replaceChildren(...r.table.seats.filter(s => s.relative === 0).map(seatPanel));
  fillItems($(".items", $("#table")), r.table.table);
  fillItems($(".items", $("#mine")), r.table.mine);
  $("#mine").hidden = !r.table.mine.length;
  drawMoves(r.legal);
  drawLog(r.log);
  drawResult(r.result);
  document.body.dataset.turn = String(r.turn);
  document.body.dataset.over = String(r.over);
}

async function play(action) {
  if (busy || !reply) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    render(await api("POST", `/api/sessions/${reply.session}/moves`, { action, turn: reply.turn }));
    message("");
  } catch (e) {
    message(e.message);
    if (e.status === 409 || e.status === 400) {
      try { render(await api("GET", `/api/sessions/${reply.session}`)); } catch (_) { /* kept */ }
    }
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

async function start() {
  document.addEventListener("click", ev => { if (!$("#menu").contains(ev.target)) closeMenu(); });
  const m = window.location.pathname.match(/^\/play\/([\w-]+)$/);
  if (!m) return setup();
  $("#play").hidden = false;
  try {
    render(await api("GET", `/api/sessions/${m[1]}`));
  } catch (e) {
    message(e.message);
    $("#play").hidden = true;
    setup();
  }
}

start();
