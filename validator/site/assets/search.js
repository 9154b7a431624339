// The site's search: Material's search box, answered from the index that the build
// computed from the rules (search-index.js, loaded before this file by a plain script
// tag, so it works from disk too).  No worker, no request: everything runs here.
//
// Queries are folded like the index (lower case, no accents, "ł" as "l") and split
// with the same token pattern as validator/site/search.py.  A query word becomes
// index keys by, in order: the word forms the rulebook uses (so "zolnierzy" finds
// "żołnierzy"), the keys themselves, the endings that separate forms from keys (an
// unseen form cut back to a known key), and, for the word being typed, the forms
// and keys it begins.  Every word must match; a match in the title counts most.
(function () {
  "use strict";

  var script = document.currentScript;
  // search.js sits in <site>/assets/validator/: the index's URLs are relative to <site>/.
  var siteRoot = script ? new URL("../../", script.src) : new URL("./", location.href);
  var LIMIT = 50;
  var LETTERS = {
    "ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th",
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"
  };
  var SPECIAL = /[łđøħıßæœþ\u2013\u2014\u2212\u2010\u2011]/g;
  var TOKEN = /[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*|\d*d\d+(?![\p{L}\p{N}])|\d+\+|\d+-\d+|[\p{L}\p{N}]+/gu;

  function fold(text) {
    return text.toLowerCase().replace(SPECIAL, function (c) { return LETTERS[c]; })
      .normalize("NFKD").replace(/\p{M}/gu, "");
  }

  function tokens(text) {
    return fold(text).match(TOKEN) || [];
  }

  // The index, turned around: key -> [[entry number, weight], ...].
  function load(data) {
    var postings = new Map(), forms = new Map();
    var entries = data.entries.map(function (row, number) {
      row[4].split(" ").forEach(function (item) {
        if (!item) { return; }
        var cut = item.lastIndexOf(":");
        var key = cut > 0 ? item.slice(0, cut) : item;
        var weight = cut > 0 ? Number(item.slice(cut + 1)) : 1;
        if (!postings.has(key)) { postings.set(key, []); }
        postings.get(key).push([number, weight]);
      });
      return { id: row[0], url: row[1], title: row[2], chapter: row[3], titleWords: tokens(row[2]) };
    });
    Object.keys(data.forms).forEach(function (form) { forms.set(form, data.forms[form].split(" ")); });
    return { entries: entries, postings: postings, forms: forms, suffixes: data.suffixes };
  }

  // The keys a query word stands for, each with a factor (1 for a full match).
  function keysOf(index, word, typing) {
    var found = [];
    function add(key, factor) {
      if (index.postings.has(key)) { found.push([key, factor]); }
    }
    (index.forms.get(word) || []).forEach(function (key) { add(key, 1); });
    add(word, 1);
    if (found.length) { return found; }
    index.suffixes.forEach(function (suffix) {
      if (found.length || word.length - suffix.length < 3 || word.slice(-suffix.length) !== suffix) { return; }
      var stem = word.slice(0, -suffix.length);
      (index.forms.get(stem) || []).forEach(function (key) { add(key, 1); });
      add(stem, 1);
    });
    if (found.length || !typing || word.length < 2) { return found; }
    var seen = new Set();
    index.forms.forEach(function (keys, form) {
      if (form.lastIndexOf(word, 0) === 0) {
        keys.forEach(function (key) { if (!seen.has(key)) { seen.add(key); add(key, 0.5); } });
      }
    });
    index.postings.forEach(function (_, key) {
      if (key.lastIndexOf(word, 0) === 0 && !seen.has(key)) { seen.add(key); add(key, 0.5); }
    });
    return found;
  }

  // Entries that match every word of the query, best first.
  function search(index, query) {
    var words = tokens(query);
    if (!words.length) { return []; }
    var total = index.entries.length;
    var scores = null;
    words.forEach(function (word, position) {
      var typing = position === words.length - 1 && !/\s$/.test(query);
      var best = new Map();
      keysOf(index, word, typing).forEach(function (pair) {
        var list = index.postings.get(pair[0]);
        var idf = Math.log(1 + total / list.length);
        list.forEach(function (posting) {
          var value = posting[1] * idf * pair[1];
          if (value > (best.get(posting[0]) || 0)) { best.set(posting[0], value); }
        });
      });
      best.forEach(function (value, number) {
        if (index.entries[number].titleWords.indexOf(word) >= 0) { best.set(number, value * 1.5); }
      });
      if (scores === null) {
        scores = best;
        return;
      }
      var kept = new Map();
      scores.forEach(function (value, number) {
        if (best.has(number)) { kept.set(number, value + best.get(number)); }
      });
      scores = kept;
    });
    var wanted = fold(query.trim());
    var ranked = [];
    scores.forEach(function (value, number) {
      var entry = index.entries[number];
      ranked.push({ entry: entry, number: number, score: entry.id === wanted ? Infinity : value });
    });
    ranked.sort(function (a, b) { return b.score - a.score || a.number - b.number; });
    return ranked.map(function (item) { return item.entry; });
  }

  function mount(box, index) {
    var toggle = document.getElementById("__search");
    var form = box.querySelector("form");
    var input = box.querySelector(".md-search__input");
    var meta = box.querySelector(".md-search-result__meta");
    var list = box.querySelector(".md-search-result__list");
    var active = -1;

    function open(state) {
      if (toggle && toggle.checked !== state) { toggle.checked = state; }
      if (!state) { input.blur(); }
    }

    function links() {
      return list.querySelectorAll(".md-search-result__link");
    }

    function mark(position) {
      var all = links();
      if (!all.length) { active = -1; return; }
      active = (position + all.length) % all.length;
      all.forEach(function (link, number) {
        var on = number === active;
        link.classList.toggle("validator-search__active", on);
        link.setAttribute("aria-selected", on ? "true" : "false");
        if (on) { link.scrollIntoView({ block: "nearest" }); }
      });
    }

    function count(number) {
      if (number === 0) { return box.dataset.none; }
      if (number === 1) { return box.dataset.one; }
      return box.dataset.other.replace("#", String(number));
    }

    function render() {
      var query = input.value;
      // Material closes the search box when the location changes (also right after a
      // page opens at an anchor): typing opens it again.
      if (document.activeElement === input) { open(true); }
      list.textContent = "";
      active = -1;
      if (!tokens(query).length) {
        meta.textContent = box.dataset.placeholder;
        return;
      }
      var found = search(index, query);
      meta.textContent = count(found.length);
      found.slice(0, LIMIT).forEach(function (entry) {
        var item = document.createElement("li");
        item.className = "md-search-result__item";
        // The list is a listbox of options: the item between them is no list item.
        item.setAttribute("role", "none");
        var link = document.createElement("a");
        link.className = "md-search-result__link";
        link.href = new URL(entry.url, siteRoot).href;
        link.tabIndex = -1;
        link.dataset.entry = entry.id;
        link.setAttribute("role", "option");
        var article = document.createElement("article");
        article.className = "md-search-result__article md-typeset";
        var title = document.createElement("h1");
        title.textContent = entry.title;
        var chapter = document.createElement("p");
        chapter.className = "validator-search__chapter";
        chapter.textContent = entry.chapter;
        article.append(title, chapter);
        link.append(article);
        link.addEventListener("click", function () { open(false); });
        item.append(link);
        list.append(item);
      });
    }

    function go() {
      var all = links();
      var target = all[active >= 0 ? active : 0];
      if (target) {
        open(false);
        target.click();
      }
    }

    input.addEventListener("input", render);
    input.addEventListener("focus", function () { open(true); });
    form.addEventListener("submit", function (event) { event.preventDefault(); go(); });
    form.addEventListener("reset", function () {
      setTimeout(function () { render(); input.focus(); }, 0);
    });
    if (toggle) {
      toggle.addEventListener("change", function () {
        if (toggle.checked) { input.focus(); } else { input.blur(); }
      });
    }
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        mark(active + (event.key === "ArrowDown" ? 1 : -1) + (active < 0 && event.key === "ArrowUp" ? 1 : 0));
      } else if (event.key === "Enter") {
        event.preventDefault();
        go();
      } else if (event.key === "Escape") {
        event.preventDefault();
        open(false);
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) { return; }
      var target = event.target;
      var typing = target instanceof HTMLElement && (target.isContentEditable ||
        /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (!typing && (event.key === "/" || event.key === "s" || event.key === "f")) {
        event.preventDefault();
        open(true);
        input.focus();
      }
    });
    render();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-validator-search]");
    var data = window.validatorSearchIndex;
    if (!box || !data) { return; }
    mount(box, load(data));
  });

  // For tests and for the curious: run a query from the console.
  window.validatorSearch = function (query) {
    var data = window.validatorSearchIndex;
    return data ? search(load(data), query).map(function (entry) { return entry.id; }) : [];
  };
  window.validatorSearch.fold = fold;
}());
