// The site's search (search.html only): finds the section that teaches a word.
// Index: tools/search_index.py (one entry per section: page, anchor, heading, text).
// Ranking: a section whose heading holds every query word comes first, then one
// whose heading holds some of them, then by how often its text holds them; at
// equal rank a chapter section comes before an exercise, an exercise before a solution.
// English and Russian words match by their stem (Sphinx's stemmer, so маской
// finds маска and is highlighted); Chinese queries are cut with the course's
// word list (jieba's words of the site plus the glossary), and a part that is
// no word (a single character such as 掩) is looked up as it is. Each snippet
// starts at the first match. Nothing leaves the page.
(function () {
  "use strict";
  var index = window.COURSE_SEARCH_INDEX;
  var WORD = /[\p{L}\p{N}_]+/gu;
  var HAN = /\p{Script=Han}/u;
  var tr = typeof _ === "function" ? _ : function (s) { return s; };

  function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function stem(word) {
    try {
      if (typeof Stemmer === "function") return new Stemmer().stemWord(word);
    } catch (e) { /* no stemmer for this language */ }
    return word;
  }

  // Chinese: forward maximum matching over the index's word list.
  var words = new Set(index && index.words || []);
  function cutChinese(chunk) {
    var out = [], i = 0;
    while (i < chunk.length) {
      var found = "";
      for (var n = Math.min(10, chunk.length - i); n > 1; n--) {
        if (words.has(chunk.substr(i, n))) { found = chunk.substr(i, n); break; }
      }
      if (!found) {         // no word starts here: keep the run of unknown characters together
        var j = i + 1;
        while (j < chunk.length) {
          var known = false;
          for (var m = Math.min(10, chunk.length - j); m > 1; m--) if (words.has(chunk.substr(j, m))) { known = true; break; }
          if (known) break;
          j++;
        }
        found = chunk.slice(i, j);
      }
      out.push(found);
      i += found.length;
    }
    return out;
  }

  // A term: {pattern: RegExp (global), text: what the reader typed}
  function terms(query) {
    var out = [], seen = {};
    var stop = typeof stopwords !== "undefined" ? stopwords : [];
    var parts = query.toLowerCase().match(WORD) || [];
    parts.forEach(function (part) {
      var pieces = [];
      if (HAN.test(part)) {
        // the whole run first: if some section holds it as it is, it is one term
        var whole = index.sections.some(function (s) { return s.h.indexOf(part) >= 0 || s.x.indexOf(part) >= 0; });
        var cut = whole ? [part] : cutChinese(part);
        cut.forEach(function (c) { pieces.push({text: c, source: escapeRegExp(c)}); });
      } else {
        if (parts.length > 1 && stop.indexOf(part) >= 0) return;
        var s = stem(part) || part;
        if (s.length > part.length) s = part;
        // е and ё are one letter to a reader (and to Sphinx's Russian stemmer)
        var source = escapeRegExp(s).replace(/[её]/g, "[её]");
        pieces.push({text: part, source: "(?<![\\p{L}\\p{N}_])" + source + "[\\p{L}\\p{N}_]*"});
      }
      pieces.forEach(function (p) {
        if (seen[p.source]) return;
        seen[p.source] = true;
        out.push({text: p.text, pattern: new RegExp(p.source, "giu")});
      });
    });
    return out;
  }

  function count(pattern, text) {
    pattern.lastIndex = 0;
    var n = 0;
    while (pattern.exec(text) && n < 1000) n++;
    return n;
  }

  function search(query) {
    var ts = terms(query);
    if (!ts.length) return [];
    var scored = index.sections.map(function (s, i) {
      var title = index.titles[s.p] || "";
      var inHeading = 0, inText = 0, text = 0;
      ts.forEach(function (t) {
        var h = count(t.pattern, s.h), x = count(t.pattern, s.x);
        if (h) inHeading++;
        if (h || x) inText++;
        text += Math.log(1 + x) / Math.LN2;
      });
      var score = (inHeading === ts.length ? 1000 : 300 * inHeading / ts.length) + 10 * text;
      if (!s.a && inHeading === ts.length) score += 50;          // the page's own title
      // within the same kind of match, the lesson before its exercises, the exercises before their solutions
      if (/^exercises\//.test(s.p)) score -= 100;
      else if (/^solutions\//.test(s.p)) score -= 110;
      return {entry: s, title: title, all: inText === ts.length, some: inText > 0, score: score, order: i};
    });
    var hits = scored.filter(function (r) { return r.all; });
    if (!hits.length) hits = scored.filter(function (r) { return r.some; });
    hits.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
    return {terms: ts, hits: hits};
  }

  // The snippet starts at the first match (a little before it, at a word boundary).
  function snippet(text, ts) {
    var first = text.length;
    ts.forEach(function (t) {
      t.pattern.lastIndex = 0;
      var m = t.pattern.exec(text);
      if (m && m.index < first) first = m.index;
    });
    if (first === text.length) first = 0;
    var start = Math.max(0, first - 40);
    if (start > 0) {
      var space = text.lastIndexOf(" ", first - 1);
      start = space >= start ? space + 1 : (HAN.test(text.charAt(first)) ? first : start);
    }
    var end = Math.min(text.length, start + 240);
    var piece = text.slice(start, end);
    var p = document.createElement("p");
    p.className = "context";
    if (start > 0) p.appendChild(document.createTextNode("… "));
    var marks = [];
    ts.forEach(function (t) {
      t.pattern.lastIndex = 0;
      var m;
      while ((m = t.pattern.exec(piece)) && marks.length < 200) {
        if (!m[0].length) { t.pattern.lastIndex++; continue; }
        marks.push([m.index, m.index + m[0].length]);
      }
    });
    marks.sort(function (a, b) { return a[0] - b[0]; });
    var at = 0;
    marks.forEach(function (mk) {
      if (mk[0] < at) return;
      p.appendChild(document.createTextNode(piece.slice(at, mk[0])));
      var mark = document.createElement("mark");
      mark.textContent = piece.slice(mk[0], mk[1]);
      p.appendChild(mark);
      at = mk[1];
    });
    p.appendChild(document.createTextNode(piece.slice(at) + (end < text.length ? " …" : "")));
    return p;
  }

  function show(query) {
    var out = document.getElementById("search-results");
    if (!out) return;
    out.textContent = "";
    var heading = document.createElement("h2");
    heading.textContent = tr("Search Results");
    out.appendChild(heading);
    var status = document.createElement("p");
    status.className = "search-summary";
    status.setAttribute("role", "status");
    out.appendChild(status);
    var result = search(query);
    var hits = result.hits || [];
    if (!hits.length) {
      status.textContent = tr("Your search did not match any documents. Please make sure that all words are spelled correctly and that you've selected enough categories.");
      return;
    }
    status.textContent = tr("Search finished, found ${resultCount} page(s) matching the search query.")
      .replace("${resultCount}", hits.length);
    var list = document.createElement("ul");
    list.className = "search";
    hits.slice(0, 60).forEach(function (hit) {
      var s = hit.entry;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = s.p + ".html" + (s.a ? "#" + s.a : "");
      a.textContent = s.a ? hit.title + " › " + s.h : hit.title;
      li.appendChild(a);
      li.appendChild(snippet(s.x, result.terms));
      list.appendChild(li);
    });
    out.appendChild(list);
  }

  function start() {
    var query = new URLSearchParams(location.search).get("q") || "";
    Array.prototype.forEach.call(document.querySelectorAll("form.bd-search input[name='q']"), function (input) {
      input.value = query;
    });
    if (query.trim() && index) show(query);
  }
  window.courseSearch = function (query) { return search(query); };   // for the tests
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
