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
// A group none of whose entries is shown goes with them, and so does every entry's
// and group's line in the table of contents (the page's own, and the one Material
// repeats in the navigation on narrow screens), so that it lists what the page shows.
// When nothing is left, a message says why the page is empty.
document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector(".register-filter");
  if (!form) { return; }
  var empty = document.querySelector(".register-empty");
  function ticked(name) {
    return Array.prototype.map.call(
      form.querySelectorAll("input[name='" + name + "']:checked"),
      function (box) { return box.value; });
  }
  function contents(block, shown) {
    var heading = block.querySelector("h2[id], h3[id]");
    if (!heading) { return; }
    document.querySelectorAll(".md-nav a.md-nav__link").forEach(function (link) {
      if (link.getAttribute("href") === "#" + heading.id) {
        var item = link.closest("li");
        if (item) { item.hidden = !shown; }
      }
    });
  }
  function apply() {
    var kinds = ticked("kind"), statuses = ticked("status"), total = 0;
    document.querySelectorAll(".register-group").forEach(function (group) {
      var count = 0;
      group.querySelectorAll(".discrepancy-entry").forEach(function (entry) {
        var shown = kinds.indexOf(entry.dataset.kind) >= 0 && statuses.indexOf(entry.dataset.status) >= 0;
        entry.hidden = !shown;
        contents(entry, shown);
        if (shown) { count += 1; }
      });
      group.hidden = count === 0;
      contents(group, count > 0);
      total += count;
    });
    if (empty) { empty.hidden = total > 0; }
  }
  form.addEventListener("change", apply);
  apply();
});

// Parallel text: on a narrow screen (validator.css) one language at a time, chosen
// with a row of buttons above each rule; the choice holds for the whole page and is
// remembered for the next one where the browser allows it.  Names come from the
// columns' own labels and are written as text.
document.addEventListener("DOMContentLoaded", function () {
  var blocks = Array.prototype.slice.call(document.querySelectorAll(".parallel"));
  if (!blocks.length) { return; }
  var KEY = "validator.parallel-language";
  function columns(block) {
    return Array.prototype.filter.call(block.children, function (child) {
      return child.tagName === "DIV" && child.getAttribute("lang");
    });
  }
  var languages = columns(blocks[0]).map(function (column) {
    var label = column.querySelector(".parallel-language");
    return {code: column.getAttribute("lang"), name: label ? label.textContent : column.getAttribute("lang")};
  });
  var codes = languages.map(function (language) { return language.code; });
  var stored = null;
  try { stored = window.localStorage.getItem(KEY); } catch (error) { stored = null; }
  var chosen = codes.indexOf(stored) >= 0 ? stored
    : codes.indexOf(document.documentElement.lang) >= 0 ? document.documentElement.lang : codes[0];

  function choose(code, remember) {
    chosen = code;
    blocks.forEach(function (block) {
      columns(block).forEach(function (column) {
        column.classList.toggle("parallel-hidden", column.getAttribute("lang") !== code);
      });
    });
    document.querySelectorAll(".parallel-switch button").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-lang") === code));
    });
    if (remember) {
      try { window.localStorage.setItem(KEY, code); } catch (error) { /* private mode, or from disk */ }
    }
  }

  blocks.forEach(function (block) {
    var group = document.createElement("div");
    group.className = "parallel-switch";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", block.getAttribute("data-switch-label") || "");
    languages.forEach(function (language) {
      var button = document.createElement("button");
      button.type = "button";
      button.setAttribute("data-lang", language.code);
      button.setAttribute("lang", language.code);
      button.textContent = language.name;
      button.addEventListener("click", function () { choose(language.code, true); });
      group.appendChild(button);
    });
    block.parentNode.insertBefore(group, block);
  });
  choose(chosen, false);
});

// The header's light/dark switch (validator/site/scheme.py): a toggle button, so a
// keyboard reader reaches it and sees where focus is.  The header's inline script has
// already applied the kept choice (or the system's preference); a press flips the
// scheme and keeps it, for every language's site, where the browser allows it.
(function () {
  var KEY = "validator.scheme";
  function showState(button) {
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    button.setAttribute("aria-pressed", dark ? "true" : "false");
  }
  function start() {
    var button = document.querySelector("button.validator-scheme");
    if (!button) { return; }
    showState(button);
    button.hidden = false;
    button.addEventListener("click", function () {
      var scheme = document.body.getAttribute("data-md-color-scheme") === "slate" ? "default" : "slate";
      document.body.setAttribute("data-md-color-scheme", scheme);
      try { localStorage.setItem(KEY, scheme); } catch (error) { /* private mode: this page only */ }
      showState(button);
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());

// A table wider than a phone scrolls sideways in the box Material puts around it;
// a box that scrolls takes the keyboard's focus, so that the arrow keys scroll it
// (WCAG 2.1.1), and is named by the heading it stands under for whoever reaches it.
// Boxes that fit are left out of the tab order.  Material makes the boxes once the
// page is loaded, and a turned phone changes which of them scroll.
(function () {
  function headingBefore(node) {
    for (; node && !node.classList.contains("md-content"); node = node.parentElement) {
      for (var before = node.previousElementSibling; before; before = before.previousElementSibling) {
        if (/^H[1-6]$/.test(before.tagName) && before.id) { return before; }
      }
    }
    return null;
  }
  function reachable() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        var heading = headingBefore(box);
        if (heading) { box.setAttribute("aria-labelledby", heading.id); }
        box.setAttribute("data-scrolls", "");
      } else if (!scrolls && box.hasAttribute("data-scrolls")) {
        ["tabindex", "role", "aria-labelledby", "data-scrolls"].forEach(function (name) { box.removeAttribute(name); });
      }
    });
  }
  window.addEventListener("load", reachable);
  window.addEventListener("resize", reachable);
}());

// The editor view's switch (validator/site/editorview.py): a toggle button in the
// header that shows or hides, on every page, what only those who edit the rules need.
// The header's inline script has already applied the kept choice; a press flips it
// and keeps it, for every page and language, where the browser allows it.
(function () {
  var ON = "validator-editor";
  function start() {
    var button = document.querySelector("button.validator-editor-switch");
    if (!button) { return; }
    var key = button.getAttribute("data-key");
    function showState() {
      button.setAttribute("aria-pressed", document.documentElement.classList.contains(ON) ? "true" : "false");
    }
    showState();
    button.hidden = false;
    button.addEventListener("click", function () {
      var on = !document.documentElement.classList.contains(ON);
      document.documentElement.classList.toggle(ON, on);
      try { localStorage.setItem(key, on ? "on" : "off"); } catch (error) { /* private mode: this page only */ }
      showState();
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());

// Worked examples start closed (validator/site/worked.py): one that a link leads to
// opens, so that the reader lands on its text rather than on a closed box; and every
// closed box opens for printing, as a printed chapter keeps its examples whole.
(function () {
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) { return; }
    var holder = target.parentElement && target.parentElement.tagName === "P" &&
      target.parentElement.children.length === 1 ? target.parentElement : target;
    var next = holder.nextElementSibling;
    if (next && next.tagName === "DETAILS") { next.open = true; }
    var hidden = false;
    for (var box = target.closest("details"); box; box = box.parentElement && box.parentElement.closest("details")) {
      hidden = hidden || !box.open;
      box.open = true;
    }
    if (hidden) { target.scrollIntoView(); }
  }
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (box) {
      box.open = true;
      return true;
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (box) { box.open = false; });
    opened = [];
  });
  window.addEventListener("hashchange", openTarget);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", openTarget);
  } else {
    openTarget();
  }
}());
