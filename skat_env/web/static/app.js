// Skat page: draws the snapshots the server sends and sends the moves it offers.
// No rules here: legal moves, visibility, trick winners and scores all come from the server.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// --- suits, ranks and card faces --------------------------------------------------------
const ICONS = {
  french: {
    C: '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="57" r="19"/><circle cx="73" cy="57" r="19"/>' +
      '<circle cx="50" cy="50" r="12"/><path d="M45 55 L55 55 L62 95 L38 95Z"/>',
    S: '<path d="M50 4 C36 24 8 38 8 60 C8 74 19 82 31 82 C39 82 45 78 47 74 C46 84 42 90 34 95 ' +
      'L66 95 C58 90 54 84 53 74 C55 78 61 82 69 82 C81 82 92 74 92 60 C92 38 64 24 50 4Z"/>',
    H: '<path d="M50 90 C20 66 5 49 5 30 C5 15 17 6 30 6 C40 6 47 12 50 20 C53 12 60 6 70 6 ' +
      'C83 6 95 15 95 30 C95 49 80 66 50 90Z"/>',
    D: '<path d="M50 3 L86 50 L50 97 L14 50Z"/>',
  },
  german: {
    C: '<rect x="46" y="4" width="8" height="18" rx="3"/><path d="M18 44 C18 18 82 18 82 44 Z"/>' +
      '<path d="M24 44 L76 44 C76 72 64 94 50 96 C36 94 24 72 24 44Z" opacity=".72"/>' +
      '<path d="M18 44 L82 44" stroke="#fffdf7" stroke-width="3"/>',
    S: '<path d="M50 97 L50 84 C18 80 6 52 12 14 C28 26 44 14 50 4 C56 14 72 26 88 14 ' +
      'C94 52 82 80 50 84Z"/><path d="M50 82 L50 22 M50 44 L34 32 M50 58 L68 44 M50 70 L36 60" ' +
      'stroke="#fffdf7" stroke-width="3" fill="none"/>',
    H: '<path d="M50 90 C20 66 5 49 5 30 C5 15 17 6 30 6 C40 6 47 12 50 20 C53 12 60 6 70 6 ' +
      'C83 6 95 15 95 30 C95 49 80 66 50 90Z"/>',
    D: '<rect x="44" y="4" width="12" height="12" rx="4"/><circle cx="50" cy="52" r="38"/>' +
      '<path d="M14 50 L86 50" stroke="#fffdf7" stroke-width="5"/>' +
      '<circle cx="50" cy="72" r="7" fill="#fffdf7"/><path d="M50 72 L50 88" stroke="#fffdf7" stroke-width="4"/>',
  },
};
const RANKS = {
  french: { A: "A", K: "K", Q: "Q", J: "J", T: "10", 9: "9", 8: "8", 7: "7" },
  german: { A: "A", K: "K", Q: "O", J: "U", T: "10", 9: "9", 8: "8", 7: "7" },
};
const SUIT_WORDS = {
  french: { clubs: "Clubs", spades: "Spades", hearts: "Hearts", diamonds: "Diamonds" },
  german: { clubs: "Eichel", spades: "Grün", hearts: "Herz", diamonds: "Schellen" },
};
const SUIT_OF_WORD = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" };
const RANK_WORDS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven" };

let deck = localStorage.getItem("skat-deck") || "french";
let pace = params.has("delay") ? Number(params.get("delay")) : Number(localStorage.getItem("skat-pace") || 800);

function svg(suit, cls) {
  return `<svg class="${cls}" viewBox="0 0 100 100" fill="currentColor" aria-hidden="true">${ICONS[deck][suit]}</svg>`;
}

function cardEl(name, small = false) {
  const el = document.createElement("div");
  const suit = name[0];
  el.className = `card s-${suit}${small ? " small" : ""}`;
  el.dataset.card = name;
  const suitWord = Object.keys(SUIT_OF_WORD).find((w) => SUIT_OF_WORD[w] === suit);
  el.title = `${SUIT_WORDS[deck][suitWord]} ${RANKS[deck][name[1]]} (${name})`;
  el.setAttribute("aria-label", `${RANK_WORDS[name[1]]} of ${suitWord}`);
  el.innerHTML = `<div class="corner"><span>${RANKS[deck][name[1]]}</span>${svg(suit, "")}</div>${svg(suit, "pip")}`;
  return el;
}

function backEl(small = false) {
  const el = document.createElement("div");
  el.className = `card back${small ? " small" : ""}`;
  return el;
}

function handEl(cards, small = false) {
  const el = document.createElement("div");
  el.className = "hand";
  for (const c of cards) el.appendChild(cardEl(c, small));
  return el;
}

function contractText(name) {
  if (!name) return "";
  const words = name.split(" ").map((w) => SUIT_WORDS[deck][w] || w);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return words.join(" ");
}

function moveText(text) {
  // "declares clubs hand" -> "declares Eichel hand" with German suits
  return text.replace(/\b(clubs|spades|hearts|diamonds)\b/g, (w) => SUIT_WORDS[deck][w]);
}

const escapeHtml = (t) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function richText(text) {
  // Escaped text with card names ("CJ") drawn as a suit icon and the deck's rank.
  return escapeHtml(moveText(text)).replace(/\b([CSHD])([AKQJT987])\b/g, (_, suit, rank) =>
    `<span class="cardname s-${suit}">${svg(suit, `s-${suit}`)}${RANKS[deck][rank]}</span>`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(url, opts);
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) {
    const err = new Error(data.error || r.statusText);
    err.status = r.status;
    throw err;
  }
  return data;
}

function toast(msg) {
  const t = $("toast");
  t.textContent = msg;
  t.classList.remove("hidden");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.add("hidden"), 5000);
}

// --- state ----------------------------------------------------------------------------
let mode = "play";
const play = { id: null, seat: 0, players: [0, 1, 2], state: null, busy: false, selected: new Set() };
const watch = { rid: null, step: 0, steps: 0, data: null, hideEnd: false };

// --- drawing the table ------------------------------------------------------------------
function seatName(state, seat) {
  return state.seats[seat].name;
}

function renderSeat(box, state, seat, where, opts) {
  const info = state.seats[seat];
  box.innerHTML = "";
  const label = el("div", "seat-label");
  label.appendChild(el("span", "seat-name", info.name));
  label.appendChild(el("span", "badge", info.position));
  if (seat === state.dealer) label.appendChild(el("span", "badge dealer", "dealer"));
  if (seat === state.declarer) label.appendChild(el("span", "badge declarer", "declarer"));
  if (state.phase === "bidding" || state.declarer < 0) {
    if (info.passed) label.appendChild(el("span", "badge passed", info.bid ? `${info.bid} · passed` : "passed"));
    else if (info.bid) label.appendChild(el("span", "badge", `said ${info.bid}`));
  } else if (state.contract) {
    label.appendChild(el("span", "badge", `${info.tricks} trick${info.tricks === 1 ? "" : "s"} · ${info.points} pts`));
  }
  if (seat === state.to_act) label.appendChild(el("span", "badge turn", where === "bottom" && opts.mine ? "your turn" : "to act"));
  if (where === "bottom") {
    box.appendChild(label);
    box.appendChild(bottomHand(state, info, opts));
    return;
  }
  box.appendChild(label);
  if (info.hand) {
    box.appendChild(handEl(info.hand, true));
  } else {
    const backs = el("div", "hand backs");
    for (let i = 0; i < info.cards_left; i++) backs.appendChild(backEl(true));
    box.appendChild(backs);
  }
}

function bottomHand(state, info, opts) {
  const legal = opts.mine && state.legal ? state.legal : null;
  const box = el("div", "hand");
  if (!info.hand) {
    for (let i = 0; i < info.cards_left; i++) box.appendChild(backEl());
    return box;
  }
  const skat = new Set(state.phase === "discard" ? state.skat : []);
  for (const c of info.hand) {
    const card = cardEl(c);
    if (skat.has(c)) card.classList.add("from-skat");
    if (legal && (legal.phase === "play" || legal.phase === "discard")) {
      if (legal.moves.includes(c)) {
        card.classList.add("playable");
        if (play.selected.has(c)) card.classList.add("selected");
        card.tabIndex = 0;
        card.setAttribute("role", "button");
        card.addEventListener("click", () => onCardClick(c));
        card.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && onCardClick(c));
      } else {
        card.classList.add("unplayable");
      }
    }
    box.appendChild(card);
  }
  return box;
}

function renderCentre(state, bottom, overlay) {
  const trick = $("trick");
  const skat = $("skat");
  const note = $("centre-note");
  trick.innerHTML = "";
  skat.innerHTML = "";
  note.textContent = "";
  const where = (seat) => (seat === bottom ? "bottom" : seat === (bottom + 1) % 3 ? "left" : "right");
  const cards = overlay ? overlay.cards : state.trick;
  for (const { seat, card } of cards) {
    const slot = el("div", `slot slot-${where(seat)}`);
    if (overlay && overlay.winner === seat) slot.classList.add("winner");
    slot.appendChild(cardEl(card));
    slot.appendChild(el("span", "who", seatName(state, seat)));
    trick.appendChild(slot);
  }
  if (overlay) {
    note.textContent = `${seatName(state, overlay.winner)} takes the trick`;
  } else if (state.phase === "play") {
    const n = state.tricks_done.length + 1;
    note.textContent = state.trick.length
      ? `Trick ${n} · led by ${seatName(state, state.trick[0].seat)}`
      : `Trick ${n} · ${seatName(state, state.to_act)} leads`;
  } else if (state.phase === "bidding" || state.phase === "skat") {
    skat.appendChild(el("span", "label", "Skat"));
    if (state.skat.length && state.phase !== "done") state.skat.forEach((c) => skat.appendChild(cardEl(c, true)));
    else skat.append(backEl(true), backEl(true));
    note.textContent = state.phase === "bidding" ? (state.bid ? `Bid: ${state.bid}` : "Bidding") : `Bid: ${state.bid}`;
  } else if (state.phase === "discard" || state.phase === "declare") {
    note.textContent = `${seatName(state, state.declarer)} won the bidding at ${state.bid}`;
  }
}

function renderTable(state, bottom, opts = {}) {
  renderSeat($("seat-left"), state, (bottom + 1) % 3, "left", opts);
  renderSeat($("seat-right"), state, (bottom + 2) % 3, "right", opts);
  renderSeat($("seat-bottom"), state, bottom, "bottom", opts);
  renderCentre(state, bottom, opts.overlay);
  renderLog(state, opts.highlight);
}

function renderLog(state, upto) {
  const log = $("log");
  log.innerHTML = "";
  let cardsPlayed = 0;
  state.log.forEach((ev, i) => {
    const li = el("li");
    li.innerHTML = richText(`${seatName(state, ev.seat)}: ${ev.text}`);
    if (upto !== undefined && i === upto - 1) li.style.fontWeight = "700";
    log.appendChild(li);
    if (ev.kind === "card" && ++cardsPlayed % 3 === 0) {
      const done = state.tricks_done[cardsPlayed / 3 - 1];
      if (done) log.appendChild(el("div", "trick-end", `→ ${seatName(state, done.winner)} takes trick ${cardsPlayed / 3}`));
    }
  });
  log.scrollTop = log.scrollHeight;
}

// --- the end of a game ------------------------------------------------------------------
function scoreSheet(state, names) {
  const sheet = state.result;
  const r = sheet.result;
  const box = el("div");
  if (r.passed_in) {
    box.appendChild(el("h3", "", "Passed in"));
    box.appendChild(el("p", "", "Nobody bid: the game is not played and scores nothing."));
  } else {
    const who = names[r.declarer];
    const h = el("h3", `verdict ${r.won ? "won" : "lost"}`, `${who} ${r.won ? "won" : "lost"} ${contractText(r.contract)}`);
    box.appendChild(h);
    const t = el("table", "sheet");
    const row = (k, v, cls) => {
      const tr = el("tr", cls || "");
      tr.appendChild(el("td", "", k));
      tr.appendChild(el("td", "num", String(v)));
      t.appendChild(tr);
    };
    row("Card points (declarer incl. skat)", `${r.declarer_points} : ${r.defender_points}`);
    row("Tricks (declarer)", r.declarer_tricks);
    if (r.contract.startsWith("null")) {
      row("Game value (null, fixed)", r.game_value);
    } else {
      for (const [name, n] of sheet.levels) row(name, `+${n}`, "level");
      const levels = sheet.levels.reduce((a, [, n]) => a + n, 0);
      row(`Game value: ${levels} × ${sheet.base_value}`, r.game_value);
    }
    row("Bid", r.bid);
    if (r.overbid) row(`Overbid: lost at the next multiple of the base value ≥ ${r.bid}`, sheet.lost_value);
    if (r.ended_early) row("Ended early (the loss was certain)", "yes");
    if (r.schneider) row("Schneider", "yes");
    if (r.schwarz) row("Schwarz", "yes");
    row(r.won ? "Won: list score +value" : "Lost: list score −2 × value", r.score > 0 ? `+${r.score}` : r.score, "total");
    box.appendChild(t);
  }
  const sf = el("table", "sheet");
  const head = el("tr");
  head.appendChild(el("th", "", "Seeger-Fabian"));
  names.forEach((n) => head.appendChild(el("th", "", n)));
  sf.appendChild(head);
  const tr = el("tr", "seeger");
  tr.appendChild(el("td", "", "points"));
  r.seeger_fabian.forEach((p) => tr.appendChild(el("td", "num", p > 0 ? `+${p}` : String(p))));
  sf.appendChild(tr);
  box.appendChild(sf);
  return box;
}

function revealEl(state, names) {
  const box = el("div");
  box.appendChild(el("h3", "", "The deal"));
  const d = state.dealt;
  const row = (who, cards) => {
    const r = el("div", "reveal-row");
    r.appendChild(el("span", "who", who));
    r.appendChild(handEl(cards, true));
    box.appendChild(r);
  };
  d.hands.forEach((cards, seat) => row(`${names[seat]} (${state.seats[seat].position})`, cards));
  row("Skat", d.skat);
  if (d.discarded.length) row("Put away", d.discarded);
  return box;
}

function renderEnd(state, buttons) {
  const panel = $("end-panel");
  panel.innerHTML = "";
  const names = state.seats.map((s) => s.name);
  panel.appendChild(scoreSheet(state, names));
  panel.appendChild(revealEl(state, names));
  const b = el("div", "end-buttons");
  buttons.forEach((x) => b.appendChild(x));
  panel.appendChild(b);
  panel.classList.remove("hidden");
}

// --- playing ----------------------------------------------------------------------------
function status(text, error = false) {
  const s = $("status");
  s.innerHTML = richText(text);
  s.classList.toggle("error", error);
}

function renderPlay(opts = {}) {
  const state = play.state;
  if (!state) return;
  const mine = !play.busy && state.legal !== null && state.to_act === play.seat;
  renderTable(state, play.seat, { mine, overlay: opts.overlay });
  renderInfo(state);
  renderActions(mine ? state : null);
  if (opts.text) status(opts.text);
  else if (state.result) status(state.result.summary);
  else if (mine) status(prompt(state));
  else if (state.to_act >= 0) status(`${seatName(state, state.to_act)} is thinking…`);
  if (state.result && !play.busy) showEnd();
  else $("end-panel").classList.add("hidden");
}

function prompt(state) {
  const m = state.legal.moves;
  switch (state.legal.phase) {
    case "bidding":
      if (m.includes("hold")) return `${bidderName(state)} says ${state.bid}. Hold or pass?`;
      if (state.bid === 0 && m.length === 2) return "Both others passed. Play at 18, or pass (nobody plays)?";
      return state.bid ? `The bid stands at ${state.bid}. Bid higher or pass.` : "You bid first: name a value or pass.";
    case "skat": return `You won the bidding at ${state.bid}. Pick up the skat or play hand?`;
    case "discard": return `Put away ${2 - state.discarded.length} card${state.discarded.length ? "" : "s"}: click ${state.discarded.length ? "one" : "two"}, then confirm.`;
    case "declare": return `Declare your game (bid ${state.bid}).`;
    case "play": return state.trick.length ? "Your turn: follow with a highlighted card." : "Your lead: play any card.";
    default: return "";
  }
}

function bidderName(state) {
  const last = [...state.log].reverse().find((e) => e.kind === "bid");
  return last ? seatName(state, last.seat) : "The bidder";
}

function button(text, onClick, cls = "") {
  const b = el("button", cls, text);
  b.addEventListener("click", onClick);
  return b;
}

function renderActions(state) {
  const box = $("actions");
  box.innerHTML = "";
  if (!state) return;
  const m = state.legal.moves;
  const phase = state.legal.phase;
  if (phase === "bidding") {
    const bids = m.filter((x) => /^\d+$/.test(x));
    if (m.includes("hold")) box.appendChild(button(`Hold ${state.bid} (yes)`, () => send("hold"), "primary"));
    if (bids.length) {
      box.appendChild(button(`Bid ${bids[0]}`, () => send(bids[0]), "primary"));
      if (bids.length > 1) {
        const g = el("span", "group");
        const sel = el("select");
        sel.id = "bid-select";
        bids.forEach((v) => sel.appendChild(new Option(v, v)));
        g.appendChild(sel);
        g.appendChild(button("Bid this", () => send(sel.value)));
        box.appendChild(g);
      }
    }
    box.appendChild(button("Pass", () => send("pass")));
  } else if (phase === "skat") {
    box.appendChild(button("Pick up the skat", () => send("pickup"), "primary"));
    box.appendChild(button("Play hand (leave the skat)", () => send("hand")));
  } else if (phase === "discard") {
    const need = 2 - state.discarded.length;
    const b = button(`Put away ${need === 2 ? "these two" : "this card"}`, discardSelected, "primary");
    b.id = "discard";
    b.disabled = play.selected.size !== need;
    box.appendChild(el("span", "hint", `Selected ${play.selected.size} of ${need}.`));
    box.appendChild(b);
  } else if (phase === "declare") {
    box.appendChild(declareGrid(state, m));
  }
}

function declareGrid(state, moves) {
  // One row per game, one column per announcement the legal moves hold.
  const games = ["clubs", "spades", "hearts", "diamonds", "grand", "null"];
  const extras = ["", "schneider", "schwarz", "ouvert"].filter((x) => !x || moves.some((mv) => mv.endsWith(` ${x}`)));
  const grid = el("div", extras.length > 1 ? "declare-grid" : "declare-grid row");
  grid.style.gridTemplateColumns = `repeat(${extras.length}, auto)`;
  const hand = state.hand_game ? " hand" : "";
  for (const g of games) {
    const names = extras.map((x) => (x ? `${g} ${x}` : g));
    if (!names.some((n) => moves.includes(n))) continue;
    extras.forEach((x, i) => {
      if (!moves.includes(names[i])) {
        if (extras.length > 1) grid.appendChild(el("span"));
        return;
      }
      let full = g === "null" ? `Null${x ? " ouvert" : ""}${hand}` : `${contractText(g)}${hand}${x ? " " + x : ""}`;
      if (x === "schneider" || x === "schwarz") full += " announced";
      const short = !x || g === "null" ? full : `${x}${x === "ouvert" ? "" : " announced"}`;
      const b = button(short, () => send(names[i]));
      b.title = full;
      b.dataset.move = names[i];
      if (SUIT_OF_WORD[g]) b.insertAdjacentHTML("afterbegin", svg(SUIT_OF_WORD[g], `s-${SUIT_OF_WORD[g]}`));
      grid.appendChild(b);
    });
  }
  return grid;
}

function onCardClick(card) {
  const state = play.state;
  if (play.busy || !state.legal) return;
  if (state.legal.phase === "play") return send(card);
  const need = 2 - state.discarded.length;
  if (play.selected.has(card)) play.selected.delete(card);
  else if (play.selected.size < need) play.selected.add(card);
  renderPlay();
}

async function discardSelected() {
  const cards = [...play.selected];
  play.selected.clear();
  for (const c of cards) {
    if (!(await send(c))) break;
  }
}

async function send(move) {
  if (play.busy) return false;
  play.busy = true;
  try {
    const resp = await api("POST", `/api/games/${play.id}/moves`, { move, moves_played: play.state.moves_played });
    await animate(resp);
    return true;
  } catch (e) {
    play.busy = false;
    if (e.status === 409 && play.id) await reload(); // another tab moved: show the game as it is
    status(e.message, true);
    return false;
  }
}

async function reload() {
  try {
    const resp = await api("GET", `/api/games/${play.id}`);
    play.state = resp.state;
    play.selected.clear();
    renderPlay();
  } catch (e) {
    status(e.message, true);
  }
}

async function animate(resp) {
  play.busy = true;
  play.seat = resp.seat;
  play.players = resp.players;
  for (const ev of resp.events) {
    play.state = ev.state;
    const who = seatName(ev.state, ev.seat);
    const text = `${who}: ${ev.text}`;
    if (ev.trick_done) {
      renderPlay({ overlay: ev.trick_done, text: `${text} — ${seatName(ev.state, ev.trick_done.winner)} takes the trick` });
      if (pace) await sleep(pace * 1.6);
    } else {
      renderPlay({ text });
      if (pace && ev.seat !== play.seat) await sleep(pace);
    }
  }
  play.state = resp.state;
  play.busy = false;
  renderPlay();
}

async function newGame() {
  if (play.busy) return;
  const round = Number(sessionStorage.getItem("skat-round") || 0);
  const body = { round, opponents: [$("opp-1").value, $("opp-2").value] };
  if (params.has("seed") && round === 0) body.seed = Number(params.get("seed"));
  play.busy = true;
  play.selected.clear();
  $("end-panel").classList.add("hidden");
  status("Dealing…");
  try {
    const resp = await api("POST", "/api/games", body);
    sessionStorage.setItem("skat-round", String(round + 1));
    sessionStorage.setItem("skat-game", resp.game_id);
    play.id = resp.game_id;
    await animate(resp);
  } catch (e) {
    play.busy = false;
    status(e.message, true);
  }
}

async function resumeOrStart() {
  const gid = sessionStorage.getItem("skat-game");
  if (gid) {
    try {
      const resp = await api("GET", `/api/games/${gid}`);
      play.id = gid;
      play.seat = resp.seat;
      play.players = resp.players;
      play.state = resp.state;
      renderPlay();
      return;
    } catch (e) {
      sessionStorage.removeItem("skat-game");
    }
  }
  await newGame();
}

function showEnd() {
  recordScore();
  const next = button("Next game", newGame, "primary");
  next.id = "next-game";
  const dl = el("a", "", "Download record (.jsonl)");
  dl.href = `/api/games/${play.id}/record`;
  dl.id = "download";
  dl.setAttribute("download", `skat-${play.id}.jsonl`);
  const hide = button("Look at the table", () => $("end-panel").classList.add("hidden"));
  renderEnd(play.state, [next, dl, hide]);
}

// --- the score list over this browser session -------------------------------------------
function loadScores() {
  return JSON.parse(sessionStorage.getItem("skat-scores") || "[]");
}

function recordScore() {
  const scores = loadScores();
  if (scores.some((s) => s.id === play.id)) return;
  const r = play.state.result.result;
  const byPlayer = [0, 0, 0];
  const list = [null, null, null];
  play.players.forEach((p, seat) => {
    byPlayer[p] = r.seeger_fabian[seat];
    if (!r.passed_in && seat === r.declarer) list[p] = r.score;
  });
  const names = [0, 1, 2].map((p) => play.state.seats[play.players.indexOf(p)].name);
  scores.push({ id: play.id, contract: r.passed_in ? "passed in" : r.contract, list, sf: byPlayer, names });
  sessionStorage.setItem("skat-scores", JSON.stringify(scores));
  renderScores();
}

function renderScores() {
  const scores = loadScores();
  const box = $("scores");
  box.innerHTML = "";
  if (!scores.length) {
    box.appendChild(el("p", "note", "Finished games appear here."));
    return;
  }
  const names = scores[scores.length - 1].names;
  const t = el("table");
  const head = el("tr");
  ["#", "Game", ...names].forEach((h) => head.appendChild(el("th", "", h)));
  t.appendChild(head);
  const total = [0, 0, 0];
  const sf = [0, 0, 0];
  scores.forEach((s, i) => {
    const tr = el("tr");
    tr.appendChild(el("td", "", String(i + 1)));
    tr.appendChild(el("td", "", contractText(s.contract)));
    s.list.forEach((v, p) => {
      tr.appendChild(el("td", "", v === null ? "" : v > 0 ? `+${v}` : String(v)));
      total[p] += v || 0;
      sf[p] += s.sf[p];
    });
    t.appendChild(tr);
  });
  for (const [label, vals] of [["List total", total], ["Seeger-Fabian", sf]]) {
    const tr = el("tr", "total");
    tr.appendChild(el("td", "", ""));
    tr.appendChild(el("td", "", label));
    vals.forEach((v) => tr.appendChild(el("td", "", String(v))));
    t.appendChild(tr);
  }
  box.appendChild(t);
}

function renderInfo(state) {
  const box = $("info");
  box.innerHTML = "";
  box.appendChild(el("h2", "", "This game"));
  const dl = el("dl", "info-grid");
  const add = (k, v) => {
    dl.appendChild(el("dt", "", k));
    const dd = el("dd");
    if (v instanceof Node) dd.appendChild(v);
    else dd.textContent = v;
    dl.appendChild(dd);
  };
  const me = state.seats[play.seat];
  add("You", `player_${play.seat}, ${me.position}`);
  add("Dealer", seatName(state, state.dealer));
  add("Bid", state.bid || "—");
  if (state.declarer >= 0) add("Declarer", seatName(state, state.declarer));
  if (state.contract) add("Game", contractText(state.contract));
  if (state.discarded.length && !state.result) {
    const cards = handEl(state.discarded, true);
    cards.classList.add("spread");
    add("Put away", cards);
  }
  if (state.tricks_done.length) {
    const last = state.tricks_done[state.tricks_done.length - 1];
    const cards = handEl(last.cards.map((c) => c.card), true);
    cards.classList.add("spread");
    add("Last trick", cards);
    add("taken by", seatName(state, last.winner));
  }
  box.appendChild(dl);
}

// --- watching records -------------------------------------------------------------------
function addRecords(records) {
  const list = $("record-list");
  for (const r of records) {
    const label = moveText(r.score === null ? r.label : `${r.label} (${r.score > 0 ? "+" : ""}${r.score})`);
    list.appendChild(new Option(label, r.id));
  }
}

async function loadWatch(step) {
  if (!watch.rid) return;
  const view = $("w-view").value;
  try {
    const data = await api("GET", `/api/records/${encodeURIComponent(watch.rid)}?step=${step}&view=${view}`);
    watch.data = data;
    watch.step = data.step;
    watch.steps = data.steps;
    renderWatch();
  } catch (e) {
    status(e.message, true);
  }
}

function renderWatch() {
  const data = watch.data;
  const state = data.state;
  const bottom = state.viewer === null ? 0 : state.viewer;
  renderTable(state, bottom, { mine: false, highlight: data.step });
  $("actions").innerHTML = "";
  const slider = $("w-step");
  slider.max = String(data.steps);
  slider.value = String(data.step);
  $("w-counter").textContent = `move ${data.step} / ${data.steps}`;
  const last = state.log[state.log.length - 1];
  status(last ? `${seatName(state, last.seat)}: ${last.text}` : "The deal, before the first move.");
  const info = $("watch-info");
  info.innerHTML = "";
  info.appendChild(el("h2", "", "Record"));
  info.appendChild(el("p", "", moveText(data.record.label)));
  if (data.record.status !== "complete" && data.record.status !== "passed") {
    info.appendChild(el("p", "note", `Not played to the end: ${data.record.status}.`));
  }
  if (data.next) {
    const p = el("p");
    p.innerHTML = richText(`Next: ${seatName(state, data.next.seat)} ${data.next.text}`);
    info.appendChild(p);
  }
  if (state.contract) info.appendChild(el("p", "", `Game: ${contractText(state.contract)} by ${seatName(state, state.declarer)}`));
  if (state.result && !watch.hideEnd) {
    renderEnd(state, [button("Hide", () => { watch.hideEnd = true; $("end-panel").classList.add("hidden"); })]);
  } else {
    $("end-panel").classList.add("hidden");
  }
}

function watchStep(step) {
  watch.hideEnd = false;
  loadWatch(Math.max(0, Math.min(watch.steps, step)));
}

async function upload(file) {
  const text = await file.text();
  try {
    const resp = await api("POST", "/api/records", { text, name: file.name });
    addRecords(resp.records);
    $("upload-msg").textContent = `${resp.records.length} record(s) from ${file.name}` +
      (resp.notes.length ? `; ${resp.notes.length} skipped (hidden deal)` : "");
    $("record-list").value = resp.records[0].id;
    selectRecord(resp.records[0].id);
  } catch (e) {
    $("upload-msg").textContent = e.message;
  }
}

function selectRecord(rid) {
  watch.rid = rid;
  watch.hideEnd = false;
  loadWatch(0);
}

// --- modes and options ------------------------------------------------------------------
function setMode(m) {
  mode = m;
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.mode === m));
  $("play-side").classList.toggle("hidden", m !== "play");
  $("watch-side").classList.toggle("hidden", m !== "watch");
  $("watch-controls").classList.toggle("hidden", m !== "watch");
  $("end-panel").classList.add("hidden");
  if (m === "play") {
    if (play.state) renderPlay();
    else resumeOrStart();
  } else {
    $("actions").innerHTML = "";
    if (watch.data) renderWatch();
    else {
      for (const id of ["seat-left", "seat-right", "seat-bottom", "trick", "skat", "centre-note", "log"]) $(id).innerHTML = "";
      status("Choose a record on the right, or open a record file.");
    }
  }
}

function redraw() {
  if (mode === "play") renderPlay();
  else if (watch.data) renderWatch();
  renderScores();
}

async function init() {
  $("deck").value = deck;
  $("pace").value = String(pace);
  $("deck").addEventListener("change", (e) => {
    deck = e.target.value;
    localStorage.setItem("skat-deck", deck);
    redraw();
  });
  $("pace").addEventListener("change", (e) => {
    pace = Number(e.target.value);
    localStorage.setItem("skat-pace", String(pace));
  });
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => setMode(t.dataset.mode)));
  $("new-game").addEventListener("click", newGame);
  $("w-first").addEventListener("click", () => watchStep(0));
  $("w-prev").addEventListener("click", () => watchStep(watch.step - 1));
  $("w-next").addEventListener("click", () => watchStep(watch.step + 1));
  $("w-last").addEventListener("click", () => watchStep(watch.steps));
  $("w-step").addEventListener("input", (e) => watchStep(Number(e.target.value)));
  $("w-view").addEventListener("change", () => loadWatch(watch.step));
  $("record-list").addEventListener("change", (e) => selectRecord(e.target.value));
  $("upload").addEventListener("change", (e) => e.target.files[0] && upload(e.target.files[0]));
  document.addEventListener("keydown", (e) => {
    if (mode !== "watch" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") watchStep(watch.step + 1);
    if (e.key === "ArrowLeft") watchStep(watch.step - 1);
  });
  const config = await api("GET", "/api/config");
  for (const [i, id] of [[0, "opp-1"], [1, "opp-2"]]) {
    const sel = $(id);
    config.allowed.forEach((s) => sel.appendChild(new Option(s, s)));
    sel.value = config.opponents[i];
  }
  addRecords(config.records);
  renderScores();
  setMode(params.get("mode") === "watch" ? "watch" : "play");
}

init().catch((e) => status(`Cannot reach the server: ${e.message}`, true));
