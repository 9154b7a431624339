// Rule previews: a link to a rule shows the rule's title and first paragraph, in
// the reader's language, while the pointer rests on it, while it has the keyboard's
// focus, and on a first tap on a touch screen (a second tap follows the link).  A
// link to a glossary term (its entry's kind "term") has its definition as a title,
// which Material shows on hover and focus; a touch screen shows no title, so there
// a first tap shows the term and its definition here instead of leaving the page.
//
// The previews are computed when the site is built (validator/site/previews.py) and
// loaded by a plain script tag as window.validatorPreviews, so nothing is fetched and
// this works from disk as well as served.  They are plain text and are only ever
// written with textContent: a text from the rulebook never becomes markup here.
(function () {
  "use strict";
  var data = window.validatorPreviews || {};
  var own = Object.prototype.hasOwnProperty;
  var box = null;
  var current = null;
  var timer = 0;
  var lastPointer = "";
  var shownAtPointerDown = null;

  // The preview of a link, or null: links in the page's text (not the permalinks of
  // headings) whose target, page and anchor, is a rule of this site.
  function keyOf(link) {
    if (!link || link.tagName !== "A" || !link.closest(".md-content") || link.classList.contains("headerlink")) {
      return null;
    }
    var href = link.getAttribute("href");
    if (!href || href.indexOf("#") < 0) { return null; }
    var url;
    try { url = new URL(link.href, location.href); } catch (error) { return null; }
    var key = decodeURIComponent(url.pathname.split("/").pop()) + url.hash;
    return own.call(data, key) ? key : null;
  }

  // Whether the pointer and the keyboard show the link's preview (a term's title
  // does it for them; a tap shows every preview).
  function onHover(key) {
    return data[key].k !== "term";
  }

  function linkOf(node) {
    return node && node.closest ? node.closest("a[href]") : null;
  }

  function ensureBox() {
    if (box) { return box; }
    box = document.createElement("div");
    box.className = "rule-preview";
    box.id = "rule-preview";
    box.setAttribute("role", "tooltip");
    box.hidden = true;
    var title = document.createElement("strong");
    title.className = "rule-preview__title";
    var text = document.createElement("p");
    text.className = "rule-preview__text";
    box.appendChild(title);
    box.appendChild(text);
    document.body.appendChild(box);
    return box;
  }

  function place(link) {
    var rect = link.getBoundingClientRect();
    var width = box.offsetWidth;
    var height = box.offsetHeight;
    var left = Math.max(8, Math.min(rect.left, window.innerWidth - width - 8));
    var top = rect.bottom + 6;
    if (top + height > window.innerHeight && rect.top - height - 6 > 0) { top = rect.top - height - 6; }
    box.style.left = (left + window.scrollX) + "px";
    box.style.top = (top + window.scrollY) + "px";
  }

  function show(link) {
    var key = keyOf(link);
    if (!key) { return; }
    window.clearTimeout(timer);
    var entry = data[key];
    ensureBox();
    if (current && current !== link) { current.removeAttribute("aria-describedby"); }
    box.firstChild.textContent = String(entry.t || "");
    box.lastChild.textContent = String(entry.p || "");
    if (entry.l) { box.setAttribute("lang", String(entry.l)); } else { box.removeAttribute("lang"); }
    box.hidden = false;
    place(link);
    link.setAttribute("aria-describedby", box.id);
    current = link;
  }

  function hide() {
    window.clearTimeout(timer);
    if (box) { box.hidden = true; }
    if (current) { current.removeAttribute("aria-describedby"); }
    current = null;
  }

  function later(action, delay) {
    window.clearTimeout(timer);
    timer = window.setTimeout(action, delay);
  }

  document.addEventListener("mouseover", function (event) {
    var link = linkOf(event.target), key = keyOf(link);
    if (key && onHover(key) && link !== current) { later(function () { show(link); }, 80); }
  });
  document.addEventListener("mouseout", function (event) {
    var link = linkOf(event.target), key = keyOf(link);
    if (!key || !onHover(key) || link.contains(event.relatedTarget)) { return; }
    // A preview the keyboard opened stays while its link has the focus.
    if (current && document.activeElement === current) { window.clearTimeout(timer); return; }
    later(hide, 150);
  });
  document.addEventListener("focusin", function (event) {
    var link = linkOf(event.target), key = keyOf(link);
    if (key && onHover(key)) { show(link); } else if (current && link !== current) { hide(); }
  });
  document.addEventListener("focusout", function (event) {
    if (linkOf(event.target) === current && lastPointer !== "touch") { later(hide, 100); }
  });
  document.addEventListener("keydown", function (event) {
    lastPointer = "";
    if (event.key === "Escape" && current) { hide(); }
  });
  document.addEventListener("pointerdown", function (event) {
    lastPointer = event.pointerType || "";
    var link = linkOf(event.target);
    shownAtPointerDown = box && !box.hidden ? current : null;
    if (!link || !keyOf(link)) { hide(); }
  }, true);
  // A first tap shows the preview instead of following the link; a second follows it.
  document.addEventListener("click", function (event) {
    var link = linkOf(event.target);
    if (!link || !keyOf(link)) { return; }
    var pointer = typeof event.pointerType === "string" && event.pointerType ? event.pointerType : lastPointer;
    if (pointer !== "touch") { hide(); return; }
    if (shownAtPointerDown !== link) {
      event.preventDefault();
      show(link);
    } else {
      hide();
    }
    shownAtPointerDown = null;
  });
  window.addEventListener("resize", hide);
}());
