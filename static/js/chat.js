// The game chat: every poll of the game page (the board's or the chat's own) says which chat
// version the page shows, so a new or hidden message comes along; a sent message clears the
// form; the newest message stays in view.
(() => {
  const chat = document.getElementById("chat");
  if (!chat || chat.dataset.ready) return;
  chat.dataset.ready = "1";
  const pollPath = new URL(chat.dataset.pollUrl, location.href).pathname;

  document.addEventListener("htmx:configRequest", (event) => {
    const messages = document.getElementById("chat-messages");
    const path = new URL(event.detail.path, location.href).pathname;
    if (messages && path === pollPath && event.detail.verb === "get") {
      event.detail.parameters.c = messages.dataset.version;
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.target.closest && event.target.closest(".chat-form");
    if (form && event.detail.successful) form.reset();
  });

  const scrollDown = () => {
    const lines = document.querySelector("#chat-messages .chat-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  };
  document.addEventListener("htmx:afterSettle", scrollDown);
  document.addEventListener("DOMContentLoaded", scrollDown);
  scrollDown();
})();
