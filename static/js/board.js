// The drawn Puerto Rico board. A click on a drawn choice (a role card, plantation, building,
// ship or draft candidate with data-action) presses the button of "Your choice" that posts the same action, so
// htmx, the version check and the refusals stay those of the buttons. Pointing at, focusing or
// tapping a drawn piece shows its rule (the piece's <title>) under the table. Without
// JavaScript the buttons and the titles do the same.
document.addEventListener("click", (event) => {
  const drawn = event.target.closest(".pr [data-action]");
  if (!drawn || event.target.closest("button")) return;
  const buttons = document.querySelectorAll(".pr-choices button[name=action]");
  const button = [...buttons].find((b) => b.value === drawn.dataset.action);
  if (button) button.click();
});

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
