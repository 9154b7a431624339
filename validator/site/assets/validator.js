// Register of discrepancies: show only the entries whose kind and status are ticked.
// Plain DOM code, no network, so the filter works offline too.
document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector(".register-filter");
  if (!form) { return; }
  function ticked(name) {
    return Array.prototype.map.call(
      form.querySelectorAll("input[name='" + name + "']:checked"),
      function (box) { return box.value; });
  }
  function apply() {
    var kinds = ticked("kind"), statuses = ticked("status");
    document.querySelectorAll(".discrepancy-entry").forEach(function (entry) {
      var shown = kinds.indexOf(entry.dataset.kind) >= 0 && statuses.indexOf(entry.dataset.status) >= 0;
      entry.hidden = !shown;
    });
  }
  form.addEventListener("change", apply);
  apply();
});
