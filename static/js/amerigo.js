// The Amerigo map: a ringed field (click, or Enter/Space when focused) makes the move it names
// by pressing that move's button of "Your choice" (or picking it in its list and pressing the
// list's button), so htmx, the version check and the refusals stay those of the forms. When a
// field names several moves (two ships, a trading post or not, tiles covering it), they are
// offered as buttons above the forms and the fields they cover stay ringed: another click on
// one of those narrows the choice, down to a single move which is then made. Delegated from
// the document, so boards swapped in by htmx need no wiring; the board brings this script
// along on every swap, hence the guard. Without JavaScript the forms do it all.
if (!window.amerigoMapClicks) {
  window.amerigoMapClicks = true;

  const movesOn = (cell) =>
    [...document.querySelectorAll(".am-choices [data-cells]")].filter((choice) =>
      choice.dataset.cells.split(" ").includes(cell),
    );

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

  const offer = (pick, field, moves, byKey) => {
    clearMarks();
    pick.candidates = moves;
    const help = document.getElementById("am-field-help");
    pick.querySelector(".am-field-pick-title").textContent = help.dataset.one.replace(
      "%(field)s",
      field.dataset.name,
    );
    const buttons = pick.querySelector(".am-field-pick-buttons");
    buttons.replaceChildren(
      ...moves.map((move) => {
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
    const cells = new Set(moves.flatMap((move) => move.dataset.cells.split(" ")));
    for (const cell of cells) {
      const drawn = document.querySelector(`.am-legal[data-field="${cell}"]`);
      if (drawn) drawn.classList.add("am-candidate");
    }
    pick.scrollIntoView({ block: "nearest" });
    if (byKey) buttons.firstElementChild.focus({ preventScroll: true });
  };

  const act = (field, byKey) => {
    const pick = document.getElementById("am-field-pick");
    let moves = movesOn(field.dataset.field);
    if (pick && pick.candidates) {
      const narrower = pick.candidates.filter((move) => moves.includes(move));
      if (narrower.length) moves = narrower;
    }
    if (moves.length === 1) press(moves[0]);
    else if (moves.length && pick) offer(pick, field, moves, byKey);
  };

  document.addEventListener("click", (event) => {
    if (event.target.closest(".am-field-pick-cancel")) {
      const pick = document.getElementById("am-field-pick");
      pick.hidden = true;
      pick.candidates = null;
      clearMarks();
      return;
    }
    const field = event.target.closest(".am-legal");
    if (field) act(field, false);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const field = event.target.closest && event.target.closest(".am-legal");
    if (!field) return;
    event.preventDefault();
    act(field, true);
  });

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
