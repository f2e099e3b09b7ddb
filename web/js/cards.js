// Card faces drawn by the page (CSS and a little SVG-free text), nothing
// fetched. A card's code is the game's own text, as in the views: a rank
// (A, 2..10, J, Q, K) and a suit letter (c d h s), e.g. "7h", "10d", "Qs".

const SUITS = {
  c: { name: "clubs", symbol: "\u2663" },
  d: { name: "diamonds", symbol: "\u2666" },
  h: { name: "hearts", symbol: "\u2665" },
  s: { name: "spades", symbol: "\u2660" },
};
const RANKS = {
  A: "ace", J: "jack", Q: "queen", K: "king",
};

/** Rank and suit letter of a card code, or null when it is not a card. */
export function parseCard(code) {
  const m = /^(10|[2-9AJQK])([cdhs])$/i.exec(String(code || ""));
  if (!m) return null;
  return { rank: m[1].toUpperCase(), suit: m[2].toLowerCase() };
}

/** "7h" -> "7 of hearts", "Qs" -> "queen of spades"; other text unchanged. */
export function cardName(code) {
  const c = parseCard(code);
  if (!c) return String(code);
  return `${RANKS[c.rank] || c.rank} of ${SUITS[c.suit].name}`;
}

/** "7h" -> "7♥" (the short text of a card, e.g. inside a sentence). */
export function cardText(code) {
  const c = parseCard(code);
  return c ? c.rank + SUITS[c.suit].symbol : String(code);
}

export function suitSymbol(letter) {
  return SUITS[letter] ? SUITS[letter].symbol : letter;
}

export function suitName(letter) {
  return SUITS[letter] ? SUITS[letter].name : letter;
}

/**
 * A card's element: a <button> when opts.button (focusable, for a hand or a
 * choice), else a <span>. It carries data-card (the code), aria-label (the
 * card's name), class "card" and the suit as "suit-h" etc.; the CSS draws
 * the face (two colours, or four when opts.fourColour: the page also sets
 * body.four-colour, which the CSS follows, so either works).
 */
export function cardElement(code, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  if (opts.button) el.type = "button";
  el.className = "card";
  el.dataset.card = code;
  const c = parseCard(code);
  if (!c) {
    el.classList.add("card-back");
    el.setAttribute("aria-label", opts.label || "a hidden card");
    return el;
  }
  el.classList.add("suit-" + c.suit);
  if (opts.fourColour) el.classList.add("four");
  if (!opts.button) el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  const sym = SUITS[c.suit].symbol;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = c.rank + sym;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = sym;
  el.append(corner, pip);
  return el;
}

/** The back of a card (a hidden one), with a label such as "a card in the pack". */
export function cardBack(label) {
  const el = document.createElement("span");
  el.className = "card card-back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label || "a hidden card");
  return el;
}
