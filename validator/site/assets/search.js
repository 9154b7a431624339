// The site's search: Material's search box, answered from the index that the build
// computed from the rules (search-index.js, loaded before this file by a plain script
// tag, so it works from disk too).  No worker, no request: everything runs here.
//
// Queries are folded like the index (lower case, no accents, "ł" as "l") and split
// with the same token pattern as validator/site/search.py.  A query word becomes
// index keys by, in order: the word forms the rulebook uses (so "zolnierzy" finds
// "żołnierzy"), the keys themselves, the endings that separate forms from keys (an
// unseen form cut back to a known key); a word still unknown, by the forms and keys
// it begins (the rest of the word being typed, or the stem of an inflected form) and
// by those one letter away (a misspelling), at a lower weight.  Results are ranked
// by how well they match, BM25-like, without requiring every word: see search().
(function () {
  "use strict";

  var script = document.currentScript;
  // search.js sits in <site>/assets/validator/: the index's URLs are relative to <site>/.
  var siteRoot = script ? new URL("../../", script.src) : new URL("./", location.href);
  var LIMIT = 50;
  var loaded = null;  // the index turned around, made once per page
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

  // The index, turned around: key -> [[entry number, weight], ...]; and every word the
  // index knows (the forms seen and the keys), sorted, for prefixes and misspellings.
  // An entry's length is how many keys it has: its weights would count a title word
  // and an id many times over.
  function load(data) {
    var postings = new Map(), forms = new Map(), known = new Set();
    var entries = data.entries.map(function (row, number) {
      var length = 0;
      row[4].split(" ").forEach(function (item) {
        if (!item) { return; }
        var cut = item.lastIndexOf(":");
        var key = cut > 0 ? item.slice(0, cut) : item;
        var weight = cut > 0 ? Number(item.slice(cut + 1)) : 1;
        var list = postings.get(key);
        if (!list) { list = []; postings.set(key, list); }
        list.push([number, weight]);
        length += 1;
      });
      return { id: row[0], url: row[1], title: row[2], chapter: row[3], length: length,
               share: row[5] === undefined ? 1 : row[5] };
    });
    postings.forEach(function (_, key) { known.add(key); });
    Object.keys(data.forms).forEach(function (form) {
      forms.set(form, data.forms[form].split(" "));
      known.add(form);
    });
    // The keys of the title as the page shows it: a word found there counts more.
    entries.forEach(function (entry) {
      entry.titleKeys = new Set();
      tokens(entry.title).forEach(function (word) {
        (forms.get(word) || [word]).forEach(function (key) { entry.titleKeys.add(key); });
      });
    });
    var average = entries.reduce(function (sum, entry) { return sum + entry.length; }, 0) / (entries.length || 1);
    return { entries: entries, postings: postings, forms: forms, suffixes: data.suffixes,
             words: Array.from(known).sort(), average: average || 1 };
  }

  // How much less than a word found as it is written: a word found by what it begins
  // with, and one a letter away (a misspelling), are likely, not certain, matches.
  var PREFIX = 0.6, TYPED = 0.5, MISSPELT = 0.4;

  // The known words that begin with `start`, from the sorted list.
  function startingWith(index, start) {
    var list = index.words, low = 0, high = list.length, found = [];
    while (low < high) {
      var middle = (low + high) >> 1;
      if (list[middle] < start) { low = middle + 1; } else { high = middle; }
    }
    for (var at = low; at < list.length && list[at].lastIndexOf(start, 0) === 0; at += 1) { found.push(list[at]); }
    return found;
  }

  // Whether two words are one edit apart: a letter changed, added or left out, or two
  // neighbours swapped.  Compared in place, from both ends: it runs over every known
  // word of about the same length.
  function oneEdit(a, b) {
    if (a === b || Math.abs(a.length - b.length) > 1) { return false; }
    var start = 0, endA = a.length, endB = b.length;
    while (start < endA && start < endB && a.charCodeAt(start) === b.charCodeAt(start)) { start += 1; }
    while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) { endA -= 1; endB -= 1; }
    var left = endA - start, right = endB - start;
    if (left <= 1 && right <= 1) { return true; }
    return left === 2 && right === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
  }

  // The known words of `length` letters, kept by length once asked for.
  function ofLength(index, length) {
    if (!index.byLength) {
      index.byLength = new Map();
      index.words.forEach(function (known) {
        if (!index.byLength.has(known.length)) { index.byLength.set(known.length, []); }
        index.byLength.get(known.length).push(known);
      });
    }
    return index.byLength.get(length) || [];
  }

  // The keys a query word stands for, each with a factor (1 for a full match).  Words
  // found as they are written come first; only a word the index does not know is
  // looked for by its beginning and among the words one letter away.
  function keysOf(index, word, typing) {
    var found = new Map();
    function add(key, factor) {
      if (index.postings.has(key) && factor > (found.get(key) || 0)) { found.set(key, factor); }
    }
    function addWord(known, factor) {
      (index.forms.get(known) || []).forEach(function (key) { add(key, factor); });
      add(known, factor);
    }
    addWord(word, 1);
    if (!found.size) {
      index.suffixes.some(function (suffix) {
        if (word.length - suffix.length < 3 || word.slice(-suffix.length) !== suffix) { return false; }
        addWord(word.slice(0, -suffix.length), 1);
        return found.size > 0;
      });
    }
    var plain = !/\d/.test(word);
    if (found.size || !plain || word.length < (typing ? 2 : 4)) { return Array.from(found); }
    // The word's beginning: the rest of a word being typed, or of an inflected form the
    // book never uses (a stem at least four letters long, at most four short of the word).
    startingWith(index, word).forEach(function (known) { addWord(known, typing ? TYPED : PREFIX); });
    for (var cut = word.length - 1; !found.size && cut >= Math.max(4, word.length - 4); cut -= 1) {
      startingWith(index, word.slice(0, cut)).forEach(function (known) { addWord(known, PREFIX * cut / word.length); });
    }
    if (word.length >= 4) {
      [word.length - 1, word.length, word.length + 1].forEach(function (length) {
        if (length < 4) { return; }
        ofLength(index, length).forEach(function (known) {
          if (oneEdit(word, known)) { addWord(known, MISSPELT); }
        });
      });
    }
    return Array.from(found);
  }

  // How a weight counts: more of a word adds less and less (a title word counts more
  // than one in the text, but not ten times as much), and a long entry's weights count
  // for less than a short one's (BM25's saturation and length normalisation).  A word
  // of the title the page shows counts TITLE times more again, since saturation
  // narrows the title's lead and the title is what a reader knows the rule by.
  var SATURATION = 3, LENGTH = 0.5, TITLE = 1.5;

  // Entries that match any word of the query, the best match first: each word adds
  // what it weighs in the entry times how rare it is, and an entry that matches the
  // query's rarer words, or more of its words, counts more.
  function search(index, query) {
    var words = tokens(query);
    if (!words.length) { return []; }
    var total = index.entries.length;
    var scores = new Map(), covered = new Map(), sought = 0;
    words.forEach(function (word, position) {
      var typing = position === words.length - 1 && !/\s$/.test(query);
      var best = new Map(), rarity = 0;
      keysOf(index, word, typing).forEach(function (pair) {
        var list = index.postings.get(pair[0]);
        var idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5)) * pair[1];
        rarity = Math.max(rarity, idf);
        list.forEach(function (posting) {
          var entry = index.entries[posting[0]];
          var norm = 1 - LENGTH + LENGTH * entry.length / index.average;
          var value = idf * posting[1] * (SATURATION + 1) / (posting[1] + SATURATION * norm) *
            (entry.titleKeys.has(pair[0]) ? TITLE : 1);
          if (value > (best.get(posting[0]) || 0)) { best.set(posting[0], value); }
        });
      });
      sought += rarity;
      best.forEach(function (value, number) {
        scores.set(number, (scores.get(number) || 0) + value);
        covered.set(number, (covered.get(number) || 0) + rarity);
      });
    });
    var wanted = fold(query.trim());
    var ranked = [];
    scores.forEach(function (value, number) {
      var entry = index.entries[number];
      var share = covered.get(number) / sought;
      var score = entry.id === wanted ? Infinity : value * share * share * entry.share;
      ranked.push({ entry: entry, number: number, score: score });
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
    loaded = loaded || load(data);
    mount(box, loaded);
  });

  // For tests and for the curious: run a query from the console.
  window.validatorSearch = function (query) {
    var data = window.validatorSearchIndex;
    if (!data) { return []; }
    loaded = loaded || load(data);
    return search(loaded, query).map(function (entry) { return entry.id; });
  };
  window.validatorSearch.fold = fold;
}());
