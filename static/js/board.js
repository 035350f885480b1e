// The drawn Puerto Rico board. A click on a drawn choice (a role card, plantation, building,
// ship or draft candidate with data-action) presses the button of "Your choice" that posts the same action, so
// htmx, the version check and the refusals stay those of the buttons; a draft candidate's
// rule fold ("?") only opens its rule. Pointing at, focusing or tapping a drawn piece shows
// its rule (the piece's <title>) under the table. Without JavaScript the buttons and the
// titles do the same.
document.addEventListener("click", (event) => {
  const drawn = event.target.closest(".pr [data-action]");
  if (!drawn || event.target.closest("button, .pr-candidate details")) return;
  const buttons = document.querySelectorAll(".pr-choices button[name=action]");
  const button = [...buttons].find((b) => b.value === drawn.dataset.action);
  if (button) button.click();
});

// The choices say which drawn pieces are one click (without this script a click does
// nothing, so the hint stays hidden). The drawn pieces stay images to assistive technology:
// each is a shortcut for a button of the choices, which are announced once.
const showDrawnHints = () => {
  for (const hint of document.querySelectorAll(".pr-drawn-hint")) hint.hidden = false;
};
document.addEventListener("DOMContentLoaded", showDrawnHints);
document.addEventListener("htmx:afterSettle", showDrawnHints);

// A drawn choice or circle is a button to the keyboard too: Enter or Space clicks it.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const drawn = event.target.closest && event.target.closest(".pr svg [data-action], .pr-spot");
  if (!drawn) return;
  event.preventDefault();
  drawn.dispatchEvent(new MouseEvent("click", { bubbles: true }));
});

// The mayor: the player arranges colonists and nobles on the circles of their own board
// (.pr-spot, one per circle, named by the count it changes). Every click writes the counts
// into the mayor's form, which is what is posted: the engine judges the placement as it
// judges typed counts. An empty circle takes a piece from San Juan (the kind chosen with
// "Place:", or the other when none of it waits); an occupied one sends its piece back.
const KINDS = ["colonist", "noble"];
const fieldOf = (spot, kind) => (kind === "noble" ? "noble-" : "") + spot.dataset.field;
const say = (text, count) => text.replace("{count}", count);

const mayorParts = (form) => ({
  spots: [...document.querySelectorAll(".pr-player.is-viewer .pr-spot")],
  sanJuan: document.querySelector(".pr-player.is-viewer .pr-sanjuan"),
});

// The pieces the player has: the privilege's colonist and the ship's noble taken or not.
const owned = (form) => {
  const privilege = form.querySelector("input[name=privilege]");
  const take = form.querySelector("input[type=checkbox][name=take_noble]");
  const extra = privilege && privilege.checked ? Number(form.dataset.privilege) : 0;
  const taken = take && take.checked ? 1 : 0;
  return {
    colonist: Number(form.dataset.colonists) + extra - taken,
    noble: Number(form.dataset.nobles) + taken,
  };
};

const waiting = (form, spots) => {
  const left = owned(form);
  for (const spot of spots) if (spot.dataset.piece) left[spot.dataset.piece] -= 1;
  return left;
};

const drawMayor = (form) => {
  const { spots, sanJuan } = mayorParts(form);
  // Fewer pieces than placed (the privilege unticked): the last placed go back.
  let left = waiting(form, spots);
  for (const kind of KINDS) {
    for (const spot of [...spots].reverse()) {
      if (left[kind] >= 0) break;
      if (spot.dataset.piece === kind) {
        spot.dataset.piece = "";
        left[kind] += 1;
      }
    }
  }
  const counts = {};
  for (const spot of spots) {
    const piece = spot.dataset.piece;
    for (const kind of KINDS) counts[fieldOf(spot, kind)] ??= 0;
    if (piece) counts[fieldOf(spot, piece)] += 1;
    const circle = spot.parentNode.querySelectorAll("circle.pr-slot")[spot.dataset.slot];
    const shown = piece === "colonist" && spot.hasAttribute("data-guest") ? "guest" : piece;
    circle.setAttribute("class", "pr-slot" + (piece ? " is-" + shown : ""));
    const state = form.dataset[piece || "empty"];
    spot.setAttribute("aria-label", spot.dataset.label + ": " + state);
  }
  for (const [name, count] of Object.entries(counts)) {
    const input = form.elements.namedItem(name);
    if (input) input.value = count;
  }
  const circles = sanJuan.querySelectorAll("circle.pr-slot");
  circles.forEach((circle, i) => {
    const piece = i < left.noble ? "noble" : i < left.noble + left.colonist ? "colonist" : "";
    circle.setAttribute("class", "pr-slot" + (piece ? " is-" + piece : ""));
  });
  const total = left.noble + left.colonist;
  sanJuan.querySelector(".pr-count").textContent = total > circles.length ? total : "";
  const free = spots.filter((spot) => !spot.dataset.piece).length;
  const status = [say(form.dataset.waiting, left.colonist)];
  if (form.querySelector(".pr-placing")) status.push(say(form.dataset.waitingNobles, left.noble));
  status.push(say(form.dataset.free, free));
  form.querySelector(".pr-waiting").textContent = status.join(" · ");
};

const placing = (form) => {
  const pressed = form.querySelector(".pr-placing [aria-pressed=true]");
  return pressed ? pressed.dataset.piece : "colonist";
};

const choosePiece = (form, kind) => {
  for (const button of form.querySelectorAll(".pr-placing [data-piece]")) {
    button.setAttribute("aria-pressed", String(button.dataset.piece === kind));
  }
};

const clickSpot = (form, spot) => {
  const { spots } = mayorParts(form);
  if (spot.dataset.piece) {
    spot.dataset.piece = "";
  } else {
    const left = waiting(form, spots);
    const chosen = placing(form);
    const kind = left[chosen] > 0 ? chosen : KINDS.find((k) => left[k] > 0);
    if (!kind) {
      form.querySelector(".pr-waiting").textContent = form.dataset.none;
      return;
    }
    spot.dataset.piece = kind;
    left[kind] -= 1;
    // The chosen kind all placed: the next click places the other.
    if (!left[kind] && KINDS.some((k) => left[k] > 0)) {
      choosePiece(form, KINDS.find((k) => left[k] > 0));
    }
  }
  drawMayor(form);
};

const arrangeAll = (form, fill) => {
  const { spots } = mayorParts(form);
  if (!fill) for (const spot of spots) spot.dataset.piece = "";
  const left = waiting(form, spots);
  for (const spot of spots) {
    if (!fill || spot.dataset.piece) continue;
    const kind = ["noble", "colonist"].find((k) => left[k] > 0);
    if (!kind) break;
    spot.dataset.piece = kind;
    left[kind] -= 1;
  }
  drawMayor(form);
};

const startMayor = () => {
  const form = document.querySelector(".pr-mayor:not(.is-drawn)");
  if (!form) return;
  const { spots } = mayorParts(form);
  if (!spots.length) return;
  // The circles start as the form's counts stand (pre-filled, or as a refused post had
  // them): in each group, nobles first.
  const seen = {};
  for (const spot of spots) {
    const i = (seen[spot.dataset.field] = (seen[spot.dataset.field] ?? -1) + 1);
    const number = (kind) => Number((form.elements.namedItem(fieldOf(spot, kind)) || {}).value) || 0;
    const nobles = number("noble");
    spot.dataset.piece = i < nobles ? "noble" : i < nobles + number("colonist") ? "colonist" : "";
    spot.setAttribute("role", "button");
    spot.setAttribute("tabindex", "0");
    spot.parentNode.setAttribute("role", "group");
  }
  form.classList.add("is-drawn");
  for (const part of form.querySelectorAll(".pr-js")) part.hidden = false;
  drawMayor(form);
};

document.addEventListener("click", (event) => {
  const form = document.querySelector(".pr-mayor.is-drawn");
  if (!form) return;
  const spot = event.target.closest(".pr-spot");
  const piece = event.target.closest(".pr-placing [data-piece]");
  const tool = event.target.closest(".pr-mayor-tools [data-do]");
  if (spot) clickSpot(form, spot);
  else if (piece) choosePiece(form, piece.dataset.piece);
  else if (tool) arrangeAll(form, tool.dataset.do === "fill");
});
document.addEventListener("change", (event) => {
  const form = event.target.closest(".pr-mayor.is-drawn");
  if (form) drawMayor(form);
});
document.addEventListener("DOMContentLoaded", startMayor);
document.addEventListener("htmx:afterSettle", startMayor);

const showRule = (event) => {
  const piece = event.target.closest && event.target.closest(".pr svg [role=img]");
  const help = document.getElementById("pr-help");
  const title = piece && piece.querySelector(":scope > title");
  if (title && help) help.textContent = title.textContent;
};
for (const type of ["pointerover", "focusin", "click"]) {
  document.addEventListener(type, showRule);
}

// The log folds away; opened, it stays open when the next board is swapped in.
const LOG_KEY = "puerto-log-open";
document.addEventListener("toggle", (event) => {
  if (event.target.matches && event.target.matches(".log details")) {
    sessionStorage.setItem(LOG_KEY, event.target.open ? "1" : "");
  }
}, true);
const reopenLog = () => {
  const log = document.querySelector(".log details");
  if (log && sessionStorage.getItem(LOG_KEY)) log.open = true;
};
document.addEventListener("DOMContentLoaded", reopenLog);
document.addEventListener("htmx:afterSettle", reopenLog);
