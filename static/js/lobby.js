// The new-game form shows only the seats of the chosen number of players (the server leaves
// out the others anyway).
document.addEventListener("DOMContentLoaded", () => {
  const players = document.getElementById("id_num_players");
  if (!players) return;
  const show = () => {
    for (const seat of document.querySelectorAll("[data-seat]")) {
      seat.hidden = Number(seat.dataset.seat) > Number(players.value);
    }
  };
  players.addEventListener("change", show);
  show();
});
