// The boards: a game's name (welcome.game) -> its board module, loaded
// when a table of that game opens. Diloti and Kontsina are one game to
// the server ("diloti", their rules tell them apart).
//
// A board module exports createBoard(root, api) returning
//   { update(state), event(ev), result(res), destroy() }
// and optionally describe(ev) -> a sentence for the log (else the shell
// writes the event's own text), and describeHistory(h) -> the same for a
// move of the welcome's history (seat, kind and its text only; null: the
// shell writes the text). result(res) may return an element: the
// shell shows it in #result (else a plain score table).
// state: the protocol's `state` message (view, phase, turn, moves); ev: an
// `event` message's event; res: a `result` message.
// api: { seat, spectator, welcome, send(moveText), cardElement(code, opts),
//   cardName(code), cardText(code), ruleLink(id) -> <a class="rule">,
//   fourColour() -> bool, name(seat) -> the seat's name ("You" for one's own),
//   sideName(side) }
// The board draws the hand too (#hand, focusable .card buttons for the
// seat to move) and everything of the game inside root; the shell owns
// the rest (#seats, #moves, #movebox, #refusal, #advice, #log, #score,
// #result).
const BOARDS = {
  diloti: () => import("./diloti.js"),
  pilotta: () => import("./pilotta.js"),
};

/** A table's title: the game's name as people say it, and how many play. */
export function gameTitle(w) {
  const r = w.rules || {};
  const g = w.game === "pilotta" ? "Pilotta" : (r.declarations === false ? "Kontsina" : "Diloti");
  return `${g}, ${w.players} players${w.spectator ? " (watching)" : ""}`;
}

/** How many sides score before the view says (a game of partners: 2). */
export function sidesOf(w) {
  return w && w.game === "pilotta" ? 2 : (w && w.players) || 0;
}

/** The board module of a game, or null when there is none. */
export async function boardFor(game) {
  const load = BOARDS[game];
  if (!load) return null;
  try {
    return await load();
  } catch (e) {
    console.error("the board of", game, "did not load:", e);
    return null;
  }
}
