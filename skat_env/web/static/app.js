// Skat page: draws the snapshots the server sends and sends the moves it offers.
// No rules here: legal moves, visibility, trick winners and scores all come from the server.
// Every text comes from the translation tables in i18n.js (t and tpl below).
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// --- suits and card faces ---------------------------------------------------------------
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
    C: '<rect x="46" y="2" width="8" height="18" rx="3"/><path d="M16 44 C16 18 84 18 84 44 Z"/>' +
      '<path d="M24 36 L76 36 M30 27 L70 27 M30 44 L42 22 M46 44 L56 20 M62 44 L70 25" ' +
      'stroke="#fffdf7" stroke-width="2" opacity=".55"/>' +
      '<path d="M24 44 L76 44 C76 72 64 94 50 97 C36 94 24 72 24 44Z" opacity=".72"/>' +
      '<path d="M16 44 L84 44" stroke="#fffdf7" stroke-width="3"/>' +
      '<path d="M36 56 C35 70 40 82 47 89" stroke="#fffdf7" stroke-width="3" fill="none" opacity=".6"/>',
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
const SUIT_OF_GAME = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" };

// German-suited faces, drawn in a card-shaped 100 x 145 box right of the corner index:
// the pips of the number cards (the lower ones upside down, as printed), a large suit
// picture on the Daus, and double-headed court cards (a figure and its mirror image;
// the Ober holds his suit high, the Unter low, the König wears a crown).
const FACE_X = 61; // the middle of the picture area (x 26..96)
const PIPS = {
  7: [[44, 30], [78, 30], [61, 51], [44, 72], [78, 72], [44, 115], [78, 115]],
  8: [[44, 30], [78, 30], [61, 51], [44, 72], [78, 72], [61, 94], [44, 115], [78, 115]],
  9: [[44, 24], [78, 24], [44, 53], [78, 53], [61, 72], [44, 92], [78, 92], [44, 121], [78, 121]],
  T: [[44, 24], [78, 24], [61, 40], [44, 56], [78, 56], [44, 89], [78, 89], [61, 105], [44, 121], [78, 121]],
};
const COURT = { // robe, hat (a crown for the König), where the suit sign is held
  K: { robe: "#2f4f9e", hat: "M51 27 L51 16 L56 22 L61 13 L66 22 L71 16 L71 27Z", hatFill: "#e8b400", sign: [61, 58, 14] },
  Q: { robe: "#a3192b", hat: "M49 29 Q61 14 73 29Z M52 22 Q44 10 38 14 Q46 16 50 25Z", hatFill: "#2d6a3e", sign: [84, 22, 18] },
  J: { robe: "#2d6a3e", hat: "M50 29 Q61 17 72 29Z", hatFill: "#a3192b", sign: [84, 60, 16] },
};

function pip(suit, x, y, size, flip = false) {
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  const at = `translate(${x - size / 2} ${y - size / 2}) scale(${size / 100})`;
  return `<g class="pip"${turn}><g transform="${at}">${ICONS.german[suit]}</g></g>`;
}

function courtHalf(suit, rank) {
  const c = COURT[rank];
  const [sx, sy, ss] = c.sign;
  return `<g class="fig"><path d="M39 72 L42 50 Q61 39 80 50 L83 72Z" fill="${c.robe}" stroke="#3b2a14" stroke-width="1.2"/>` +
    `<path d="M52 45 L61 58 L70 45" fill="none" stroke="#f3e6c0" stroke-width="3"/>` +
    `<circle cx="61" cy="35" r="9" fill="#f3cfa4" stroke="#3b2a14" stroke-width="1.2"/>` +
    `<path d="${c.hat}" fill="${c.hatFill}" stroke="#3b2a14" stroke-width="1"/>${pip(suit, sx, sy, ss)}</g>`;
}

function germanFace(card) {
  const [suit, rank] = card;
  let body;
  if (PIPS[rank]) {
    body = PIPS[rank].map(([x, y]) => pip(suit, x, y, 21, y > 72.5)).join("");
  } else if (rank === "A") {
    body = `<path d="M34 112 Q61 102 88 112 L84 126 Q61 116 38 126Z" fill="#d9b44a" stroke="#7a5a10"/>` +
      pip(suit, FACE_X, 62, 54);
  } else {
    const half = courtHalf(suit, rank);
    body = `${half}<g transform="rotate(180 ${FACE_X} 72.5)">${half}</g>` +
      `<path d="M26 72.5 L96 72.5" stroke="#3b2a14" stroke-width="1"/>`;
  }
  return `<svg class="face" viewBox="0 0 100 145" preserveAspectRatio="none" fill="currentColor" aria-hidden="true">` +
    `<rect x="26" y="5" width="70" height="135" rx="5" fill="none" stroke="currentColor" stroke-opacity=".35"/>${body}</svg>`;
}

function pickLanguage() {
  const stored = localStorage.getItem("skat-lang");
  if (stored && I18N[stored]) return stored;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const k = l.slice(0, 2).toLowerCase();
    if (I18N[k]) return k;
  }
  return "en";
}

let lang = params.get("lang") in I18N ? params.get("lang") : pickLanguage();
let deck = localStorage.getItem("skat-deck") || "french";
let pace = params.has("delay") ? Number(params.get("delay")) : Number(localStorage.getItem("skat-pace") || 800);

// --- translation ------------------------------------------------------------------------
function entry(key, you) {
  const table = I18N[lang];
  if (you && table[`${key}.you`] !== undefined) return table[`${key}.you`];
  return table[key] !== undefined ? table[key] : key;
}

function t(key, p = {}, you = false) {
  return entry(key, you).replace(/\{(\w+)\}/g, (_, k) => (k in p ? String(p[k]) : ""));
}

function tpl(key, p = {}, you = false) {
  // The text of `key` as DOM nodes: parameters may be nodes (cards drawn with their suit).
  const frag = document.createDocumentFragment();
  entry(key, you).split(/(\{\w+\})/).forEach((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (!m) {
      if (part) frag.append(part);
      return;
    }
    const v = p[m[1]];
    if (v instanceof Node) frag.append(v.cloneNode(true));
    else if (v !== undefined) frag.append(String(v));
  });
  return frag;
}

const suitName = (s) => I18N[lang].suits[deck][s];
const rankLetter = (r) => I18N[lang].ranks[deck][r];
const cardTitle = (c) => t("card", { rank: I18N[lang].rankWords[deck][c[1]], suit: suitName(c[0]) });
const signed = (v) => (v > 0 ? `+${v}` : String(v));
const seconds = (ms) => (ms / 1000).toFixed(1);

function gameWord(g) {
  return SUIT_OF_GAME[g] ? suitName(SUIT_OF_GAME[g]) : t(`game.${g}`);
}

function contractText(name) {
  // "clubs hand schneider" -> "Kreuz Hand Schneider": one vocabulary for every contract.
  return name ? name.split(" ").map(gameWord).join(" ") : "";
}

function agentName(spec, twin = "") {
  // "Computer (search)", "Computer A (search)" for one of two alike; a spec the page
  // has no words for is shown as the operator wrote it.
  const kind = I18N[lang][`kind.${spec}`] !== undefined ? t(`kind.${spec}`) : spec;
  return twin ? t("agent.twin", { kind, x: twin }) : t("agent.name", { kind });
}

function recordName(name) {
  const m = /^player_(\d)$/.exec(name);
  return m ? t("player", { n: m[1] }) : name;
}

// --- DOM helpers ------------------------------------------------------------------------
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.append(text);
  return e;
};

function svg(suit, cls) {
  return `<svg class="${cls}" viewBox="0 0 100 100" fill="currentColor" aria-hidden="true">${ICONS[deck][suit]}</svg>`;
}

function cardEl(name, small = false) {
  const card = el("div", `card s-${name[0]}${small ? " small" : ""}`);
  card.dataset.card = name;
  card.title = cardTitle(name);
  card.setAttribute("aria-label", card.title);
  const face = deck === "german" ? germanFace(name) : svg(name[0], "pip");
  card.innerHTML = `${face}<div class="corner"><span></span>${svg(name[0], "")}</div>`;
  card.querySelector("span").textContent = rankLetter(name[1]);
  return card;
}

function backEl(small = false) {
  return el("div", `card back${small ? " small" : ""}`);
}

function handEl(cards, small = false, cls = "") {
  // Each card sits in a slot that shrinks when the row is short of room, so the cards
  // overlap and every card's corner stays visible instead of the row overflowing.
  const box = el("div", `hand ${cls}`.trim());
  for (const c of cards) box.appendChild(slot(typeof c === "string" ? cardEl(c, small) : c));
  return box;
}

function slot(card) {
  const s = el("div", "slot");
  s.appendChild(card);
  return s;
}

function cardName(c) {
  const span = el("span", `cardname s-${c[0]}`);
  span.title = cardTitle(c);
  span.innerHTML = svg(c[0], `s-${c[0]}`);
  span.append(rankLetter(c[1]));
  return span;
}

function cardList(cards) {
  const frag = document.createDocumentFragment();
  cards.forEach((c, i) => {
    if (i) frag.append(" ");
    frag.append(cardName(c));
  });
  return frag;
}

function button(text, onClick, cls = "") {
  const b = el("button", cls, text);
  b.addEventListener("click", onClick);
  return b;
}

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
    err.code = data.code;
    err.params = data.params || {};
    throw err;
  }
  return data;
}

// --- state ------------------------------------------------------------------------------
let mode = "play";
const play = {
  id: null, seat: 0, players: [0, 1, 2], agents: [null, null, null], state: null,
  busy: false, selected: new Set(), think: {}, thinking: null,
};
const watch = { rid: null, step: 0, steps: 0, data: null, records: new Map(), total: 0 };

// A context says who sits where: display names per seat and the human's seat (-1: none).
function playContext() {
  if (atTable()) return { names: tableNames(), you: play.seat };
  const names = [0, 1, 2].map((s) => {
    const spec = play.agents[s];
    if (spec === null) return t("you");
    const twin = play.agents.filter((a) => a === spec).length > 1;
    return agentName(spec, twin ? "AB"[play.players[s] - 1] : "");
  });
  return { names, you: play.seat };
}

function watchContext(state) {
  return { names: state.seats.map((s) => recordName(s.name)), you: -1 };
}

// --- drawing the table ------------------------------------------------------------------
function renderSeat(box, state, seat, where, ctx, opts) {
  const info = state.seats[seat];
  box.innerHTML = "";
  const label = el("div", "seat-label");
  label.appendChild(el("span", "seat-name", ctx.names[seat]));
  label.appendChild(el("span", "badge", t(info.position)));
  if (seat === state.dealer) label.appendChild(el("span", "badge dealer", t("badge.dealer")));
  if (seat === state.declarer) label.appendChild(el("span", "badge declarer", t("badge.declarer")));
  if (state.phase === "bidding" || state.declarer < 0) {
    if (info.passed) label.appendChild(el("span", "badge passed", info.bid ? t("badge.passedat", { n: info.bid }) : t("badge.passed")));
    else if (info.bid) label.appendChild(el("span", "badge", t("badge.said", { n: info.bid })));
  } else if (state.contract) {
    label.appendChild(el("span", "badge", t("badge.tricks", { t: info.tricks, p: info.points })));
  }
  if (play.thinking && mode === "play" && play.thinking.seat === seat) {
    const b = el("span", "badge turn", t("badge.thinking", { s: seconds(performance.now() - play.thinking.start) }));
    b.id = "thinking-badge";
    label.appendChild(b);
  } else if (seat === state.to_act && !state.result) {
    label.appendChild(el("span", "badge turn", where === "bottom" && opts.mine ? t("badge.yourturn") : t("badge.toact")));
  }
  box.appendChild(label);
  if (where === "bottom") {
    box.appendChild(bottomHand(state, info, opts));
  } else if (info.hand) {
    box.appendChild(handEl(info.hand, true, "open"));
  } else {
    box.appendChild(handEl(Array.from({ length: info.cards_left }, () => backEl(true)), true, "backs"));
  }
}

function bottomHand(state, info, opts) {
  const legal = opts.mine && state.legal ? state.legal : null;
  if (!info.hand) return handEl(Array.from({ length: info.cards_left }, () => backEl()), false, "mine");
  const skat = new Set(state.phase === "discard" ? state.skat : []);
  const cards = info.hand.map((c) => {
    const card = cardEl(c);
    if (skat.has(c)) {
      card.classList.add("from-skat");
      card.appendChild(el("span", "skat-mark", "★"));
    }
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
    return card;
  });
  return handEl(cards, false, "mine");
}

function renderCentre(state, bottom, ctx, overlay) {
  const trick = $("trick");
  const skat = $("skat");
  const note = $("centre-note");
  trick.innerHTML = "";
  skat.innerHTML = "";
  note.textContent = "";
  const where = (seat) => (seat === bottom ? "bottom" : seat === (bottom + 1) % 3 ? "left" : "right");
  const cards = overlay ? overlay.cards : state.trick;
  for (const { seat, card } of cards) {
    const s = el("div", `slot slot-${where(seat)}`);
    if (overlay && overlay.winner === seat) s.classList.add("winner");
    s.appendChild(cardEl(card));
    s.appendChild(el("span", "who", ctx.names[seat]));
    trick.appendChild(s);
  }
  const you = (seat) => seat === ctx.you;
  if (overlay) {
    note.append(tpl("note.takes", { who: ctx.names[overlay.winner] }, you(overlay.winner)));
  } else if (state.phase === "play") {
    const n = state.tricks_done.length + 1;
    const lead = state.trick.length ? state.trick[0].seat : state.to_act;
    note.append(tpl(state.trick.length ? "note.trick.led" : "note.trick.leads", { n, who: ctx.names[lead] }, you(lead)));
  } else if (state.phase === "bidding" || state.phase === "skat") {
    skat.appendChild(el("span", "label", t("note.skat")));
    if (state.skat.length) state.skat.forEach((c) => skat.appendChild(cardEl(c, true)));
    else skat.append(backEl(true), backEl(true));
    note.append(state.bid ? t("note.bid", { n: state.bid }) : t("note.bidding"));
  } else if (state.phase === "discard" || state.phase === "declare") {
    note.append(tpl("note.won", { who: ctx.names[state.declarer], n: state.bid }, you(state.declarer)));
  }
}

function renderTable(state, bottom, ctx, opts = {}) {
  renderSeat($("seat-left"), state, (bottom + 1) % 3, "left", ctx, opts);
  renderSeat($("seat-right"), state, (bottom + 2) % 3, "right", ctx, opts);
  renderSeat($("seat-bottom"), state, bottom, "bottom", ctx, opts);
  renderCentre(state, bottom, ctx, opts.overlay);
  renderLog(state, ctx, opts.think || {});
}

function logLine(ev, ctx) {
  const who = ctx.names[ev.seat];
  const you = ev.seat === ctx.you;
  switch (ev.kind) {
    case "bid": return tpl("log.bid", { who, n: ev.move }, you);
    case "declare": return tpl("log.declare", { who, contract: contractText(ev.move) }, you);
    case "card": return tpl("log.card", { who, card: cardName(ev.move) }, you);
    case "discard": return ev.move ? tpl("log.discard", { who, card: cardName(ev.move) }, you) : tpl("log.discard.hidden", { who });
    default: return tpl(`log.${ev.kind}`, { who }, you); // hold, pass, pickup, hand
  }
}

function renderLog(state, ctx, think) {
  const log = $("log");
  log.innerHTML = "";
  let cardsPlayed = 0;
  state.log.forEach((ev, i) => {
    const li = el("li");
    li.value = i + 1; // the trick lines in between are not numbered
    li.append(logLine(ev, ctx));
    if (think[i] >= 100) li.append(" ", el("span", "time", t("log.time", { s: seconds(think[i]) })));
    log.appendChild(li);
    if (ev.kind === "card" && ++cardsPlayed % 3 === 0) {
      const done = state.tricks_done[cardsPlayed / 3 - 1];
      if (done) log.appendChild(el("li", "trick-end", tpl("log.trick", { who: ctx.names[done.winner], n: cardsPlayed / 3 }, done.winner === ctx.you)));
    }
  });
  log.scrollTop = log.scrollHeight;
}

// --- the end of a game ------------------------------------------------------------------
function sheetRow(table, label, value, why, cls = "") {
  const tr = el("tr", cls);
  const td = el("td", "", label);
  if (why) td.appendChild(el("div", "why", why));
  tr.appendChild(td);
  tr.appendChild(el("td", "num", String(value)));
  table.appendChild(tr);
}

function scoreSheet(state, ctx, order) {
  const sheet = state.result;
  const r = sheet.result;
  const box = el("div", "sheet-box");
  if (r.passed_in) {
    box.appendChild(el("h3", "", t("end.passed")));
    box.appendChild(el("p", "", t("end.passed.text")));
  } else {
    const contract = contractText(r.contract);
    const key = r.won ? "end.won" : "end.lost";
    box.appendChild(el("h3", `verdict ${r.won ? "won" : "lost"}`, tpl(key, { who: ctx.names[r.declarer], contract }, r.declarer === ctx.you)));
    const table = el("table", "sheet");
    sheetRow(table, t("end.points"), `${r.declarer_points} : ${r.defender_points}`, t("end.points.why"));
    sheetRow(table, t("end.tricks"), r.declarer_tricks);
    if (r.contract.startsWith("null")) {
      sheetRow(table, t("end.null"), r.game_value, t("end.null.why"));
    } else {
      const cards = cardList(sheet.matador_cards);
      for (const [lv, n] of sheet.levels) sheetRow(table, t(`lv.${lv}`, { n }), `+${n}`, tpl(`lv.${lv}.why`, { n, cards }), "level");
      const levels = sheet.levels.reduce((a, [, n]) => a + n, 0);
      const game = gameWord(r.contract.split(" ")[0]);
      sheetRow(table, t("end.value", { levels, base: sheet.base_value }), r.game_value, t("end.value.why", { game }));
    }
    sheetRow(table, t("end.bid"), r.bid);
    if (r.overbid) sheetRow(table, t("end.overbid", { n: sheet.lost_value }), sheet.lost_value, t("end.overbid.why"));
    if (r.ended_early) sheetRow(table, t("end.early"), t("end.yes"), t("end.early.why"));
    if (r.schneider) sheetRow(table, t("game.schneider"), t("end.yes"));
    if (r.schwarz) sheetRow(table, t("game.schwarz"), t("end.yes"));
    sheetRow(table, t(r.won ? "end.score.won" : "end.score.lost"), signed(r.score), "", "total");
    box.appendChild(table);
  }
  const sf = el("table", "sheet sf");
  const head = el("tr");
  head.appendChild(el("th", "", t("end.sf")));
  order.forEach((s) => head.appendChild(el("th", "num", ctx.names[s])));
  sf.appendChild(head);
  const tr = el("tr");
  const td = el("td", "", t("end.sf.points"));
  td.appendChild(el("div", "why", t("end.sf.why")));
  tr.appendChild(td);
  order.forEach((s) => tr.appendChild(el("td", "num", signed(r.seeger_fabian[s]))));
  sf.appendChild(tr);
  box.appendChild(sf);
  return box;
}

function revealEl(state, ctx) {
  const box = el("div", "reveal");
  box.appendChild(el("h3", "", t("end.deal")));
  const d = state.dealt;
  const row = (who, cards) => {
    const r = el("div", "reveal-row");
    r.appendChild(el("span", "who", who));
    r.appendChild(handEl(cards, true, "open"));
    box.appendChild(r);
  };
  d.hands.forEach((cards, seat) => row(t("end.who", { name: ctx.names[seat], position: t(state.seats[seat].position) }), cards));
  row(t("end.skat"), d.skat);
  if (d.discarded.length) row(t("end.putaway"), d.discarded);
  return box;
}

function renderEnd(state, ctx, order, buttons) {
  const panel = $("end-panel");
  const wasHidden = panel.classList.contains("hidden");
  panel.innerHTML = "";
  panel.appendChild(scoreSheet(state, ctx, order));
  panel.appendChild(revealEl(state, ctx));
  if (buttons.length) {
    const b = el("div", "end-buttons");
    buttons.forEach((x) => b.appendChild(x));
    panel.appendChild(b);
  }
  panel.classList.remove("hidden");
  if (wasHidden && mode === "play") panel.scrollIntoView({ block: "nearest" });
}

// --- playing ----------------------------------------------------------------------------
function status(content, error = false) {
  const s = $("status");
  s.innerHTML = "";
  s.append(content);
  s.classList.toggle("error", error);
}

function errorText(e) {
  // The server's refusal in the page's language (its code and parameters); the English
  // message only where the server could not be reached at all.
  if (!e.status) return t("st.offline", { msg: e.message });
  const key = `err.${e.code}`;
  return t("st.server", { msg: I18N[lang][key] !== undefined ? t(key, e.params) : t("err.other", { status: e.status }) });
}

function serverError(e) {
  status(errorText(e), true);
}

function renderPlay(opts = {}) {
  const state = play.state;
  if (!state || mode !== "play") return; // the game goes on while Watch or Rules is open
  const ctx = playContext();
  const mine = !play.busy && state.legal !== null && state.to_act === play.seat;
  renderTable(state, play.seat, ctx, { mine, overlay: opts.overlay, think: play.think });
  renderInfo(state, ctx);
  renderActions(mine ? state : null);
  if (opts.event) status(logLine(opts.event, ctx));
  else if (play.thinking) status(t("st.thinking", { who: ctx.names[play.thinking.seat], s: seconds(performance.now() - play.thinking.start) }));
  else if (state.result) status(verdict(state, ctx));
  else if (mine) status(prompt(state, ctx));
  else status("");
  if (state.result && !play.busy) showEnd();
  else $("end-panel").classList.add("hidden");
  if (state.phase === "play" && play.phase !== "play") showTable(".centre");
  play.phase = state.phase;
}

function showTable(sel) {
  // Scroll the table (or, when it is taller than the screen, `sel` in it) into view if it
  // is above the screen: after declaring at the bottom of a phone, or "Next game".
  const table = $("table");
  const target = table.offsetHeight <= innerHeight ? table : table.querySelector(sel);
  if (target.getBoundingClientRect().top < 0) target.scrollIntoView({ block: "start" });
}

function verdict(state, ctx) {
  const r = state.result.result;
  if (r.passed_in) return t("end.passed");
  const frag = tpl(r.won ? "end.won" : "end.lost", { who: ctx.names[r.declarer], contract: contractText(r.contract) }, r.declarer === ctx.you);
  frag.append(`: ${signed(r.score)}`);
  return frag;
}

function prompt(state, ctx) {
  const m = state.legal.moves;
  switch (state.legal.phase) {
    case "bidding": {
      if (m.includes("hold")) {
        const last = [...state.log].reverse().find((e) => e.kind === "bid");
        return t("ask.hold", { who: last ? ctx.names[last.seat] : "", n: state.bid });
      }
      if (state.bid === 0 && m.length === 2) return t("ask.open");
      return state.bid ? t("ask.higher", { n: state.bid }) : t("ask.first");
    }
    case "skat": return t("ask.skat", { n: state.bid });
    case "discard": return t(state.discarded.length ? "ask.discard1" : "ask.discard2");
    case "declare": return t("ask.declare", { n: state.bid });
    case "play": return t(state.trick.length ? "ask.follow" : "ask.lead");
    default: return "";
  }
}

function renderActions(state) {
  const box = $("actions");
  box.innerHTML = "";
  if (!state) return;
  const m = state.legal.moves;
  const phase = state.legal.phase;
  if (phase === "bidding") {
    const bids = m.filter((x) => /^\d+$/.test(x));
    if (m.includes("hold")) box.appendChild(button(t("btn.hold", { n: state.bid }), () => send("hold"), "primary"));
    if (bids.length) {
      box.appendChild(button(t("btn.bid", { n: bids[0] }), () => send(bids[0]), "primary"));
      if (bids.length > 1) {
        const g = el("span", "group");
        const sel = el("select");
        sel.id = "bid-select";
        bids.forEach((v) => sel.appendChild(new Option(v, v)));
        g.appendChild(sel);
        g.appendChild(button(t("btn.bidthis"), () => send(sel.value)));
        box.appendChild(g);
      }
    }
    box.appendChild(button(t("btn.pass"), () => send("pass")));
  } else if (phase === "skat") {
    box.appendChild(button(t("btn.pickup"), () => send("pickup"), "primary"));
    box.appendChild(button(t("btn.hand"), () => send("hand")));
  } else if (phase === "discard") {
    const need = 2 - state.discarded.length;
    const b = button(t(need === 2 ? "btn.discard2" : "btn.discard1"), discardSelected, "primary");
    b.id = "discard";
    b.disabled = play.selected.size !== need;
    box.appendChild(el("span", "hint", t("btn.selected", { k: play.selected.size, n: need })));
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
  grid.style.gridTemplateColumns = `repeat(${extras.length}, minmax(0, auto))`;
  const hand = state.hand_game ? " hand" : "";
  for (const g of games) {
    const names = extras.map((x) => (x ? `${g} ${x}` : g));
    if (!names.some((n) => moves.includes(n))) continue;
    extras.forEach((x, i) => {
      if (!moves.includes(names[i])) {
        if (extras.length > 1) grid.appendChild(el("span"));
        return;
      }
      const contract = g === "null" ? `null${x ? " ouvert" : ""}${hand}` : `${g}${hand}${x ? ` ${x}` : ""}`;
      const full = contractText(contract) + (x === "schneider" || x === "schwarz" ? ` (${t(`ann.${x}`)})` : "");
      const short = !x || g === "null" ? contractText(contract) : t(`ann.${x}`);
      const b = button(short, () => send(names[i]));
      b.title = full;
      b.dataset.move = names[i];
      if (SUIT_OF_GAME[g]) b.insertAdjacentHTML("afterbegin", svg(SUIT_OF_GAME[g], `s-${SUIT_OF_GAME[g]}`));
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
  renderPlay(); // no move can be offered twice while this one is on its way
  try {
    if (atTable()) {
      const body = { token: friends.token, move, moves_played: play.state.moves_played };
      adoptTable(await api("POST", `/api/tables/${friends.id}/moves`, body));
      return true;
    }
    const body = { move, moves_played: play.state.moves_played, run_agents: false };
    const resp = await api("POST", `/api/games/${play.id}/moves`, body);
    await showEvents(resp.events, 0, resp.state);
    play.state = resp.state;
    await runAgents();
    return true;
  } catch (e) {
    await failed(e);
    return false;
  }
}

async function failed(e) {
  stopThinking();
  play.busy = false;
  if (e.status === 409 && atTable()) await refreshTable();
  else if (e.status === 409 && play.id) await reload(); // another tab moved: show the game as it is
  serverError(e);
}

function startThinking(seat) {
  play.thinking = { seat, start: performance.now() };
  play.thinkTimer = setInterval(() => {
    // Redraw the indicator only: the seat's badge and the status line.
    if (mode !== "play") return;
    const ms = performance.now() - play.thinking.start;
    const badge = $("thinking-badge");
    if (badge) badge.textContent = t("badge.thinking", { s: seconds(ms) });
    status(t("st.thinking", { who: playContext().names[seat], s: seconds(ms) }));
  }, 100);
}

function stopThinking() {
  clearInterval(play.thinkTimer);
  play.thinking = null;
}

async function runAgents() {
  // Ask for the agents' moves one at a time, showing who is thinking and for how long;
  // each move stays on screen for the chosen pace (less the time the agent took).
  play.busy = true;
  try {
    while (!play.state.result && play.state.to_act !== play.seat && play.state.to_act >= 0) {
      startThinking(play.state.to_act);
      renderPlay();
      const t0 = performance.now();
      let resp = null;
      try {
        resp = await api("POST", `/api/games/${play.id}/agent`, { moves_played: play.state.moves_played });
      } catch (e) {
        // 409: the game moved on without this page (a reload while an agent's move was on its
        // way): take the game as it is now and go on from there
        if (e.status !== 409) throw e;
      } finally {
        stopThinking();
      }
      if (resp === null) adopt(await api("GET", `/api/games/${play.id}`));
      else {
        await showEvents(resp.events, performance.now() - t0, resp.state);
        play.state = resp.state;
      }
    }
  } finally {
    play.busy = false;
  }
  renderPlay();
}

async function showEvents(events, spent, final) {
  for (const ev of events) {
    play.state = ev.state || final; // the last event's view is the answer's state
    if (ev.think_ms !== undefined) play.think[play.state.moves_played - 1] = ev.think_ms;
    renderPlay({ event: ev, overlay: ev.trick_done });
    if (!pace) continue;
    if (ev.trick_done) await sleep(pace * 1.6);
    else if (ev.seat !== play.seat) await sleep(Math.max(0, pace - spent));
  }
}

async function reload() {
  try {
    const resp = await api("GET", `/api/games/${play.id}`);
    adopt(resp);
    play.selected.clear();
    renderPlay();
  } catch (e) {
    serverError(e);
  }
}

function adopt(resp) {
  play.id = resp.game_id;
  play.seat = resp.seat;
  play.players = resp.players;
  play.agents = resp.agents;
  play.state = resp.state;
}

async function newGame() {
  if (play.busy) return;
  if (atTable()) await leaveTable();
  const stored = sessionStorage.getItem("skat-round");
  const body = { opponents: [$("opp-1").value, $("opp-2").value], run_agents: false };
  // The first game of a tab gets a random dealer from the server; then the deal moves on.
  if (stored !== null) body.round = Number(stored);
  else if (params.has("round")) body.round = Number(params.get("round"));
  if (params.has("seed") && stored === null) body.seed = Number(params.get("seed"));
  play.busy = true;
  play.selected.clear();
  play.think = {};
  $("end-panel").classList.add("hidden");
  showTable(".seat");
  status(t("st.dealing"));
  try {
    const resp = await api("POST", "/api/games", body);
    sessionStorage.setItem("skat-round", String(resp.round + 1));
    sessionStorage.setItem("skat-game", resp.game_id);
    adopt(resp);
    await runAgents();
  } catch (e) {
    await failed(e);
  }
}

async function resumeOrStart() {
  const gid = sessionStorage.getItem("skat-game");
  if (gid) {
    try {
      adopt(await api("GET", `/api/games/${gid}`));
      if (play.state.to_act !== play.seat && !play.state.result) await runAgents();
      else renderPlay();
      return;
    } catch (e) {
      sessionStorage.removeItem("skat-game");
    }
  }
  await newGame();
}

function showEnd() {
  if (atTable()) {
    const again = button(t("btn.next"), startTable, "primary");
    again.id = "next-game";
    renderEnd(play.state, playContext(), [0, 1, 2], [again]);
    loadStats();
    return;
  }
  recordScore();
  const next = button(t("btn.next"), newGame, "primary");
  next.id = "next-game";
  const dl = el("a", "", t("btn.download"));
  dl.href = `/api/games/${play.id}/record`;
  dl.id = "download";
  dl.setAttribute("download", `skat-${play.id}.jsonl`);
  const order = [0, 1, 2].map((p) => play.players.indexOf(p)); // as the score list: you first
  renderEnd(play.state, playContext(), order, [next, dl]);
}

// --- tables for friends -------------------------------------------------------------------
// A table's views come from the server as events (one per change); moves go to the table.
const friends = { id: params.get("table"), token: null, source: null, view: null };
const atTable = () => friends.token !== null;

function tableNames() {
  return friends.view.seats.map((p) => (p.you ? t("you") : p.person ? p.name : agentName(p.spec)));
}

function renderFriends() {
  const box = $("friends-body");
  box.innerHTML = "";
  if (!atTable()) {
    const name = el("input");
    name.id = "friend-name";
    name.value = localStorage.getItem("skat-name") || "";
    name.placeholder = t("fr.name");
    name.setAttribute("aria-label", t("fr.name"));
    box.appendChild(name);
    if (friends.id) box.appendChild(el("p", "note", t("fr.invited")));
    const go = friends.id ? button(t("fr.join"), () => joinTable(name.value), "primary") : button(t("fr.open"), () => openTable(name.value));
    go.id = friends.id ? "join-table" : "open-table";
    box.appendChild(go);
    return;
  }
  box.appendChild(el("p", "", t("fr.link")));
  const link = el("input");
  link.id = "table-link";
  link.readOnly = true;
  link.value = `${location.origin}${location.pathname}?table=${friends.id}`;
  box.appendChild(link);
  const seats = el("ul", "seats");
  tableNames().forEach((n) => seats.appendChild(el("li", "", n)));
  box.appendChild(seats);
  const state = friends.view.state;
  if (!state || state.result) {
    const start = button(t("fr.start"), startTable, "primary");
    start.id = "start-table";
    box.appendChild(start);
    box.appendChild(el("p", "note", t("fr.waiting")));
  }
  const leave = button(t("fr.leave"), leaveTable);
  leave.id = "leave-table";
  box.appendChild(leave);
}

async function tableCall(action, body) {
  try {
    return await api("POST", friends.token === null && action !== "join" ? "/api/tables" : `/api/tables/${friends.id}/${action}`, body);
  } catch (e) {
    serverError(e);
    return null;
  }
}

async function openTable(name) {
  localStorage.setItem("skat-name", name);
  const resp = await tableCall("open", { name, opponents: [$("opp-1").value, $("opp-2").value] });
  if (resp) sitDown(resp);
}

async function joinTable(name) {
  localStorage.setItem("skat-name", name);
  const resp = await tableCall("join", { name });
  if (resp) sitDown(resp);
}

async function startTable() {
  const resp = await tableCall("start", { token: friends.token });
  if (resp) adoptTable(resp);
}

function sitDown(resp) {
  friends.id = resp.table_id;
  friends.token = resp.token;
  sessionStorage.setItem(`skat-table-${friends.id}`, friends.token);
  const url = new URL(location.href);
  url.searchParams.set("table", friends.id);
  history.replaceState(null, "", url);
  adoptTable(resp);
  friends.source?.close();
  friends.source = new EventSource(`/api/tables/${friends.id}/events?token=${encodeURIComponent(friends.token)}`);
  friends.source.onmessage = (e) => adoptTable(JSON.parse(e.data));
  friends.source.addEventListener("gone", () => standUp());
}

function adoptTable(view) {
  if (friends.view && friends.view.table_id === view.table_id && view.version < friends.view.version) return;
  friends.view = view;
  play.seat = view.seat;
  play.state = view.state;
  play.busy = false;
  renderFriends();
  if (view.state) renderPlay();
  else {
    for (const id of ["seat-left", "seat-right", "seat-bottom", "trick", "skat", "centre-note", "log", "actions"]) $(id).innerHTML = "";
    $("end-panel").classList.add("hidden");
    status(t("fr.waiting"));
  }
}

async function refreshTable() {
  try {
    adoptTable(await api("GET", `/api/tables/${friends.id}?token=${encodeURIComponent(friends.token)}`));
  } catch (e) {
    standUp();
  }
}

function standUp() {
  // Off the table: the seat is an agent's now; back to games against agents.
  friends.source?.close();
  sessionStorage.removeItem(`skat-table-${friends.id}`);
  Object.assign(friends, { id: null, token: null, source: null, view: null });
  const url = new URL(location.href);
  url.searchParams.delete("table");
  history.replaceState(null, "", url);
  play.state = null;
  renderFriends();
}

async function leaveTable() {
  await tableCall("leave", { token: friends.token });
  standUp();
  if (mode === "play") await resumeOrStart();
}

async function loadStats() {
  const box = $("agent-stats");
  try {
    const rows = await api("GET", "/api/agents/stats");
    box.innerHTML = "";
    if (!rows.length) box.appendChild(el("p", "note", t("stats.empty")));
    for (const r of rows) box.appendChild(el("p", "stat", t("stats.row", { agent: agentName(r.agent), n: r.games, sf: signed(r.sf_per_game) })));
  } catch (e) {
    box.textContent = errorText(e);
  }
}

async function resumeTable() {
  const token = sessionStorage.getItem(`skat-table-${friends.id}`);
  if (!token) return;
  try {
    const view = await api("GET", `/api/tables/${friends.id}?token=${encodeURIComponent(token)}`);
    sitDown({ ...view, token });
  } catch (e) {
    sessionStorage.removeItem(`skat-table-${friends.id}`);
  }
}

// --- the score list over this browser tab -----------------------------------------------
function loadScores() {
  return JSON.parse(sessionStorage.getItem("skat-scores") || "[]");
}

function recordScore() {
  const scores = loadScores();
  if (scores.some((s) => s.id === play.id)) return;
  const r = play.state.result.result;
  const sf = [0, 0, 0];
  const list = [null, null, null];
  play.players.forEach((p, seat) => {
    sf[p] = r.seeger_fabian[seat];
    if (!r.passed_in && seat === r.declarer) list[p] = r.score;
  });
  const specs = [0, 1, 2].map((p) => play.agents[play.players.indexOf(p)]);
  scores.push({ id: play.id, contract: r.passed_in ? null : r.contract, list, sf, specs });
  sessionStorage.setItem("skat-scores", JSON.stringify(scores));
  renderScores();
}

function renderScores() {
  const scores = loadScores();
  const box = $("scores");
  box.innerHTML = "";
  if (!scores.length) {
    box.appendChild(el("p", "note", t("sc.empty")));
    return;
  }
  const specs = scores[scores.length - 1].specs;
  const names = specs.map((s, p) => (s === null ? t("you") : agentName(s, specs[1] === specs[2] ? "AB"[p - 1] : "")));
  const table = el("table");
  const head = el("tr");
  [t("sc.num"), t("sc.game"), ...names].forEach((h) => head.appendChild(el("th", "", h)));
  table.appendChild(head);
  const total = [0, 0, 0];
  const sf = [0, 0, 0];
  scores.forEach((s, i) => {
    const tr = el("tr");
    tr.appendChild(el("td", "", String(i + 1)));
    tr.appendChild(el("td", "", s.contract ? contractText(s.contract) : t("sc.passed")));
    s.list.forEach((v, p) => {
      tr.appendChild(el("td", "", v === null ? "" : signed(v)));
      total[p] += v || 0;
      sf[p] += s.sf[p];
    });
    table.appendChild(tr);
  });
  for (const [label, vals] of [[t("sc.total"), total], [t("sc.sf"), sf]]) {
    const tr = el("tr", "total");
    tr.appendChild(el("td", "", ""));
    tr.appendChild(el("td", "", label));
    vals.forEach((v) => tr.appendChild(el("td", "", String(v))));
    table.appendChild(tr);
  }
  box.appendChild(table);
}

function renderInfo(state, ctx) {
  const box = $("info");
  box.innerHTML = "";
  box.appendChild(el("h2", "", t("side.this")));
  const dl = el("dl", "info-grid");
  const add = (k, v) => {
    dl.appendChild(el("dt", "", k));
    const dd = el("dd");
    dd.append(v);
    dl.appendChild(dd);
  };
  add(t("info.you"), t("info.yourseat", { position: t(state.seats[play.seat].position) }));
  add(t("info.dealer"), ctx.names[state.dealer]);
  add(t("info.bid"), String(state.bid || "—"));
  if (state.declarer >= 0) add(t("info.declarer"), ctx.names[state.declarer]);
  if (state.contract) add(t("info.game"), contractText(state.contract));
  if (state.discarded.length && !state.result) add(t("info.putaway"), handEl(state.discarded, true, "spread"));
  if (state.tricks_done.length) {
    const last = state.tricks_done[state.tricks_done.length - 1];
    add(t("info.last"), handEl(last.cards.map((c) => c.card), true, "spread"));
    add(t("info.takenby"), ctx.names[last.winner]);
  }
  box.appendChild(dl);
}

// --- watching records -------------------------------------------------------------------
function recordLabel(r) {
  const head = r.iss_id !== null ? t("rec.iss", { id: r.iss_id }) : t("rec.line", { file: r.source, n: r.line });
  let what = r.contract ? contractText(r.contract) : t(r.status === "passed" ? "rec.passed" : "rec.nocontract");
  if (r.score !== null) what += ` (${signed(r.score)})`;
  const unfinished = ["complete", "passed"].includes(r.status) ? "" : ` · ${t("rec.unfinished")}: ${t(`status.${r.status}`)}`;
  return `${head}: ${what}${unfinished}`;
}

function addRecords(records, total) {
  for (const r of records) watch.records.set(r.id, r);
  watch.total = Math.max(total || 0, watch.records.size);
  renderRecordList();
}

function renderRecordList() {
  const total = watch.total;
  const list = $("record-list");
  list.innerHTML = "";
  for (const r of watch.records.values()) {
    const label = recordLabel(r);
    const b = button(label, () => selectRecord(r.id), "record");
    b.title = label;
    b.dataset.id = r.id;
    if (r.id === watch.rid) b.classList.add("selected");
    if (!["complete", "passed"].includes(r.status)) b.classList.add("unfinished");
    list.appendChild(el("li", "", b));
  }
  if (total > watch.records.size) list.appendChild(el("li", "note", t("upload.more", { n: watch.records.size, total })));
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
    serverError(e);
  }
}

function renderViewOptions(names) {
  const sel = $("w-view");
  const value = sel.value || "all";
  sel.innerHTML = "";
  sel.appendChild(new Option(t("w.all"), "all"));
  names.forEach((n, s) => sel.appendChild(new Option(t("w.view", { name: n }), String(s))));
  sel.value = value;
}

function recordedResult(rec, ctx) {
  const r = rec.recorded;
  if (r.declarer === null) return t("watch.recorded.none");
  const key = r.outcome === "win" ? "watch.recorded.won" : "watch.recorded.lost";
  const frag = tpl(key, { who: ctx.names[r.declarer], contract: contractText(rec.contract), score: signed(r.score) });
  frag.append(`; ${t("watch.recorded.more", { p: r.card_points, t: r.tricks })}`);
  return frag;
}

function renderWatch() {
  const data = watch.data;
  const state = data.state;
  const rec = data.record;
  const ctx = watchContext(state);
  const bottom = state.viewer === null ? 0 : state.viewer;
  renderViewOptions(ctx.names);
  renderTable(state, bottom, ctx, { mine: false, overlay: data.trick_done });
  $("actions").innerHTML = "";
  const slider = $("w-step");
  slider.max = String(data.steps);
  slider.value = String(data.step);
  $("w-counter").textContent = t("w.counter", { k: data.step, n: data.steps });
  const last = state.log[state.log.length - 1];
  status(last ? logLine(last, ctx) : t("st.start"));
  const info = $("watch-info");
  info.innerHTML = "";
  info.appendChild(el("h2", "", t("side.record")));
  info.appendChild(el("p", "", recordLabel(rec)));
  if (rec.recorded) {
    info.appendChild(el("p", "note unfinished", t("watch.unfinished", { status: t(`status.${rec.status}`) })));
    info.appendChild(el("p", "note unfinished", tpl("watch.recorded", { result: recordedResult(rec, ctx) })));
  }
  if (data.next) info.appendChild(el("p", "", tpl("watch.next", { text: logLine(data.next, ctx) })));
  if (state.contract) info.appendChild(el("p", "", t("watch.game", { contract: contractText(state.contract), who: ctx.names[state.declarer] })));
  const panel = $("end-panel");
  if (state.result && data.step === data.steps) {
    renderEnd(state, ctx, [0, 1, 2], []);
  } else if (rec.recorded && data.step === data.steps) {
    panel.innerHTML = "";
    const box = el("div", "sheet-box unfinished");
    box.appendChild(el("h3", "", t("watch.unfinished", { status: t(`status.${rec.status}`) })));
    box.appendChild(el("p", "", tpl("watch.recorded", { result: recordedResult(rec, ctx) })));
    panel.appendChild(box);
    panel.classList.remove("hidden");
  } else {
    panel.classList.add("hidden");
  }
}

function watchStep(step) {
  loadWatch(Math.max(0, Math.min(watch.steps, step)));
}

async function upload(file) {
  const msg = $("upload-msg");
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch (e) {
    msg.textContent = t("upload.notutf8", { file: file.name });
    return;
  }
  try {
    const resp = await api("POST", "/api/records", { text, name: file.name });
    addRecords(resp.records, watch.records.size + resp.count); // the server lists the first 1000
    msg.textContent = t("upload.done", { n: resp.count, file: file.name }) +
      (resp.notes.length ? `; ${t("upload.skipped", { n: resp.notes.length })}` : "");
    selectRecord(resp.records[0].id);
  } catch (e) {
    msg.textContent = errorText(e);
  }
}

function selectRecord(rid) {
  watch.rid = rid;
  document.querySelectorAll("#record-list button").forEach((b) => b.classList.toggle("selected", b.dataset.id === rid));
  loadWatch(0);
}

// --- modes, options and the static texts ------------------------------------------------
function rulesHtml() {
  // The rules name the cards of the chosen deck: its suits, ranks and pictures.
  const table = I18N[lang];
  const p = { ...table.suits[deck], ...table.rankWords[deck], jacks: table.jacks[deck] };
  p.jackorder = ["C", "S", "H", "D"].map((x) => cardName(`${x}J`).outerHTML).join(" ");
  p.order = ["A", "T", "K", "Q", "9", "8", "7"].map(rankLetter).join(" ");
  return table.rules.replace(/\{(\w+)\}/g, (_, k) => p[k]);
}

// The picture controls act on the table: a contrast filter, a grain overlay and a warm or
// cool tint, each remembered in this browser.
const LOOK = { contrast: 100, grain: 0, warmth: 0 };

function loadLook() {
  const stored = JSON.parse(localStorage.getItem("skat-look") || "{}");
  for (const k of Object.keys(LOOK)) {
    const v = Number(stored[k] ?? LOOK[k]);
    $(`look-${k}`).value = String(Number.isFinite(v) ? v : LOOK[k]);
  }
  applyLook();
}

function applyLook() {
  const v = (k) => Number($(`look-${k}`).value);
  const table = $("table");
  const warm = v("warmth") / 100;
  table.style.setProperty("--contrast", String(v("contrast") / 100));
  table.style.setProperty("--grain", String(v("grain") / 100));
  table.style.setProperty("--tint", warm >= 0 ? `rgba(255, 138, 0, ${0.45 * warm})` : `rgba(0, 110, 255, ${-0.45 * warm})`);
  localStorage.setItem("skat-look", JSON.stringify(Object.fromEntries(Object.keys(LOOK).map((k) => [k, v(k)]))));
}

function resetLook() {
  localStorage.removeItem("skat-look");
  loadLook();
}

function setMode(m) {
  mode = m;
  document.querySelectorAll(".tab").forEach((x) => x.classList.toggle("active", x.dataset.mode === m));
  showGuide();
  $("rules").classList.toggle("hidden", m !== "rules");
  $("table-area").classList.toggle("hidden", m === "rules");
  $("sidebar").classList.toggle("hidden", m === "rules");
  $("play-side").classList.toggle("hidden", m !== "play");
  $("watch-side").classList.toggle("hidden", m !== "watch");
  $("watch-controls").classList.toggle("hidden", m !== "watch");
  $("end-panel").classList.add("hidden");
  if (m === "rules") {
    $("rules").innerHTML = rulesHtml();
  } else if (m === "play") {
    if (play.state) renderPlay();
    else if (!play.busy && !friends.id) resumeOrStart();
  } else {
    $("actions").innerHTML = "";
    if (watch.data) renderWatch();
    else {
      for (const id of ["seat-left", "seat-right", "seat-bottom", "trick", "skat", "centre-note", "log"]) $(id).innerHTML = "";
      status(t("st.choose"));
    }
  }
}

function showGuide() {
  // The first-game guide: in the Play tab until the player dismisses it (Help shows it again).
  $("guide").classList.toggle("hidden", mode !== "play" || localStorage.getItem("skat-guide") === "done");
}

function applyStatic() {
  document.documentElement.lang = lang;
  document.title = t("title");
  document.querySelectorAll("[data-i18n]").forEach((x) => { x.textContent = t(x.dataset.i18n); });
  document.querySelectorAll("[data-i18n-title]").forEach((x) => { x.title = t(x.dataset.i18nTitle); });
  $("wiki").href = t("wiki.url");
  for (const id of ["opp-1", "opp-2"]) {
    for (const o of $(id).options) o.textContent = agentName(o.value);
  }
}

function redraw() {
  applyStatic();
  renderScores();
  renderFriends();
  loadStats();
  renderRecordList();
  setMode(mode);
}

async function init() {
  const langSel = $("lang");
  Object.keys(LANGUAGES).forEach((k) => langSel.appendChild(new Option(LANGUAGES[k], k)));
  langSel.value = lang;
  $("deck").value = deck;
  document.body.classList.toggle("deck-german", deck === "german");
  $("pace").value = String(pace);
  applyStatic();
  langSel.addEventListener("change", (e) => {
    lang = e.target.value;
    localStorage.setItem("skat-lang", lang);
    redraw();
  });
  $("deck").addEventListener("change", (e) => {
    deck = e.target.value;
    document.body.classList.toggle("deck-german", deck === "german");
    localStorage.setItem("skat-deck", deck);
    redraw();
  });
  $("pace").addEventListener("change", (e) => {
    pace = Number(e.target.value);
    localStorage.setItem("skat-pace", String(pace));
  });
  document.querySelectorAll(".tab[data-mode]").forEach((x) => x.addEventListener("click", () => setMode(x.dataset.mode)));
  $("guide-close").addEventListener("click", () => {
    localStorage.setItem("skat-guide", "done");
    showGuide();
  });
  $("help").addEventListener("click", () => {
    localStorage.removeItem("skat-guide");
    setMode("play");
    $("guide").scrollIntoView({ block: "nearest" });
  });
  $("new-game").addEventListener("click", newGame);
  for (const k of Object.keys(LOOK)) $(`look-${k}`).addEventListener("input", applyLook);
  $("look-reset").addEventListener("click", resetLook);
  loadLook();
  $("w-first").addEventListener("click", () => watchStep(0));
  $("w-prev").addEventListener("click", () => watchStep(watch.step - 1));
  $("w-next").addEventListener("click", () => watchStep(watch.step + 1));
  $("w-last").addEventListener("click", () => watchStep(watch.steps));
  $("w-step").addEventListener("input", (e) => watchStep(Number(e.target.value)));
  $("w-view").addEventListener("change", () => loadWatch(watch.step));
  $("upload").addEventListener("change", (e) => e.target.files[0] && upload(e.target.files[0]));
  document.addEventListener("keydown", (e) => {
    if (mode !== "watch" || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") watchStep(watch.step + 1);
    if (e.key === "ArrowLeft") watchStep(watch.step - 1);
  });
  const config = await api("GET", "/api/config");
  for (const [i, id] of [[0, "opp-1"], [1, "opp-2"]]) {
    const sel = $(id);
    config.allowed.forEach((s) => sel.appendChild(new Option(agentName(s), s)));
    sel.value = config.opponents[i];
  }
  addRecords(config.records);
  renderScores();
  renderFriends();
  loadStats();
  if (friends.id) await resumeTable();
  const start = params.get("mode");
  setMode(["watch", "rules"].includes(start) ? start : "play");
}

init().catch((e) => status(t("st.offline", { msg: e.message }), true));
