// Plain DOM code, no network, so everything here works from disk too.

// Material's script fetches the sitemap.xml of every <link rel="alternate"> to map
// pages between languages.  From disk that request is refused (an error in the
// console); served from a preview, absolute alternates would reach the real host.
// The links are for search engines, which read the served HTML: where they cannot
// be fetched from this page (another origin, or a file), they are taken out before
// Material's script looks for them.  This runs as the script loads, before the
// document has finished loading, which is when Material looks.
(function () {
  document.querySelectorAll("link[rel='alternate'][hreflang]").forEach(function (link) {
    var target = new URL(link.href, location.href);
    if (location.protocol === "file:" || target.origin !== location.origin) { link.remove(); }
  });
}());

// The language selector leads to the same place in the other language: the same
// page (in the link itself) and the same rule, since anchors are the same in every
// language, so the link takes the current #anchor along.
(function () {
  function follow() {
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
      var base = link.getAttribute("data-page") || link.getAttribute("href").split("#")[0];
      link.setAttribute("data-page", base);
      link.setAttribute("href", base + location.hash);
    });
  }
  follow();
  window.addEventListener("hashchange", follow);
  document.addEventListener("DOMContentLoaded", follow);
}());

// Register of discrepancies: show only the entries whose kind and status are ticked.
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
