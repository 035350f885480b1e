// Clicking a ringed field on the Amerigo map picks the first choice for that field in the
// list of choices (the lists work without this too); the player then confirms with the
// list's button. Delegated from the document, so boards swapped in by htmx need no wiring;
// the board brings this script along on every swap, hence the guard.
if (!window.amerigoMapClicks) {
window.amerigoMapClicks = true;
document.addEventListener("click", (event) => {
  const field = event.target.closest(".am-legal");
  if (!field) return;
  const cell = field.dataset.field;
  for (const option of document.querySelectorAll(".am-select option")) {
    if (option.dataset.cells.split(" ").includes(cell)) {
      option.selected = true;
      option.parentElement.focus();
      document.querySelectorAll(".am-picked").forEach((e) => e.classList.remove("am-picked"));
      field.classList.add("am-picked");
      return;
    }
  }
});
}
