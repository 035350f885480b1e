// Turn alerts. On a game page, the tab's title and icon say when it is your move, after every
// swap of the board (a poll or a move); when the move comes to you while the page is open, a
// short sound and a browser notification follow, each only if turned on in the profile.
// On the profile page, turning notifications on asks the browser for permission.
(function () {
  "use strict";

  function beep() {
    // A tone made here: no sound file to fetch. Browsers let a page sound only after the
    // player has touched it once; before that the tone is silently dropped.
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    const audio = new Context();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.2, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.5);
    tone.connect(volume).connect(audio.destination);
    tone.onended = () => audio.close();
    tone.start();
    tone.stop(audio.currentTime + 0.5);
  }

  function gamePage(page) {
    const icon = document.querySelector('link[rel="icon"]');
    const quietTitle = document.title;
    const quietIcon = icon.href;
    let wasMyMove = null;

    function announce() {
      if (page.dataset.turnSound === "on") beep();
      if (
        page.dataset.turnNotification === "on" &&
        "Notification" in window &&
        Notification.permission === "granted" &&
        document.visibilityState === "hidden"
      ) {
        new Notification(page.dataset.turnTitle, {
          body: quietTitle,
          icon: page.dataset.turnIcon,
          tag: "puerto-game-" + page.dataset.game,
        });
      }
    }

    function update() {
      const board = document.getElementById("board");
      const myMove = board !== null && board.dataset.yourMove === "true";
      document.title = myMove ? page.dataset.turnTitle + " · " + quietTitle : quietTitle;
      icon.href = myMove ? page.dataset.turnIcon : quietIcon;
      if (myMove && wasMyMove === false) announce();
      wasMyMove = myMove;
    }

    document.addEventListener("htmx:afterSwap", update);
    update();
  }

  function profilePage(box) {
    const blocked = document.getElementById("notifications-blocked");
    function check() {
      if (!("Notification" in window)) return;
      if (box.checked && Notification.permission === "default") {
        Notification.requestPermission().then(check);
      }
      blocked.hidden = !(box.checked && Notification.permission === "denied");
    }
    box.addEventListener("change", check);
    check();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const page = document.querySelector(".game-page[data-game]");
    if (page) gamePage(page);
    const box = document.getElementById("id_turn_notification");
    if (box) profilePage(box);
  });
})();
