// What changed since you last looked. Every drawn piece marked data-key (its key made unique by
// the nearest data-key-scope: "player-2:doubloons") is remembered by its text, which names its
// state (its <title> says "Small market, 1 colonist"), and by its data-state where the drawing
// alone shows it (whose ship is on a field). When the board is swapped in (a poll, a
// move) or the page opens or comes back into view, each piece whose text differs from what this
// browser last showed of it is highlighted for a few seconds. The texts are kept per game in
// localStorage and written only while the page is seen, so a move made while the tab was
// hidden, or the page closed, is highlighted when the player looks again.
(function () {
  "use strict";

  const STORE = "puerto:seen";
  const GAMES_KEPT = 30; // the games whose last look is remembered, the latest looked at
  const SHOWN_MS = 4000;

  const page = document.querySelector(".game-page[data-game]");
  if (!page) return;
  const game = page.dataset.game;

  const keyOf = (piece) => {
    const scope = piece.parentElement.closest("[data-key-scope]");
    return (scope ? scope.dataset.keyScope + ":" : "") + piece.dataset.key;
  };
  const textOf = (piece) =>
    `${piece.textContent} ${piece.dataset.state || ""}`.replace(/\s+/g, " ").trim();

  const load = () => {
    try {
      return JSON.parse(localStorage.getItem(STORE)) || {};
    } catch {
      return {};
    }
  };
  const save = (seen) => {
    const latest = Object.entries(seen)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, GAMES_KEPT);
    try {
      localStorage.setItem(STORE, JSON.stringify(Object.fromEntries(latest)));
    } catch {
      // Storage full or refused (a private window): nothing is highlighted next time.
    }
  };

  const highlight = (piece) => {
    piece.classList.remove("just-changed");
    piece.getBoundingClientRect(); // restarts the animation of a piece changed again
    piece.classList.add("just-changed");
    setTimeout(() => piece.classList.remove("just-changed"), SHOWN_MS);
  };

  function look() {
    const board = document.getElementById("board");
    if (!board || document.visibilityState !== "visible") return;
    const seen = load();
    const before = seen[game];
    const lang = document.documentElement.lang;
    const now = {};
    for (const piece of board.querySelectorAll("[data-key]")) {
      const key = keyOf(piece);
      now[key] = textOf(piece);
      // Another language names every piece anew: nothing to compare then.
      if (before && before.lang === lang && key in before.pieces && before.pieces[key] !== now[key]) {
        highlight(piece);
      }
    }
    seen[game] = { at: Date.now(), lang, pieces: now };
    save(seen);
  }

  document.addEventListener("DOMContentLoaded", look);
  document.addEventListener("visibilitychange", look);
  document.body.addEventListener("htmx:afterSettle", (event) => {
    if (event.detail.elt.id === "board") look();
  });
})();
