// The browser's time zone where the player has not chosen one: filled into the sign-up form,
// and chosen in the profile's list while the saved zone is still the default, UTC.
(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || zone === "UTC") return;
  for (const field of document.querySelectorAll('[name="time_zone"]')) {
    if (field.type === "hidden") {
      field.value = zone;
    } else if (field.value === "UTC" && [...field.options].some((o) => o.value === zone)) {
      field.value = zone;
      const note = document.createElement("small");
      note.className = "help";
      note.textContent = field.dataset.browserZoneNote;
      field.after(note);
    }
  }
})();
