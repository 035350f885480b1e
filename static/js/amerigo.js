// The Amerigo map: a ringed field (click, or Enter/Space when focused) makes the move it names
// by pressing that move's button of "Your choice" (or picking it in its list and pressing the
// list's button), so htmx, the version check and the refusals stay those of the forms. When a
// field names several moves (two ships, a trading post or not, tiles covering it), they are
// offered as buttons above the forms and the fields they cover stay ringed: another click on
// one of those narrows the choice, down to a single move which is then made. A click on one's
// own ship that may sail picks that ship: only its voyages stay ringed. Pointing at a ringed
// field (or focusing it) draws the way the ship would sail there. The lists of those moves are
// folded away: the map is the way to choose them. Delegated from the document, so boards
// swapped in by htmx need no wiring; the board brings this script along on every swap, hence
// the guard. Without JavaScript the forms do it all, their lists open.
if (!window.amerigoMapClicks) {
  window.amerigoMapClicks = true;
  const SVG = "http://www.w3.org/2000/svg";

  const choices = () => [...document.querySelectorAll(".am-choices [data-cells]")];
  const movesOn = (cell) => choices().filter((choice) => choice.dataset.cells.split(" ").includes(cell));
  const voyagesOf = (ship) => choices().filter((c) => c.dataset.way && c.dataset.ship === ship);

  const press = (choice) => {
    if (choice.tagName === "OPTION") {
      choice.selected = true;
      choice.closest("form").querySelector("button[type=submit]").click();
    } else {
      choice.click();
    }
  };

  const clearMarks = () => {
    document.querySelectorAll(".am-candidate, .am-picked").forEach((e) => {
      e.classList.remove("am-candidate", "am-picked");
    });
    document.querySelectorAll(".am-narrowing").forEach((e) => e.classList.remove("am-narrowing"));
  };

  // The way of each voyage among `moves`, drawn as a line from the ship to the field.
  const drawWays = (moves) => {
    const layer = document.querySelector(".am-voyage");
    if (!layer) return;
    layer.replaceChildren(
      ...moves
        .filter((move) => move.dataset.way && move.dataset.way.includes(" "))
        .map((move) => {
          const line = document.createElementNS(SVG, "polyline");
          line.setAttribute("points", move.dataset.way);
          line.setAttribute("marker-end", "url(#am-arrow)");
          return line;
        }),
    );
  };

  const pickBox = () => document.getElementById("am-field-pick");
  const candidates = () => (pickBox() && pickBox().candidates) || null;

  // `buttons`: the moves offered as buttons; `narrowTo`: the moves a later click may choose.
  const offer = (pick, field, title, buttons, narrowTo, byKey) => {
    clearMarks();
    pick.candidates = narrowTo;
    pick.querySelector(".am-field-pick-title").textContent = title;
    const row = pick.querySelector(".am-field-pick-buttons");
    row.replaceChildren(
      ...buttons.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = move.textContent;
        button.addEventListener("click", () => press(move));
        return button;
      }),
    );
    pick.hidden = false;
    field.closest("svg").classList.add("am-narrowing");
    field.classList.add("am-picked");
    const cells = new Set(narrowTo.flatMap((move) => move.dataset.cells.split(" ")));
    for (const cell of cells) {
      const drawn = document.querySelector(`.am-legal[data-field="${cell}"]`);
      if (drawn) drawn.classList.add("am-candidate");
    }
    pick.scrollIntoView({ block: "nearest" });
    const first = row.firstElementChild || pick.querySelector(".am-field-pick-cancel");
    if (byKey) first.focus({ preventScroll: true });
  };

  const cancel = () => {
    const pick = pickBox();
    if (pick) {
      pick.hidden = true;
      pick.candidates = null;
    }
    clearMarks();
    drawWays([]);
  };

  const act = (field, byKey) => {
    const pick = pickBox();
    const help = document.getElementById("am-field-help");
    let moves = movesOn(field.dataset.field);
    const narrowing = candidates();
    if (narrowing) {
      const narrower = narrowing.filter((move) => moves.includes(move));
      if (narrower.length) moves = narrower;
    }
    const ship = field.dataset.ship;
    const voyages = ship ? voyagesOf(ship) : [];
    const picked = narrowing && voyages.length && narrowing.every((m) => voyages.includes(m));
    if (picked && field.classList.contains("am-picked")) {
      cancel(); // a second click on the picked ship lets it go
      return;
    }
    if (voyages.length && !picked && pick) {
      // One's own ship: pick it, its voyages stay ringed (staying put is a button).
      const title = help.dataset.ship.replace("%(ship)s", ship);
      const here = movesOn(field.dataset.field);
      offer(pick, field, title, here, [...new Set([...voyages, ...here])], byKey);
      return;
    }
    if (moves.length === 1) press(moves[0]);
    else if (moves.length && pick) {
      const title = help.dataset.one.replace("%(field)s", field.dataset.name);
      offer(pick, field, title, moves, moves, byKey);
    }
  };

  const pointAt = (field) => {
    let moves = movesOn(field.dataset.field);
    const narrowing = candidates();
    if (narrowing) moves = moves.filter((move) => narrowing.includes(move));
    drawWays(moves);
  };

  document.addEventListener("click", (event) => {
    if (event.target.closest(".am-field-pick-cancel")) {
      cancel();
      return;
    }
    const field = event.target.closest(".am-legal");
    if (field) act(field, false);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && candidates()) {
      cancel();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const field = event.target.closest && event.target.closest(".am-legal");
    if (!field) return;
    event.preventDefault();
    act(field, true);
  });

  for (const kind of ["mouseover", "focusin"]) {
    document.addEventListener(kind, (event) => {
      const field = event.target.closest && event.target.closest(".am-legal");
      if (field) pointAt(field);
    });
  }
  for (const kind of ["mouseout", "focusout"]) {
    document.addEventListener(kind, (event) => {
      const field = event.target.closest && event.target.closest(".am-legal");
      if (field && !field.contains(event.relatedTarget)) drawWays([]);
    });
  }

  // The cubes that fell out of the cube tower fall once per turn, not on every board of it.
  const TURN_KEY = "puerto-amerigo-cubes-fell";
  const settle = () => {
    document.querySelectorAll("details[data-fold]").forEach((list) => {
      list.open = false;
      list.removeAttribute("data-fold");
    });
    const tower = document.querySelector(".am-rondel-svg[data-turn]");
    if (tower && sessionStorage.getItem(TURN_KEY) !== tower.dataset.turn) {
      sessionStorage.setItem(TURN_KEY, tower.dataset.turn);
      tower.classList.add("am-falling");
    }
  };
  document.addEventListener("htmx:afterSwap", settle);
  settle();

  // "Larger map" (on a phone): pressed, it stays so for the tab, on every board swapped in.
  const ZOOM_KEY = "puerto-amerigo-larger-map";
  const showZoom = () => {
    const zoomed = Boolean(sessionStorage.getItem(ZOOM_KEY));
    document.querySelectorAll(".am-map-box").forEach((box) => box.classList.toggle("is-zoomed", zoomed));
    document.querySelectorAll(".am-zoom").forEach((b) => b.setAttribute("aria-pressed", String(zoomed)));
  };
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".am-zoom")) return;
    sessionStorage.setItem(ZOOM_KEY, sessionStorage.getItem(ZOOM_KEY) ? "" : "1");
    showZoom();
  });
  document.addEventListener("htmx:afterSettle", showZoom);
  showZoom();
}
