// Every string of the page, in English, German and Thai. app.js looks texts up here with
// t(key, {params}); "{name}" marks a parameter. Keys ending in ".you" are the variant for
// the human player ("You take the trick"), picked when the subject is the human.
"use strict";

const LANGUAGES = { en: "English", de: "Deutsch", th: "ไทย" };

const I18N = {
  en: {
    "lang.en": "English", "lang.de": "Deutsch", "lang.th": "ไทย",
    title: "Skat",
    "tab.play": "Play", "tab.watch": "Watch", "tab.rules": "Rules",
    "opt.language": "Language", "opt.cards": "Cards", "opt.pace": "Pace",
    "deck.french": "French suits", "deck.german": "German suits",
    "look.title": "Picture", "look.contrast": "Contrast", "look.grain": "Grain",
    "look.warmth": "Colour temperature", "look.reset": "Reset",
    "wiki.label": "Skat on Wikipedia", "wiki.url": "https://en.wikipedia.org/wiki/Skat_(card_game)",
    "pace.1400": "slow", "pace.800": "normal", "pace.300": "fast", "pace.0": "instant",
    "side.new": "New game", "side.left": "Left", "side.right": "Right", "side.this": "This game",
    "side.scores": "Score list", "side.records": "Records", "side.moves": "Moves", "side.record": "Record",
    "upload.label": "Open a record file (.jsonl or ISS .sgf)",
    "upload.done": "{n} record(s) from {file}", "upload.skipped": "{n} skipped (hidden deal)",
    "upload.notutf8": "{file} is not UTF-8 text; save it as UTF-8 and open it again.",
    "upload.more": "Showing the first {n} of {total} records.",
    "w.first": "first move", "w.prev": "back one move", "w.next": "forward one move", "w.last": "last move",
    "w.counter": "move {k} / {n}", "w.show": "Show", "w.all": "all hands", "w.view": "{name}'s view",
    you: "You", player: "player {n}",
    "agent.random": "Random", "agent.heuristic": "Heuristic", "agent.pimc": "PIMC search", "agent.oracle": "Oracle",
    forehand: "forehand", middlehand: "middlehand", rearhand: "rearhand",
    "badge.dealer": "dealer", "badge.declarer": "declarer", "badge.said": "said {n}", "badge.passed": "passed",
    "badge.passedat": "{n} · passed", "badge.tricks": "tricks: {t} · points: {p}",
    "badge.yourturn": "your turn", "badge.toact": "to act", "badge.thinking": "thinking… {s} s",
    "note.trick.led": "Trick {n} · led by {who}", "note.trick.led.you": "Trick {n} · you led",
    "note.trick.leads": "Trick {n} · {who} leads", "note.trick.leads.you": "Trick {n} · your lead",
    "note.takes": "{who} takes the trick", "note.takes.you": "You take the trick",
    "note.bid": "Bid: {n}", "note.bidding": "Bidding", "note.skat": "Skat",
    "note.won": "{who} won the bidding at {n}", "note.won.you": "You won the bidding at {n}",
    "log.bid": "{who} bids {n}", "log.bid.you": "You bid {n}",
    "log.hold": "{who} holds", "log.hold.you": "You hold",
    "log.pass": "{who} passes", "log.pass.you": "You pass",
    "log.pickup": "{who} picks up the skat", "log.pickup.you": "You pick up the skat",
    "log.hand": "{who} plays hand", "log.hand.you": "You play hand",
    "log.declare": "{who} declares {contract}", "log.declare.you": "You declare {contract}",
    "log.card": "{who} plays {card}", "log.card.you": "You play {card}",
    "log.discard": "{who} puts away {card}", "log.discard.you": "You put away {card}",
    "log.discard.hidden": "{who} puts away a card",
    "log.trick": "→ {who} takes trick {n}", "log.trick.you": "→ you take trick {n}",
    "log.time": "({s} s)",
    "st.dealing": "Dealing…", "st.thinking": "{who} is thinking… {s} s",
    "st.offline": "Cannot reach the server: {msg}", "st.server": "The server says: {msg}",
    "st.choose": "Choose a record in the list, or open a record file.", "st.start": "The deal, before the first move.",
    "ask.hold": "{who} says {n}. Hold or pass?", "ask.open": "Both others passed. Play at 18, or pass (nobody plays)?",
    "ask.higher": "The bid stands at {n}. Bid higher or pass.", "ask.first": "You bid first: name a value or pass.",
    "ask.skat": "You won the bidding at {n}. Pick up the skat or play hand?",
    "ask.discard2": "Put away two cards: click two, then confirm.", "ask.discard1": "Put away one more card: click it, then confirm.",
    "ask.declare": "Declare your game (bid {n}).",
    "ask.follow": "Your turn: follow with a raised card.", "ask.lead": "Your lead: play any card.",
    "btn.hold": "Hold {n} (yes)", "btn.bid": "Bid {n}", "btn.bidthis": "Bid this", "btn.pass": "Pass",
    "btn.pickup": "Pick up the skat", "btn.hand": "Play hand (leave the skat)",
    "btn.discard2": "Put away these two", "btn.discard1": "Put away this card", "btn.selected": "Selected {k} of {n}.",
    "btn.next": "Next game", "btn.download": "Download record (.jsonl)",
    "game.grand": "Grand", "game.null": "Null", "game.hand": "Hand", "game.ouvert": "Ouvert",
    "game.schneider": "Schneider", "game.schwarz": "Schwarz",
    "ann.schneider": "Schneider announced", "ann.schwarz": "Schwarz announced", "ann.ouvert": "Ouvert",
    "end.passed": "Passed in", "end.passed.text": "Nobody bid: the game is not played and scores nothing.",
    "end.won": "{who} won {contract}", "end.won.you": "You won {contract}",
    "end.lost": "{who} lost {contract}", "end.lost.you": "You lost {contract}",
    "end.points": "Card points (declarer : defenders)", "end.points.why": "the declarer's tricks and the skat; 61 wins",
    "end.tricks": "Tricks of the declarer",
    "end.null": "Game value (Null, fixed)", "end.null.why": "Null 23, Null Hand 35, Null Ouvert 46, Null Ouvert Hand 59",
    "lv.with": "with {n}", "lv.with.why": "the declarer's twelve cards hold the top {n} trumps in a row: {cards}",
    "lv.without": "without {n}", "lv.without.why": "the top {n} trumps are missing in a row: {cards}",
    "lv.game": "game", "lv.game.why": "one for the game itself",
    "lv.hand": "hand", "lv.hand.why": "the skat was not picked up",
    "lv.schneider": "Schneider", "lv.schneider.why": "a side has 30 card points or fewer (or it was announced)",
    "lv.schneider announced": "Schneider announced", "lv.schneider announced.why": "announced before the first card",
    "lv.schwarz": "Schwarz", "lv.schwarz.why": "a side took no trick (or it was announced)",
    "lv.schwarz announced": "Schwarz announced", "lv.schwarz announced.why": "announced before the first card",
    "lv.ouvert": "Ouvert", "lv.ouvert.why": "played with the cards open",
    "end.value": "Game value: {levels} × {base}", "end.value.why": "multiplier (the lines above) × base value of {game}",
    "end.bid": "Bid", "end.overbid": "Overbid: valued at {n}", "end.overbid.why": "the smallest multiple of the base value that reaches the bid",
    "end.early": "Ended early", "end.early.why": "the loss was certain",
    "end.yes": "yes",
    "end.score.won": "Won: list score + value", "end.score.lost": "Lost: list score −2 × value",
    "end.sf": "Seeger-Fabian", "end.sf.points": "points",
    "end.sf.why": "won: value + 50; lost: −2 × value − 50, and each defender +40",
    "end.deal": "The deal", "end.skat": "Skat", "end.putaway": "Put away", "end.who": "{name} ({position})",
    "info.you": "You", "info.yourseat": "{position}", "info.dealer": "Dealer", "info.bid": "Bid",
    "info.declarer": "Declarer", "info.game": "Game", "info.putaway": "Put away",
    "info.last": "Last trick", "info.takenby": "taken by",
    "sc.num": "#", "sc.game": "Game", "sc.total": "List total", "sc.sf": "Seeger-Fabian",
    "sc.empty": "Finished games appear here.", "sc.passed": "passed in",
    "rec.line": "{file}, line {n}", "rec.iss": "ISS {id}", "rec.nocontract": "no contract", "rec.passed": "passed in",
    "rec.unfinished": "not played out",
    "status.resigned": "resigned", "status.claimed": "claimed (the declarer showed the cards)",
    "status.timeout": "time ran out", "status.left": "a player left", "status.hidden": "the file hides the rest of the moves",
    "status.penalty": "penalty", "status.running": "still running",
    "watch.unfinished": "Not played to the end: {status}.",
    "watch.recorded": "The file records this result (not played out): {result}",
    "watch.recorded.won": "{who} won {contract}: {score}", "watch.recorded.lost": "{who} lost {contract}: {score}",
    "watch.recorded.none": "no declarer, no score",
    "watch.recorded.more": "{p} card points, {t} tricks",
    "watch.next": "Next: {text}", "watch.game": "Game: {contract} by {who}",
    rules: `
<h2>Skat in short</h2>
<p>Three players, 32 cards. One player, the <b>declarer</b>, plays alone against the other two.</p>
<h3>Cards and points</h3>
<p>{A} 11, {T} 10, {K} 4, {Q} 3, {J} 2, {9}, {8} and {7} 0. The deck holds 120 points; the declarer needs 61 to win.</p>
<h3>Dealing</h3>
<p>Everyone gets ten cards; two lie face down as the <b>skat</b>. The player after the dealer is <b>forehand</b>, then <b>middlehand</b>, then <b>rearhand</b>. Forehand leads to the first trick.</p>
<h3>The auction</h3>
<p>Middlehand bids to forehand with game values (18, 20, 22, 23, 24, 27, 30, …); forehand answers <b>hold</b> (yes) or <b>pass</b>. Then rearhand bids to the one left. The last player in is the declarer. If everybody passes, the game is not played.</p>
<h3>The skat</h3>
<p>The declarer picks up the skat and puts away any two cards, or plays <b>hand</b> without looking at it (one level more). The skat counts for the declarer.</p>
<h3>Contracts</h3>
<ul><li><b>Suit game</b> ({D} 9, {H} 10, {S} 11, {C} 12): the four {jacks} and that suit are trumps.</li>
<li><b>Grand</b> (24): only the four {jacks} are trumps.</li>
<li><b>Null</b>: no trumps; the declarer must take no trick (fixed value 23, Hand 35, Ouvert 46, Ouvert Hand 59).</li></ul>
<p>In a hand game the declarer may announce <b>Schneider</b> (90 points), <b>Schwarz</b> (every trick) or <b>Ouvert</b> (cards open).</p>
<h3>Playing</h3>
<p>Follow suit if you can ({jacks} count as trumps, not as their suit); otherwise play any card. The highest trump wins the trick, else the highest card of the suit led. Order of the {jacks}: {jackorder}; then {order}.</p>
<h3>Game value</h3>
<p>Base value × multiplier. The multiplier is the number of <b>matadors</b> (top trumps held in a row, "with", or missing in a row, "without") + 1 for the game, + 1 each for hand, Schneider, Schneider announced, Schwarz, Schwarz announced, Ouvert. A game worth less than the bid is lost (<b>overbid</b>).</p>
<h3>Scoring</h3>
<p>Won: + value. Lost: −2 × value. Seeger-Fabian points: won + value + 50, lost −2 × value − 50, and each defender + 40 when the declarer loses.</p>`,
    suits: {
      french: { C: "Clubs", S: "Spades", H: "Hearts", D: "Diamonds" },
      german: { C: "Acorns", S: "Leaves", H: "Hearts", D: "Bells" },
    },
    ranks: {
      french: { A: "A", K: "K", Q: "Q", J: "J", T: "10", 9: "9", 8: "8", 7: "7" },
      german: { A: "D", K: "K", Q: "O", J: "U", T: "10", 9: "9", 8: "8", 7: "7" },
    },
    rankWords: {
      french: { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven" },
      german: { A: "Deuce", K: "King", Q: "Ober", J: "Unter", T: "Ten", 9: "Nine", 8: "Eight", 7: "Seven" },
    },
    jacks: { french: "jacks", german: "Unters" },
    card: "{rank} of {suit}",
  },

  de: {
    "lang.en": "English", "lang.de": "Deutsch", "lang.th": "ไทย",
    title: "Skat",
    "tab.play": "Spielen", "tab.watch": "Zuschauen", "tab.rules": "Regeln",
    "opt.language": "Sprache", "opt.cards": "Blatt", "opt.pace": "Tempo",
    "deck.french": "Französisches Blatt", "deck.german": "Deutsches Blatt",
    "look.title": "Bild", "look.contrast": "Kontrast", "look.grain": "Körnung",
    "look.warmth": "Farbtemperatur", "look.reset": "Zurücksetzen",
    "wiki.label": "Skat in der Wikipedia", "wiki.url": "https://de.wikipedia.org/wiki/Skat",
    "pace.1400": "langsam", "pace.800": "normal", "pace.300": "schnell", "pace.0": "sofort",
    "side.new": "Neues Spiel", "side.left": "Links", "side.right": "Rechts", "side.this": "Dieses Spiel",
    "side.scores": "Spielliste", "side.records": "Spielprotokolle", "side.moves": "Züge", "side.record": "Protokoll",
    "upload.label": "Protokolldatei öffnen (.jsonl oder ISS .sgf)",
    "upload.done": "{n} Spiel(e) aus {file}", "upload.skipped": "{n} übersprungen (verdecktes Blatt)",
    "upload.notutf8": "{file} ist kein UTF-8-Text; bitte als UTF-8 speichern und erneut öffnen.",
    "upload.more": "Die ersten {n} von {total} Spielen werden gezeigt.",
    "w.first": "zum ersten Zug", "w.prev": "einen Zug zurück", "w.next": "einen Zug vor", "w.last": "zum letzten Zug",
    "w.counter": "Zug {k} / {n}", "w.show": "Zeigen", "w.all": "alle Karten", "w.view": "Sicht von {name}",
    you: "Du", player: "Spieler {n}",
    "agent.random": "Zufall", "agent.heuristic": "Heuristik", "agent.pimc": "PIMC-Suche", "agent.oracle": "Orakel",
    forehand: "Vorhand", middlehand: "Mittelhand", rearhand: "Hinterhand",
    "badge.dealer": "Geber", "badge.declarer": "Alleinspieler", "badge.said": "sagt {n}", "badge.passed": "passt",
    "badge.passedat": "{n} · passt", "badge.tricks": "Stiche: {t} · Augen: {p}",
    "badge.yourturn": "du bist dran", "badge.toact": "ist dran", "badge.thinking": "denkt nach … {s} s",
    "note.trick.led": "Stich {n} · {who} spielt aus", "note.trick.led.you": "Stich {n} · du hast ausgespielt",
    "note.trick.leads": "Stich {n} · {who} kommt raus", "note.trick.leads.you": "Stich {n} · du kommst raus",
    "note.takes": "{who} bekommt den Stich", "note.takes.you": "Du bekommst den Stich",
    "note.bid": "Reizwert: {n}", "note.bidding": "Reizen", "note.skat": "Skat",
    "note.won": "{who} hat das Reizen bei {n} gewonnen", "note.won.you": "Du hast das Reizen bei {n} gewonnen",
    "log.bid": "{who} reizt {n}", "log.bid.you": "Du reizt {n}",
    "log.hold": "{who} hält (ja)", "log.hold.you": "Du hältst (ja)",
    "log.pass": "{who} passt", "log.pass.you": "Du passt",
    "log.pickup": "{who} nimmt den Skat auf", "log.pickup.you": "Du nimmst den Skat auf",
    "log.hand": "{who} spielt Hand", "log.hand.you": "Du spielst Hand",
    "log.declare": "{who} sagt {contract} an", "log.declare.you": "Du sagst {contract} an",
    "log.card": "{who} spielt {card}", "log.card.you": "Du spielst {card}",
    "log.discard": "{who} drückt {card}", "log.discard.you": "Du drückst {card}",
    "log.discard.hidden": "{who} drückt eine Karte",
    "log.trick": "→ {who} bekommt Stich {n}", "log.trick.you": "→ du bekommst Stich {n}",
    "log.time": "({s} s)",
    "st.dealing": "Es wird gegeben …", "st.thinking": "{who} denkt nach … {s} s",
    "st.offline": "Der Server ist nicht erreichbar: {msg}", "st.server": "Der Server meldet: {msg}",
    "st.choose": "Wähle ein Spiel aus der Liste oder öffne eine Protokolldatei.", "st.start": "Das Blatt vor dem ersten Zug.",
    "ask.hold": "{who} sagt {n}. Hältst du oder passt du?", "ask.open": "Beide anderen haben gepasst. Spielst du für 18 oder passt du (eingepasst)?",
    "ask.higher": "Der Reizwert steht bei {n}. Reize höher oder passe.", "ask.first": "Du reizt zuerst: nenne einen Wert oder passe.",
    "ask.skat": "Du hast das Reizen bei {n} gewonnen. Skat aufnehmen oder Hand spielen?",
    "ask.discard2": "Drücke zwei Karten: klicke zwei an und bestätige.", "ask.discard1": "Drücke noch eine Karte: klicke sie an und bestätige.",
    "ask.declare": "Sag dein Spiel an (Reizwert {n}).",
    "ask.follow": "Du bist dran: bediene mit einer hervorgehobenen Karte.", "ask.lead": "Du kommst raus: spiele eine beliebige Karte.",
    "btn.hold": "{n} halten (ja)", "btn.bid": "{n} reizen", "btn.bidthis": "Diesen Wert reizen", "btn.pass": "Passen",
    "btn.pickup": "Skat aufnehmen", "btn.hand": "Hand spielen (Skat liegen lassen)",
    "btn.discard2": "Diese zwei drücken", "btn.discard1": "Diese Karte drücken", "btn.selected": "{k} von {n} gewählt.",
    "btn.next": "Nächstes Spiel", "btn.download": "Protokoll herunterladen (.jsonl)",
    "game.grand": "Grand", "game.null": "Null", "game.hand": "Hand", "game.ouvert": "Ouvert",
    "game.schneider": "Schneider", "game.schwarz": "Schwarz",
    "ann.schneider": "Schneider angesagt", "ann.schwarz": "Schwarz angesagt", "ann.ouvert": "Ouvert",
    "end.passed": "Eingepasst", "end.passed.text": "Niemand hat gereizt: das Spiel wird nicht gespielt und zählt nichts.",
    "end.won": "{who} gewinnt {contract}", "end.won.you": "Du gewinnst {contract}",
    "end.lost": "{who} verliert {contract}", "end.lost.you": "Du verlierst {contract}",
    "end.points": "Augen (Alleinspieler : Gegenspieler)", "end.points.why": "Stiche des Alleinspielers und der Skat; 61 gewinnen",
    "end.tricks": "Stiche des Alleinspielers",
    "end.null": "Spielwert (Null, fest)", "end.null.why": "Null 23, Null Hand 35, Null Ouvert 46, Null Ouvert Hand 59",
    "lv.with": "mit {n}", "lv.with.why": "die zwölf Karten des Alleinspielers enthalten die {n} höchsten Trümpfe lückenlos: {cards}",
    "lv.without": "ohne {n}", "lv.without.why": "die {n} höchsten Trümpfe fehlen lückenlos: {cards}",
    "lv.game": "Spiel", "lv.game.why": "eine Stufe für das Spiel selbst",
    "lv.hand": "Hand", "lv.hand.why": "der Skat wurde nicht aufgenommen",
    "lv.schneider": "Schneider", "lv.schneider.why": "eine Partei hat höchstens 30 Augen (oder es wurde angesagt)",
    "lv.schneider announced": "Schneider angesagt", "lv.schneider announced.why": "vor der ersten Karte angesagt",
    "lv.schwarz": "Schwarz", "lv.schwarz.why": "eine Partei hat keinen Stich (oder es wurde angesagt)",
    "lv.schwarz announced": "Schwarz angesagt", "lv.schwarz announced.why": "vor der ersten Karte angesagt",
    "lv.ouvert": "Ouvert", "lv.ouvert.why": "mit offenen Karten gespielt",
    "end.value": "Spielwert: {levels} × {base}", "end.value.why": "Stufen (die Zeilen darüber) × Grundwert von {game}",
    "end.bid": "Reizwert", "end.overbid": "Überreizt: gewertet mit {n}", "end.overbid.why": "das kleinste Vielfache des Grundwerts, das den Reizwert erreicht",
    "end.early": "Vorzeitig beendet", "end.early.why": "der Verlust stand fest",
    "end.yes": "ja",
    "end.score.won": "Gewonnen: Listenwert + Spielwert", "end.score.lost": "Verloren: Listenwert −2 × Spielwert",
    "end.sf": "Seeger-Fabian", "end.sf.points": "Punkte",
    "end.sf.why": "gewonnen: Spielwert + 50; verloren: −2 × Spielwert − 50, und jeder Gegenspieler +40",
    "end.deal": "Die Verteilung", "end.skat": "Skat", "end.putaway": "Gedrückt", "end.who": "{name} ({position})",
    "info.you": "Du", "info.yourseat": "{position}", "info.dealer": "Geber", "info.bid": "Reizwert",
    "info.declarer": "Alleinspieler", "info.game": "Spiel", "info.putaway": "Gedrückt",
    "info.last": "Letzter Stich", "info.takenby": "bekommt",
    "sc.num": "#", "sc.game": "Spiel", "sc.total": "Summe", "sc.sf": "Seeger-Fabian",
    "sc.empty": "Beendete Spiele erscheinen hier.", "sc.passed": "eingepasst",
    "rec.line": "{file}, Zeile {n}", "rec.iss": "ISS {id}", "rec.nocontract": "kein Spiel", "rec.passed": "eingepasst",
    "rec.unfinished": "nicht zu Ende gespielt",
    "status.resigned": "aufgegeben", "status.claimed": "Rest beansprucht (Karten aufgelegt)",
    "status.timeout": "Zeit abgelaufen", "status.left": "ein Spieler hat den Tisch verlassen", "status.hidden": "die Datei verbirgt die restlichen Züge",
    "status.penalty": "Strafe", "status.running": "läuft noch",
    "watch.unfinished": "Nicht zu Ende gespielt: {status}.",
    "watch.recorded": "Laut Datei (nicht ausgespielt): {result}",
    "watch.recorded.won": "{who} gewinnt {contract}: {score}", "watch.recorded.lost": "{who} verliert {contract}: {score}",
    "watch.recorded.none": "kein Alleinspieler, keine Wertung",
    "watch.recorded.more": "{p} Augen, {t} Stiche",
    "watch.next": "Als Nächstes: {text}", "watch.game": "Spiel: {contract} von {who}",
    rules: `
<h2>Skat in Kürze</h2>
<p>Drei Spieler, 32 Karten. Ein Spieler, der <b>Alleinspieler</b>, spielt gegen die beiden anderen.</p>
<h3>Karten und Augen</h3>
<p>{A} 11, {T} 10, {K} 4, {Q} 3, {J} 2, {9}, {8} und {7} 0. Im Spiel sind 120 Augen; der Alleinspieler braucht 61 zum Gewinn.</p>
<h3>Geben</h3>
<p>Jeder bekommt zehn Karten, zwei liegen verdeckt als <b>Skat</b>. Links vom Geber sitzt <b>Vorhand</b>, dann <b>Mittelhand</b>, dann <b>Hinterhand</b>. Vorhand spielt zum ersten Stich aus.</p>
<h3>Reizen</h3>
<p>Mittelhand reizt Vorhand mit Spielwerten (18, 20, 22, 23, 24, 27, 30, …); Vorhand antwortet <b>ja</b> (halten) oder <b>passe</b>. Dann reizt Hinterhand den Übriggebliebenen. Wer zuletzt übrig bleibt, ist Alleinspieler. Passen alle, wird eingepasst.</p>
<h3>Der Skat</h3>
<p>Der Alleinspieler nimmt den Skat auf und drückt zwei beliebige Karten, oder er spielt <b>Hand</b>, ohne ihn anzusehen (eine Stufe mehr). Der Skat zählt für den Alleinspieler.</p>
<h3>Spiele</h3>
<ul><li><b>Farbspiel</b> ({D} 9, {H} 10, {S} 11, {C} 12): die vier {jacks} und die Farbe sind Trumpf.</li>
<li><b>Grand</b> (24): nur die vier {jacks} sind Trumpf.</li>
<li><b>Null</b>: kein Trumpf; der Alleinspieler darf keinen Stich bekommen (fester Wert 23, Hand 35, Ouvert 46, Ouvert Hand 59).</li></ul>
<p>Im Handspiel darf der Alleinspieler <b>Schneider</b> (90 Augen), <b>Schwarz</b> (alle Stiche) oder <b>Ouvert</b> (offene Karten) ansagen.</p>
<h3>Das Spiel</h3>
<p>Farbe muss bedient werden ({jacks} gehören zum Trumpf, nicht zu ihrer Farbe); wer nicht bedienen kann, spielt eine beliebige Karte. Der höchste Trumpf gewinnt den Stich, sonst die höchste Karte der ausgespielten Farbe. Reihenfolge der {jacks}: {jackorder}; dann {order}.</p>
<h3>Spielwert</h3>
<p>Grundwert × Stufen. Stufen sind die <b>Spitzen</b> (höchste Trümpfe lückenlos „mit“ oder lückenlos fehlend „ohne“) + 1 für das Spiel, + je 1 für Hand, Schneider, Schneider angesagt, Schwarz, Schwarz angesagt, Ouvert. Ein Spiel, das weniger wert ist als der Reizwert, ist verloren (<b>überreizt</b>).</p>
<h3>Wertung</h3>
<p>Gewonnen: + Spielwert. Verloren: −2 × Spielwert. Seeger-Fabian: gewonnen + Spielwert + 50, verloren −2 × Spielwert − 50, und jeder Gegenspieler + 40, wenn der Alleinspieler verliert.</p>`,
    suits: {
      french: { C: "Kreuz", S: "Pik", H: "Herz", D: "Karo" },
      german: { C: "Eichel", S: "Grün", H: "Herz", D: "Schellen" },
    },
    ranks: {
      french: { A: "A", K: "K", Q: "D", J: "B", T: "10", 9: "9", 8: "8", 7: "7" },
      german: { A: "A", K: "K", Q: "O", J: "U", T: "10", 9: "9", 8: "8", 7: "7" },
    },
    rankWords: {
      french: { A: "Ass", K: "König", Q: "Dame", J: "Bube", T: "Zehn", 9: "Neun", 8: "Acht", 7: "Sieben" },
      german: { A: "Daus", K: "König", Q: "Ober", J: "Unter", T: "Zehn", 9: "Neun", 8: "Acht", 7: "Sieben" },
    },
    jacks: { french: "Buben", german: "Unter" },
    card: "{suit} {rank}",
  },

  th: {
    "lang.en": "English", "lang.de": "Deutsch", "lang.th": "ไทย",
    title: "สกัต",
    "tab.play": "เล่น", "tab.watch": "ดูเกม", "tab.rules": "กติกา",
    "opt.language": "ภาษา", "opt.cards": "ไพ่", "opt.pace": "ความเร็ว",
    "deck.french": "ไพ่ป๊อก (ฝรั่งเศส)", "deck.german": "ไพ่เยอรมัน",
    "look.title": "ภาพ", "look.contrast": "ความคมชัด", "look.grain": "เกรนภาพ",
    "look.warmth": "อุณหภูมิสี", "look.reset": "ค่าเริ่มต้น",
    "wiki.label": "สกัตในวิกิพีเดีย (ภาษาอังกฤษ)", "wiki.url": "https://en.wikipedia.org/wiki/Skat_(card_game)",
    "pace.1400": "ช้า", "pace.800": "ปกติ", "pace.300": "เร็ว", "pace.0": "ทันที",
    "side.new": "เกมใหม่", "side.left": "ซ้าย", "side.right": "ขวา", "side.this": "เกมนี้",
    "side.scores": "ตารางคะแนน", "side.records": "บันทึกเกม", "side.moves": "ลำดับการเล่น", "side.record": "บันทึก",
    "upload.label": "เปิดไฟล์บันทึกเกม (.jsonl หรือ ISS .sgf)",
    "upload.done": "{n} เกมจาก {file}", "upload.skipped": "ข้าม {n} เกม (ไม่เปิดเผยไพ่)",
    "upload.notutf8": "{file} ไม่ใช่ข้อความ UTF-8 กรุณาบันทึกเป็น UTF-8 แล้วเปิดใหม่",
    "upload.more": "แสดง {n} เกมแรกจากทั้งหมด {total} เกม",
    "w.first": "ไปตาแรก", "w.prev": "ย้อนกลับหนึ่งตา", "w.next": "ไปข้างหน้าหนึ่งตา", "w.last": "ไปตาสุดท้าย",
    "w.counter": "ตาที่ {k} / {n}", "w.show": "แสดง", "w.all": "ไพ่ทุกมือ", "w.view": "มุมมองของ {name}",
    you: "คุณ", player: "ผู้เล่น {n}",
    "agent.random": "สุ่ม", "agent.heuristic": "กลยุทธ์พื้นฐาน", "agent.pimc": "ค้นหา PIMC", "agent.oracle": "ผู้รู้ทุกใบ",
    forehand: "มือแรก", middlehand: "มือกลาง", rearhand: "มือท้าย",
    "badge.dealer": "คนแจก", "badge.declarer": "ผู้เล่นเดี่ยว", "badge.said": "ประมูล {n}", "badge.passed": "ผ่าน",
    "badge.passedat": "{n} · ผ่าน", "badge.tricks": "กอง: {t} · แต้ม: {p}",
    "badge.yourturn": "ตาของคุณ", "badge.toact": "ถึงตา", "badge.thinking": "กำลังคิด… {s} วินาที",
    "note.trick.led": "กองที่ {n} · {who} ลงก่อน", "note.trick.led.you": "กองที่ {n} · คุณลงก่อน",
    "note.trick.leads": "กองที่ {n} · {who} เป็นคนลงก่อน", "note.trick.leads.you": "กองที่ {n} · คุณเป็นคนลงก่อน",
    "note.takes": "{who} ได้กองนี้", "note.takes.you": "คุณได้กองนี้",
    "note.bid": "ประมูล: {n}", "note.bidding": "การประมูล", "note.skat": "สกัต",
    "note.won": "{who} ชนะการประมูลที่ {n}", "note.won.you": "คุณชนะการประมูลที่ {n}",
    "log.bid": "{who} ประมูล {n}", "log.bid.you": "คุณประมูล {n}",
    "log.hold": "{who} รับ", "log.hold.you": "คุณรับ",
    "log.pass": "{who} ผ่าน", "log.pass.you": "คุณผ่าน",
    "log.pickup": "{who} หยิบสกัต", "log.pickup.you": "คุณหยิบสกัต",
    "log.hand": "{who} เล่นแฮนด์", "log.hand.you": "คุณเล่นแฮนด์",
    "log.declare": "{who} ประกาศ {contract}", "log.declare.you": "คุณประกาศ {contract}",
    "log.card": "{who} ลง {card}", "log.card.you": "คุณลง {card}",
    "log.discard": "{who} ทิ้ง {card}", "log.discard.you": "คุณทิ้ง {card}",
    "log.discard.hidden": "{who} ทิ้งไพ่หนึ่งใบ",
    "log.trick": "→ {who} ได้กองที่ {n}", "log.trick.you": "→ คุณได้กองที่ {n}",
    "log.time": "({s} วินาที)",
    "st.dealing": "กำลังแจกไพ่…", "st.thinking": "{who} กำลังคิด… {s} วินาที",
    "st.offline": "ติดต่อเซิร์ฟเวอร์ไม่ได้: {msg}", "st.server": "เซิร์ฟเวอร์แจ้ง: {msg}",
    "st.choose": "เลือกเกมจากรายการ หรือเปิดไฟล์บันทึกเกม", "st.start": "ไพ่ที่แจก ก่อนเริ่มเล่น",
    "ask.hold": "{who} ประมูล {n} คุณจะรับหรือผ่าน?", "ask.open": "อีกสองคนผ่านแล้ว คุณจะเล่นที่ 18 หรือผ่าน (ไม่มีใครเล่น)?",
    "ask.higher": "ราคาประมูลอยู่ที่ {n} ประมูลสูงขึ้นหรือผ่าน", "ask.first": "คุณประมูลก่อน: เลือกค่าหรือผ่าน",
    "ask.skat": "คุณชนะการประมูลที่ {n} จะหยิบสกัตหรือเล่นแฮนด์?",
    "ask.discard2": "ทิ้งไพ่สองใบ: คลิกสองใบ แล้วกดยืนยัน", "ask.discard1": "ทิ้งไพ่อีกหนึ่งใบ: คลิกแล้วกดยืนยัน",
    "ask.declare": "ประกาศเกมของคุณ (ราคาประมูล {n})",
    "ask.follow": "ตาของคุณ: ลงไพ่ที่ยกขึ้นให้ตามดอก", "ask.lead": "คุณลงก่อน: ลงไพ่ใบใดก็ได้",
    "btn.hold": "รับ {n}", "btn.bid": "ประมูล {n}", "btn.bidthis": "ประมูลค่านี้", "btn.pass": "ผ่าน",
    "btn.pickup": "หยิบสกัต", "btn.hand": "เล่นแฮนด์ (ไม่หยิบสกัต)",
    "btn.discard2": "ทิ้งสองใบนี้", "btn.discard1": "ทิ้งใบนี้", "btn.selected": "เลือกแล้ว {k} จาก {n} ใบ",
    "btn.next": "เกมถัดไป", "btn.download": "ดาวน์โหลดบันทึกเกม (.jsonl)",
    "game.grand": "แกรนด์", "game.null": "นูล", "game.hand": "แฮนด์", "game.ouvert": "อูแวร์",
    "game.schneider": "ชไนเดอร์", "game.schwarz": "ชวาร์ซ",
    "ann.schneider": "ประกาศชไนเดอร์", "ann.schwarz": "ประกาศชวาร์ซ", "ann.ouvert": "อูแวร์",
    "end.passed": "ทุกคนผ่าน", "end.passed.text": "ไม่มีใครประมูล: เกมนี้ไม่ได้เล่นและไม่มีคะแนน",
    "end.won": "{who} ชนะ {contract}", "end.won.you": "คุณชนะ {contract}",
    "end.lost": "{who} แพ้ {contract}", "end.lost.you": "คุณแพ้ {contract}",
    "end.points": "แต้มไพ่ (ผู้เล่นเดี่ยว : ฝ่ายตรงข้าม)", "end.points.why": "กองของผู้เล่นเดี่ยวรวมสกัต; 61 แต้มขึ้นไปชนะ",
    "end.tricks": "จำนวนกองของผู้เล่นเดี่ยว",
    "end.null": "ค่าเกม (นูล ค่าคงที่)", "end.null.why": "นูล 23, นูลแฮนด์ 35, นูลอูแวร์ 46, นูลอูแวร์แฮนด์ 59",
    "lv.with": "มี {n}", "lv.with.why": "ไพ่สิบสองใบของผู้เล่นเดี่ยวมีทรัมป์สูงสุด {n} ใบเรียงกัน: {cards}",
    "lv.without": "ไม่มี {n}", "lv.without.why": "ขาดทรัมป์สูงสุด {n} ใบเรียงกัน: {cards}",
    "lv.game": "เกม", "lv.game.why": "หนึ่งขั้นสำหรับตัวเกมเอง",
    "lv.hand": "แฮนด์", "lv.hand.why": "ไม่ได้หยิบสกัต",
    "lv.schneider": "ชไนเดอร์", "lv.schneider.why": "ฝ่ายหนึ่งได้ไม่เกิน 30 แต้ม (หรือประกาศไว้)",
    "lv.schneider announced": "ประกาศชไนเดอร์", "lv.schneider announced.why": "ประกาศก่อนลงไพ่ใบแรก",
    "lv.schwarz": "ชวาร์ซ", "lv.schwarz.why": "ฝ่ายหนึ่งไม่ได้กองเลย (หรือประกาศไว้)",
    "lv.schwarz announced": "ประกาศชวาร์ซ", "lv.schwarz announced.why": "ประกาศก่อนลงไพ่ใบแรก",
    "lv.ouvert": "อูแวร์", "lv.ouvert.why": "เล่นโดยหงายไพ่ให้ทุกคนเห็น",
    "end.value": "ค่าเกม: {levels} × {base}", "end.value.why": "ตัวคูณ (บรรทัดข้างบน) × ค่าฐานของ {game}",
    "end.bid": "ราคาประมูล", "end.overbid": "ประมูลเกินค่า: คิดที่ {n}", "end.overbid.why": "พหุคูณที่น้อยที่สุดของค่าฐานที่ถึงราคาประมูล",
    "end.early": "จบก่อนกำหนด", "end.early.why": "แพ้แน่นอนแล้ว",
    "end.yes": "ใช่",
    "end.score.won": "ชนะ: ได้คะแนน + ค่าเกม", "end.score.lost": "แพ้: เสียคะแนน 2 × ค่าเกม",
    "end.sf": "Seeger-Fabian", "end.sf.points": "คะแนน",
    "end.sf.why": "ชนะ: ค่าเกม + 50; แพ้: −2 × ค่าเกม − 50 และฝ่ายตรงข้ามได้คนละ +40",
    "end.deal": "ไพ่ที่แจก", "end.skat": "สกัต", "end.putaway": "ไพ่ที่ทิ้ง", "end.who": "{name} ({position})",
    "info.you": "คุณ", "info.yourseat": "{position}", "info.dealer": "คนแจก", "info.bid": "ราคาประมูล",
    "info.declarer": "ผู้เล่นเดี่ยว", "info.game": "เกม", "info.putaway": "ไพ่ที่ทิ้ง",
    "info.last": "กองล่าสุด", "info.takenby": "ผู้ได้กอง",
    "sc.num": "#", "sc.game": "เกม", "sc.total": "รวม", "sc.sf": "Seeger-Fabian",
    "sc.empty": "เกมที่จบแล้วจะแสดงที่นี่", "sc.passed": "ทุกคนผ่าน",
    "rec.line": "{file} บรรทัด {n}", "rec.iss": "ISS {id}", "rec.nocontract": "ไม่มีเกม", "rec.passed": "ทุกคนผ่าน",
    "rec.unfinished": "เล่นไม่จบ",
    "status.resigned": "ยอมแพ้", "status.claimed": "ผู้เล่นเดี่ยวหงายไพ่ขอกองที่เหลือ",
    "status.timeout": "หมดเวลา", "status.left": "มีผู้เล่นออกจากโต๊ะ", "status.hidden": "ไฟล์ไม่เปิดเผยการเล่นที่เหลือ",
    "status.penalty": "ถูกปรับ", "status.running": "ยังเล่นอยู่",
    "watch.unfinished": "เล่นไม่จบ: {status}",
    "watch.recorded": "ผลตามที่ไฟล์บันทึกไว้ (ไม่ได้เล่นจนจบ): {result}",
    "watch.recorded.won": "{who} ชนะ {contract}: {score}", "watch.recorded.lost": "{who} แพ้ {contract}: {score}",
    "watch.recorded.none": "ไม่มีผู้เล่นเดี่ยว ไม่มีคะแนน",
    "watch.recorded.more": "{p} แต้ม, {t} กอง",
    "watch.next": "ถัดไป: {text}", "watch.game": "เกม: {contract} โดย {who}",
    rules: `
<h2>สกัตฉบับย่อ</h2>
<p>ผู้เล่นสามคน ไพ่ 32 ใบ ผู้เล่นคนหนึ่งเรียกว่า <b>ผู้เล่นเดี่ยว</b> เล่นคนเดียวสู้กับอีกสองคนที่เป็นฝ่ายตรงข้าม</p>
<h3>ไพ่และแต้ม</h3>
<p>{A} 11 แต้ม, {T} 10, {K} 4, {Q} 3, {J} 2, {9} {8} {7} 0 แต้ม ไพ่ทั้งสำรับมี 120 แต้ม ผู้เล่นเดี่ยวต้องได้ 61 แต้มขึ้นไปจึงชนะ</p>
<h3>การแจกไพ่</h3>
<p>ทุกคนได้ไพ่สิบใบ อีกสองใบคว่ำไว้เรียกว่า <b>สกัต</b> คนถัดจากคนแจกคือ <b>มือแรก</b> ถัดไปคือ <b>มือกลาง</b> และ <b>มือท้าย</b> มือแรกเป็นคนลงไพ่กองแรก</p>
<h3>การประมูล</h3>
<p>มือกลางประมูลกับมือแรกด้วยค่าเกม (18, 20, 22, 23, 24, 27, 30, …) มือแรกตอบว่า <b>รับ</b> หรือ <b>ผ่าน</b> จากนั้นมือท้ายประมูลกับคนที่เหลือ คนสุดท้ายที่ไม่ผ่านเป็นผู้เล่นเดี่ยว ถ้าทุกคนผ่าน เกมนี้ไม่ได้เล่น</p>
<h3>สกัต</h3>
<p>ผู้เล่นเดี่ยวหยิบสกัตขึ้นมาแล้วทิ้งไพ่ใบใดก็ได้สองใบ หรือเล่น <b>แฮนด์</b> โดยไม่ดูสกัต (ได้เพิ่มหนึ่งขั้น) แต้มในสกัตเป็นของผู้เล่นเดี่ยว</p>
<h3>ประเภทเกม</h3>
<ul><li><b>เกมดอก</b> ({D} 9, {H} 10, {S} 11, {C} 12): {jacks}ทั้งสี่ใบและไพ่ดอกนั้นเป็นทรัมป์</li>
<li><b>แกรนด์</b> (24): มีแต่{jacks}ทั้งสี่ใบเป็นทรัมป์</li>
<li><b>นูล</b>: ไม่มีทรัมป์ ผู้เล่นเดี่ยวต้องไม่ได้กองเลย (ค่าคงที่ 23, แฮนด์ 35, อูแวร์ 46, อูแวร์แฮนด์ 59)</li></ul>
<p>ในเกมแฮนด์ ผู้เล่นเดี่ยวประกาศเพิ่มได้: <b>ชไนเดอร์</b> (ได้ 90 แต้ม), <b>ชวาร์ซ</b> (ได้ทุกกอง) หรือ <b>อูแวร์</b> (หงายไพ่)</p>
<h3>การเล่น</h3>
<p>ต้องลงไพ่ตามดอกที่ลงก่อนถ้ามี ({jacks}นับเป็นทรัมป์ ไม่ใช่ดอกของมัน) ถ้าไม่มีลงใบใดก็ได้ ทรัมป์ที่สูงที่สุดได้กอง ถ้าไม่มีทรัมป์ ไพ่สูงสุดของดอกที่ลงก่อนได้กอง ลำดับ{jacks}: {jackorder} แล้ว {order}</p>
<h3>ค่าเกม</h3>
<p>ค่าฐาน × ตัวคูณ ตัวคูณคือจำนวน <b>มาทาดอร์</b> (ทรัมป์สูงสุดที่ถือเรียงกันเรียกว่า "มี" หรือที่ขาดเรียงกันเรียกว่า "ไม่มี") + 1 สำหรับเกม และ + 1 สำหรับแฮนด์ ชไนเดอร์ ประกาศชไนเดอร์ ชวาร์ซ ประกาศชวาร์ซ อูแวร์ อย่างละหนึ่ง เกมที่มีค่าน้อยกว่าราคาประมูลถือว่าแพ้ (<b>ประมูลเกินค่า</b>)</p>
<h3>การนับคะแนน</h3>
<p>ชนะ: + ค่าเกม แพ้: −2 × ค่าเกม คะแนน Seeger-Fabian: ชนะ + ค่าเกม + 50, แพ้ −2 × ค่าเกม − 50 และฝ่ายตรงข้ามได้คนละ + 40 เมื่อผู้เล่นเดี่ยวแพ้</p>`,
    suits: {
      french: { C: "ดอกจิก", S: "โพดำ", H: "โพแดง", D: "ข้าวหลามตัด" },
      german: { C: "ลูกโอ๊ก", S: "ใบไม้", H: "หัวใจ", D: "กระดิ่ง" },
    },
    ranks: {
      french: { A: "A", K: "K", Q: "Q", J: "J", T: "10", 9: "9", 8: "8", 7: "7" },
      german: { A: "A", K: "K", Q: "O", J: "U", T: "10", 9: "9", 8: "8", 7: "7" },
    },
    rankWords: {
      french: { A: "เอซ", K: "คิง", Q: "ควีน", J: "แจ็ค", T: "สิบ", 9: "เก้า", 8: "แปด", 7: "เจ็ด" },
      german: { A: "เดาส์", K: "คิง", Q: "โอเบอร์", J: "อุนเทอร์", T: "สิบ", 9: "เก้า", 8: "แปด", 7: "เจ็ด" },
    },
    jacks: { french: "แจ็ค", german: "อุนเทอร์" },
    card: "{rank}{suit}",
  },
};
