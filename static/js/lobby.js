// The new-game form shows only the seats and options of the chosen number of players (the
// page is drawn so for the first choice; the server leaves out the others anyway).
document.addEventListener("DOMContentLoaded", () => {
  const players = document.getElementById("id_num_players");
  if (!players) return;
  const show = () => {
    for (const field of document.querySelectorAll("[data-players]")) {
      field.hidden = !field.dataset.players.split(" ").includes(players.value);
    }
  };
  players.addEventListener("change", show);
  show();
});
