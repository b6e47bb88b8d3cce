// The site's search (search.html only): finds the section that teaches what the reader asks.
// Index: tools/search_index.py (one entry per section: page, anchor, heading, prose, code, the
// terms site/search-terms.yml gives the section that teaches them, in zh and ru also the section's
// English terms and the glossary's English for what its heading says; the groups of
// site/search-synonyms.yml; and this script's words in the page's language (texts: the heading, the
// count found, the sentence for no match), from the
// catalogues of course_i18n).
// A query is cut into words: English and Russian by their stem (Sphinx's stemmer, so маской finds
// маска and is highlighted; a stem under 4 letters is the word as typed; a Russian -овать verb by
// its root; a Russian stem of three letters as the site's words with that stem: целей, цели), two
// words the site writes as one as that word (layer norm: layernorm), an identifier into its words
// (pad_token: pad, token) and, where the prose names it as written (is_causal), into itself too; a
// word the site never uses into the site's most frequent word one letter away (casual: causal); Chinese with the course's word list (jieba's dictionary
// words of the site plus the glossaries), a longer word that is two of the site's words and none of
// the course's own as two (检查模型: 检查 模型), a run that is no word at the words it holds (看自己:
// 看 自己), a part that is no word looked up as it is (掩; weakly where a query cut it off, unless the
// glossary has it as a word: 头) and one the site never uses by its character pairs, weakly. A word
// finds the other words of its synonym group too (in a zh term's words as well: 梯度检查 says
// 梯度检验; a zh term is matched by its words in any order: 扰动未来 says 未来扰动). The words of a question (why, how, почему,
// 为什么, 怎么写 ...), zh function words (把, 这个) and stop words go, unless a term says one beside
// the same word (finite difference); a query of nothing else is searched as it is. A question that
// asks how to know (how do I know, как понять, 怎么知道) asks for the check.
// Ranking: one score, the sum of these weighted parts (results sort by it):
//   1. BM25F: each word of the query, weighted by its rarity (IDF: "prefill" says more than
//      "cache"), counts by its mentions in the section's heading, terms, prose and code (code
//      weighs less: it uses what the prose teaches), each field's count divided by the field's
//      length against the average, all saturating together; so a long section (§7's five seeds)
//      does not win by volume;
//   2. how much of the query one of its terms (or most of a longer term) or its heading says: the
//      section that defines it comes before one whose heading merely holds its words, and both
//      before sections that only use them; a section shares, a little less, what its chapter's
//      introduction defines, its own terms and the chapter's covering different parts of the query
//      (kv cache 显存: §5.6 within §5; 多头注意力 拆分: §2.2), and a query that names the chapter's
//      subject and more counts the subject, a little less, as said by each of its sections, with
//      what each one's heading says of the rest (обучение на стихах с маской и без: §8.2); the
//      section that defines the chapter's subject counts the introduction's terms as its own; a
//      term said whole counts as defining whatever the heading says;
//      a why question (why, зачем, 为什么, 有什么用) puts first the section that says why of what it
//      names: its heading says why (2.4 ... and why W_O), or one of its terms asks it (why several
//      heads: §2.7; such a term counts only for a query that asks why);
//   3. a chapter before an exercise, an exercise before a solution; a chapter's summary, which
//      recalls everything, after the section that teaches it.
// One result per numbered section (or page introduction): an unnumbered subsection counts for the
// section it is in, and the result links to the part of the section that answers best; a chapter's
// introduction counts for the section that defines its subject (search-terms.yml's defined_in).
// Each snippet starts at the first match, formulas read as text. Nothing leaves the page.
(function () {
  "use strict";
  var index = window.COURSE_SEARCH_INDEX;
  var WORD = /[\p{L}\p{N}_]+/gu;
  var LETTER = "[\\p{L}\\p{N}]";       // a word's letters; "_" joins words (causal_future: causal, future)
  var HAN = /\p{Script=Han}/u;

  function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function stem(word) {
    try {
      if (typeof Stemmer === "function") return new Stemmer().stemWord(word);
    } catch (e) { /* no stemmer for this language */ }
    return word;
  }

  // Chinese: forward maximum matching over the index's word list.
  var words = new Set(index && index.words || []);
  var keep = new Set(index && index.keep || []);
  var chars = new Set(index && index.chars || []);       // the glossary's words of one character (头)
  // a word of four or more characters that is not the course's own and is two of the site's words
  // (检查模型: 检查 模型), as two
  function halves(word) {
    if (word.length < 4 || keep.has(word)) return [word];
    for (var k = 2; k <= word.length - 2; k++)
      if (words.has(word.slice(0, k)) && words.has(word.slice(k))) return [word.slice(0, k), word.slice(k)];
    return [word];
  }
  // (longest: the longest word taken; a term, itself a word, is cut into the words it is made of)
  function cutChinese(chunk, longest) {
    var out = [], i = 0;
    while (i < chunk.length) {
      var found = "";
      for (var n = Math.min(longest || 10, chunk.length - i); n > 1; n--) {
        if (words.has(chunk.substr(i, n))) { found = chunk.substr(i, n); break; }
      }
      var split = found ? halves(found) : [];
      if (split.length > 1) {
        out.push(split[0]);
        i += split[0].length;
        continue;
      }
      if (!found) {         // no word starts here: keep the run of unknown characters together
        // (up to a function word: 的诗 is 的 and 诗)
        var j = i + 1;
        while (j < chunk.length && !questionWords.has(chunk.charAt(i))) {
          if (questionWords.has(chunk.charAt(j))) break;
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

  // Words of a question that say nothing about its subject, per language (with Sphinx's stop words).
  var QUESTION = {
    en: "why how what which when where who whom whose does do did is are was were can could should would " +
        "will a an the of to in on for with about vs versus between explain meaning mean means difference " +
        "know knows work works happen happens get gets need needs use used make makes over than same also " +
        "still just very really actually exactly i me my we our you your it its this that there here many much purpose so too",
    ru: "почему зачем как что чем какой какая какое какие каков когда где ли это такое нужно нужен нужна " +
        "нужны объясните объяснение значит разница между работает происходит делает надо можно должен должна " +
        "должны разве вообще отличается отличие сколько просто именно",
    zh: "为什么 为何 为啥 怎么 怎样 如何 什么 是什么 什么是 哪个 哪些 是不是 吗 呢 吧 啊 的 了 是 和 与 在 有 要 一个 会 能 可以 " +
        "啥 干嘛 到底 请问 区别 需要 需不需要 要不要 能不能 会不会 有没有 还要 有什么用 有啥用 什么用 用处 " +
        // (how to do it: 怎么写 asks for the section that teaches it, not one whose heading says 写)
        "怎么写 怎么实现 怎么算 怎么用 怎么做 怎么办 会怎样 会怎么样 什么意思 是啥 " +
        // (function words: 把 in 把分数设成0 is no subject, though a heading says 把 ≤ 写成 <)
        "把 被 让 给 对 从 就 也 都 这 那 这个 那个 这里 那里 我 我们 你 它 得 地 着 过 么 嘛 还是 或者 就是"
  };
  var lang = (index && index.lang) || "en";
  // learners mix languages (why 掩码, почему mask): a question word of any of them is left out
  var questionWords = new Set(Object.keys(QUESTION).map(function (k) { return QUESTION[k]; }).join(" ").split(" "));
  // Words the stop lists hold that make the course's distinctions (маска до softmax, обучение без
  // маски, больше голов, кэш только первого слоя) are the subject of a query, not its grammar
  var KEEP = new Set("без до после перед только больше более".split(" "));
  var stop = (typeof stopwords !== "undefined" ? stopwords : []).filter(function (w) { return !KEEP.has(w); });
  // a Russian stop word's other forms are stop words too (сам: саму, самой; свою: своя, свой)
  var stopStems = null;
  function isStop(word) {
    if (questionWords.has(word) || stop.indexOf(word) >= 0) return true;
    if (lang !== "ru" || HAN.test(word) || KEEP.has(word)) return false;
    if (!stopStems) {
      stopStems = new Set();
      // (of the short ones, pronouns and the like: конечно's stem would take конечными)
      stop.forEach(function (w) { var k = stem(w); if (k.length >= 3 && w.length <= 5) stopStems.add(k); });
    }
    return stopStems.has(stem(word));
  }
  // A question that asks how to know whether something holds asks for the check that tells it
  // (how do I know my test catches a leak, как понять, 怎么知道模型有没有偷看): its words say "check"
  var ASKS_CHECK = [
    [/(?<![\p{L}])how\s+(?:do|can|could|would|should|will)\s+(?:i|we|you|one)\s+(?:know|tell|verify|confirm|make\s+sure|be\s+sure|see)(?![\p{L}])|(?<![\p{L}])how\s+to\s+(?:know|tell|verify|confirm|make\s+sure)(?![\p{L}])/giu, " check "],
    [/(?<![\p{L}])как\s+(?:мне\s+|нам\s+)?(?:узнать|понять|проверить|убедиться|удостовериться|определить)(?![\p{L}])/giu, " проверка "],
    [/(?:怎么|怎样|如何|咋)(?:才能|能|可以)?(?:知道|判断|确认|确定|验证|看出)/gu, " 检验 "]
  ];
  // A question that asks why (or what for), in any of the languages: the section whose heading says
  // why (2.4 ... and why W_O), or one of whose terms asks it (why several heads: §2.7), answers it
  var WHY = /(?<![\p{L}])(?:why|purpose|зачем|почему|для\s+чего)(?![\p{L}])|为什么|为何|为啥|干嘛|有什么用|有啥用|什么用|用处/iu;
  var asksWhy = false;          // (of the query being searched)

  // Whether some section says text (with code: in its code too; with source: as that pattern)
  function holds(text, code, source) {
    var re = source ? new RegExp(source, "iu") : null;
    return index.sections.some(function (s) {
      return [s.h, s.x].concat(code ? [s.c || ""] : []).some(function (f) { return re ? re.test(f) : f.toLowerCase().indexOf(text) >= 0; });
    });
  }

  // The site's words by how often they occur (built when a query first needs them)
  var vocabulary = null;
  function siteWords() {
    if (!vocabulary) {
      vocabulary = {};
      // (the sections' headings, prose and terms, and the synonyms)
      var texts = index.sections.map(function (s) { return [s.h, s.x].concat(s.k || [], s.e || []).join(" "); });
      (index.synonyms || []).forEach(function (g) { texts.push(g.join(" ")); });
      texts.forEach(function (text) {
        (text.toLowerCase().match(WORD) || []).forEach(function (w) {
          if (w.length >= 3 && !HAN.test(w)) vocabulary[w] = (vocabulary[w] || 0) + 1;
        });
      });
    }
    return vocabulary;
  }
  // The site's words whose stem is this one (a short Russian stem: слой, слоя, слоям are сло; слово is слов)
  var byStem = null;
  function formsOf(key) {
    if (!byStem) {
      byStem = {};
      Object.keys(siteWords()).forEach(function (w) {
        var k = stem(w).replace(/ё/g, "е");
        (byStem[k] || (byStem[k] = [])).push(w);
      });
    }
    return byStem[key] || [];
  }
  function nearWord(word) {
    var vocabulary = siteWords();
    // one letter changed, added, dropped, or two neighbours swapped (casual: causal); the most frequent
    var best = null;
    Object.keys(vocabulary).forEach(function (v) {
      if (v.length >= 4 && Math.abs(v.length - word.length) <= 1 && oneEdit(word, v) && (!best || vocabulary[v] > vocabulary[best])) best = v;
    });
    return best;
  }
  function oneEdit(a, b) {
    if (a === b) return false;
    var i = 0;
    while (i < a.length && i < b.length && a.charAt(i) === b.charAt(i)) i++;
    if (a.length === b.length) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;                       // changed
      return a.charAt(i) === b.charAt(i + 1) && a.charAt(i + 1) === b.charAt(i) && a.slice(i + 2) === b.slice(i + 2);  // swapped
    }
    return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);   // added, dropped
  }

  // site/search-synonyms.yml: a word of the query finds the other words of its group too
  var synonymsOf = {};
  function wordSource(word) {
    var s = stem(word) || word;
    // a stem too short to say much (tying: ty, which would find "type") is the word as typed; in
    // Russian, whose nouns inflect, a stem of three letters is the word's stem all the same (целей,
    // цели: цел; слоям, слой: сло), found as the site's words with that stem, not by its beginning
    var short = lang === "ru" && s.length === 3 && s.length < word.length && !HAN.test(word);
    if (s.length > word.length || (s.length < 4 && s.length < word.length && !short)) s = word;
    // a Russian verb in -овать/-евать/-ивать/-ывать conjugates without its -ова- (маскировать: маскирует)
    if (lang === "ru") s = s.replace(/^(.{4,}?)(?:ова|ева|ива|ыва)$/, "$1");
    // and a noun in -ение/-ание is its verb's stem (обнуление: обнулить, разделение: разделить)
    if (lang === "ru" && /^.{4,}(?:ен|ан|ян)$/.test(s) && word.slice(s.length).charAt(0) === "и")
      s = s.slice(0, -2).replace(/^(.{4,}?)(?:ова|ева|ива|ыва)$/, "$1");
    // е and ё are one letter to a reader (and to Sphinx's Russian stemmer)
    // the stem, or the word as typed where the stem is no prefix of it (rotary: rotari)
    var source = escapeRegExp(s).replace(/[её]/g, "[её]");
    if (short) {
      // (and, as before, the words that begin as it was typed: голов, головы)
      var forms = formsOf(s.replace(/ё/g, "е")).map(function (w) { return escapeRegExp(w).replace(/[её]/g, "[её]"); });
      var typed = escapeRegExp(word).replace(/[её]/g, "[её]") + LETTER + "*";
      return {key: s.replace(/ё/g, "е"), source: "(?<!" + LETTER + ")(?:" + (forms.length ? "(?:" + forms.join("|") + ")(?!" + LETTER + ")|" : "") + typed + ")"};
    }
    if (word.indexOf(s) !== 0) source = "(?:" + source + "|" + escapeRegExp(word).replace(/[её]/g, "[её]") + ")";
    // a single letter or digit is a whole word (d, not every word that starts with d)
    var tail = word.length > 1 ? LETTER + "*" : "(?!" + LETTER + ")";
    return {key: s.replace(/ё/g, "е"), source: "(?<!" + LETTER + ")" + source + tail};
  }
  function wordKey(word) { return HAN.test(word) ? word : wordSource(word).key; }
  ((index && index.synonyms) || []).forEach(function (group) {
    group.forEach(function (w) {
      var key = wordKey(w), list = synonymsOf[key] || (synonymsOf[key] = []);
      group.forEach(function (v) { if (list.indexOf(v) < 0) list.push(v); });
    });
  });
  function withSynonyms(piece) {
    var group = synonymsOf[piece.key];
    if (!group) return piece;
    var sources = [piece.source].concat(group.map(function (w) { return HAN.test(w) ? escapeRegExp(w) : wordSource(w).source; }));
    return {text: piece.text, key: piece.key, weak: piece.weak, source: "(?:" + sources.join("|") + ")", also: group};
  }

  // Two words typed apart that the site writes as one (layer norm: layernorm, soft max: softmax) are
  // that word
  function joinCompounds(parts) {
    var out = [];
    for (var k = 0; k < parts.length; k++) {
      var a = parts[k], b = parts[k + 1];
      if (b && !HAN.test(a + b) && a.length > 1 && b.length > 1 && !isStop(a) && !isStop(b) && siteWords()[a + b]) {
        out.push(a + b);
        k++;
      } else out.push(a);
    }
    return out;
  }
  // A stop or question word that a term says beside the same neighbour is part of the subject
  // (finite difference: "difference" asks nothing there; что такое внимание)
  var termPairs = null;
  function inTerm(parts, k) {
    if (!termPairs) {
      termPairs = new Set();
      (index.sections || []).forEach(function (s) {
        (s.k || []).concat(s.e || []).forEach(function (term) {
          var ws = (term.toLowerCase().match(WORD) || []).filter(function (w) { return !HAN.test(w); }).map(wordKey);
          for (var j = 0; j + 1 < ws.length; j++) termPairs.add(ws[j] + " " + ws[j + 1]);
        });
      });
    }
    if (parts[k].length < 4) return false;       // (a, не, of: grammar wherever they stand)
    var key = wordKey(parts[k]);
    return [k - 1, k + 1].some(function (n) {
      var other = parts[n];
      if (!other || HAN.test(other) || isStop(other)) return false;
      return termPairs.has(n < k ? wordKey(other) + " " + key : key + " " + wordKey(other));
    });
  }

  // A term: {pattern: RegExp (global), text: what the reader typed, key: what it is compared by}
  function terms(query) {
    var out = [], seen = {};
    var lower = query.toLowerCase();
    ASKS_CHECK.forEach(function (rule) { lower = lower.replace(rule[0], rule[1]); });
    if (lang === "zh") {              // question words glued to the subject: 为什么先掩码 -> 先掩码
      // (Chinese ones only: an English "of" or "it" is no word inside softmax or position_ids)
      Array.from(questionWords).filter(function (w) { return HAN.test(w) && w.length > 1; })
        .sort(function (a, b) { return b.length - a.length; }).forEach(function (w) {
          if (lower.replace(w, "").trim()) lower = lower.split(w).join(" ");
        });
    }
    // Chinese next to Latin letters or digits is two words (训练loss接近0: 训练 loss 接近 0)
    lower = lower.replace(/(\p{Script=Han}+)/gu, " $1 ");
    var parts = joinCompounds(lower.match(WORD) || []);
    var content = parts.filter(function (part, k) { return HAN.test(part) || !isStop(part) || inTerm(parts, k); });
    if (!content.length) content = parts;              // a query of stop words only: search them
    content.forEach(function (part) {
      var pieces = [];
      if (HAN.test(part)) {
        // the whole run first: if some section holds it as it is, it is one term
        // (a run of several words is cut even so: 位置表的反向传播, which one overview says as it is,
        // is 位置表 and 反向传播, which the section that teaches it says)
        // (a run that is no word of the site is cut too, even where one page says it as it is: 看自己
        // in §7.3's prose would claim 为什么位置i可以看自己, which §1.3 says as 读取它自己)
        var cut = cutChinese(part);
        // (a query of stop words only, 这里, is searched as it is)
        var onlyStop = cut.every(isStop) && content.every(function (p) { return !HAN.test(p) || cutChinese(p).every(isStop); });
        cut.forEach(function (c) {
          if (isStop(c) && !onlyStop) return;
          if (c.length > 1 && !holds(c) && !synonymsOf[c]) {   // a word the site does not use (显存): its character pairs, weakly
            var n = c.length > 2 ? 2 : 1;
            for (var b = 0; b + n <= c.length; b++) {
              var g = c.substr(b, n);
              if (!isStop(g)) pieces.push({text: g, key: g, source: escapeRegExp(g), weak: true});
            }
            return;
          }
          // (a single character left between words, 乘 in 为什么要乘W_O, says less than a word: weakly,
          // unless the glossary has it as a word: 头)
          pieces.push({text: c, key: c, source: escapeRegExp(c), weak: c.length === 1 && part.length > 1 && !chars.has(c)});
        });
      } else {
        // an identifier is its words (pad_token: pad, token), unless they are letters (W_O); one the
        // prose names as it is (is_causal) is also a term of its own, which says more than its words
        var sub = part.split("_").filter(function (w) { return w.length > 1 && !isStop(w); });
        if (part.indexOf("_") >= 0 && sub.length && holds(part))
          pieces.push({text: part, key: part, source: "(?<!" + LETTER + ")" + escapeRegExp(part) + "(?!" + LETTER + ")", extra: true});
        (part.indexOf("_") >= 0 && sub.length ? sub : [part]).forEach(function (word) {
          var w = wordSource(word);
          // a word the site never uses (casual) is most likely a typo of one it does (causal)
          if (!HAN.test(word) && word.length >= 5 && !holds(word, true, w.source) && !synonymsOf[w.key]) {
            var fixed = nearWord(word);
            if (fixed) { word = fixed; w = wordSource(fixed); }
          }
          pieces.push({text: word, key: w.key, source: w.source});
        });
      }
      pieces.map(withSynonyms).forEach(function (p) {
        // (two forms of one word, слой за слоем, are one word of the query)
        var id = p.extra || HAN.test(p.key) ? p.source : "key:" + p.key;
        if (seen[id] || seen[p.source]) return;
        seen[id] = seen[p.source] = true;
        out.push({text: p.text, key: p.key, weak: !!p.weak, extra: !!p.extra, also: p.also || [], pattern: new RegExp(p.source, "giu")});
      });
    });
    return out;
  }

  // A section's terms (site/search-terms.yml), each as the keys of its words, as a query's are made.
  function termKeys(term) {
    return terms(term).map(function (t) { return t.key; });
  }
  // A Chinese term's words, cut as a query is (softmax之后清零: softmax, 之后, 清零)
  function termPieces(term) {
    var out = [];
    (term.toLowerCase().replace(/(\p{Script=Han}+)/gu, " $1 ").match(WORD) || []).forEach(function (part) {
      // (a term is one of the words a query is cut with: 未来扰动 is cut into 未来 and 扰动 here, so
      // that 扰动未来 says it too)
      var cut = HAN.test(part) ? cutChinese(part, part.length > 2 ? part.length - 1 : 2) : [part];
      if (HAN.test(part) && cut.filter(function (w) { return w.length > 1; }).length < 2) cut = [part];
      cut.forEach(function (w) {
        if ((w.length > 1 || !HAN.test(w)) && !isStop(w)) out.push(w);
      });
    });
    return out;
  }
  var sectionTerms = (index && index.sections || []).map(function (s) {
    return (s.k || []).concat(s.e || []).map(function (term) {
      // (a term that asks why counts for a query that does: by the words of its subject)
      var why = WHY.test(term), pieces = lang === "zh" ? termPieces(term) : null;
      if (lang !== "zh") return {keys: termKeys(term), why: why};
      var zh = why ? pieces.join("") : term.toLowerCase().replace(/[\s\p{P}]+/gu, "");
      return {zh: zh, forms: zhForms(zh), pieces: pieces, why: why};
    }).filter(function (t) { return t.zh ? t.zh.length : t.keys.length; });
  });
  // A zh term as written and with one of its words said by a synonym (梯度检验: 梯度检查)
  function zhForms(term) {
    var forms = [term];
    Object.keys(synonymsOf).forEach(function (w) {
      if (!HAN.test(w) || term.indexOf(w) < 0) return;
      synonymsOf[w].forEach(function (v) {
        var form = term.split(w).join(v);
        if (HAN.test(v) && forms.indexOf(form) < 0) forms.push(form);
      });
    });
    return forms;
  }

  // How much of the query the section's terms say, part by part: for each of the query's words
  // (Chinese: each of its characters) the share that lies in a term of the section all of whose
  // words the query holds (or most of a longer term's). Null where no term of the section is said.
  function asked(term) { return asksWhy || !term.why; }
  function termCredit(ts, query, i) {
    var list = sectionTerms[i].filter(asked);
    if (!list.length) return null;
    if (lang === "zh") {
      var q = query.toLowerCase().replace(/[\s\p{P}]+/gu, "");
      var covered = new Array(q.length).fill(0), any = false, len = {};
      list.forEach(function (t) {
        var said = t.forms.filter(function (f) { return q.indexOf(f) >= 0; });
        if (!said.length && t.pieces.length > 1) {     // most of a longer term's words, anywhere in the query
          // (a word, or one of its synonyms: 泄漏检验 is said by 偷看 ... 检查)
          var found = t.pieces.map(function (w) {
            var a = q.indexOf(w);
            (synonymsOf[w] || []).forEach(function (v) { if (a < 0) { a = q.indexOf(v); len[w] = v.length; } });
            return a;
          });
          var m = found.filter(function (a) { return a >= 0; }).length, n = found.length;
          // (half of a term of two words where the query has that half as a word of its own: not
          // 掩码 inside 因果掩码)
          var own = m === 1 && n === 2 && t.pieces.some(function (w, j) {
            return found[j] >= 0 && ts.some(function (x) { return x.key === w || x.also.indexOf(w) >= 0; });
          });
          if ((m >= 2 && 2 * m >= n) || own) {
            any = true;
            // (all of its words, in another order or with other words between, say it as English
            // and Russian do: 掩码要放在softmax前面 is 掩码在softmax之前)
            var share = m === n ? 1 : m === 1 ? TUNE.half : TUNE.part * m / n;
            found.forEach(function (a, j) {
              var size = q.substr(a, t.pieces[j].length) === t.pieces[j] ? t.pieces[j].length : len[t.pieces[j]];
              for (var k = a; a >= 0 && k < a + size; k++) covered[k] = Math.max(covered[k], share);
            });
          }
        }
        said.forEach(function (f) {
          for (var at = q.indexOf(f); at >= 0; at = q.indexOf(f, at + 1)) {
            any = true;
            for (var k = at; k < at + f.length; k++) covered[k] = 1;
          }
        });
      });
      // the beginning of a term typed so far (掩 for 掩码) names it as well as the term would
      if (!any && q.length && list.some(function (t) { return t.zh.indexOf(q) === 0; })) return covered.fill(q.length > 1 ? 0.5 : 1);
      return any ? covered : null;
    }
    // a query word says a term's word by its stem or by a synonym of it (padding: паддинг)
    var said = ts.map(function (t) { return [t.key].concat(t.also.map(wordKey)); });
    var credit = ts.map(function () { return 0; }), any = false;
    list.forEach(function (term) {
      var which = term.keys.map(function (k) {
        for (var j = 0; j < said.length; j++) if (said[j].indexOf(k) >= 0) return j;
        return -1;
      });
      var m = which.filter(function (j) { return j >= 0; }).length, n = which.length;
      // all of a term, or most of a longer one (кэш только в первом слое: кэш для каждого слоя)
      // (half of a term of two words says it a little: генерация of генерация текста)
      var share = m === n ? 1 : (m >= 2 && 2 * m >= n ? TUNE.part * m / n : m === 1 && n === 2 ? TUNE.half : 0);
      if (share) any = true;
      which.forEach(function (j) { if (j >= 0 && share > credit[j]) credit[j] = share; });
    });
    return any ? credit : null;
  }

  // The share of the query those parts make: Chinese by its characters (the question words the
  // reader typed count as covered: 为什么 ... is not the subject), English and Russian by its words,
  // weighted as they are (a rare word says more of the query)
  function coverOf(credit, ts, query, weights) {
    if (!credit) return 0;
    var got = 0, all = 0;
    if (lang === "zh") {
      var q = query.toLowerCase().replace(/[\s\p{P}]+/gu, "");
      var kept = ts.map(function (t) { return t.key; }).join("");
      for (var c = 0; c < q.length; c++) {
        if (kept.indexOf(q.charAt(c)) < 0 && !/[a-z0-9]/.test(q.charAt(c))) continue;
        all++;
        got += credit[c];
      }
      return all ? got / all : 0;
    }
    ts.forEach(function (t, j) {
      var w = t.extra ? 0 : weights ? weights[j] : 1;
      all += w;
      got += w * credit[j];
    });
    return all ? got / all : 0;
  }

  // The parts of the query a section's heading holds, as termCredit gives them (Chinese by character)
  function headingCredit(counts, ts, query) {
    if (!ts.some(function (t, j) { return counts[j].h; })) return null;
    if (lang !== "zh") return ts.map(function (t, j) { return counts[j].h ? 1 : 0; });
    var q = query.toLowerCase().replace(/[\s\p{P}]+/gu, "");
    var covered = new Array(q.length).fill(0);
    ts.forEach(function (t, j) {
      if (!counts[j].h) return;
      for (var at = q.indexOf(t.key); at >= 0; at = q.indexOf(t.key, at + 1))
        for (var k = at; k < at + t.key.length; k++) covered[k] = 1;
    });
    return covered;
  }

  // Parts said by the section's own terms, or (each at TUNE.ctx) by its chapter's: the section
  // of the chapter whose subject the query names that names the rest (多头注意力 拆分: §2.2)
  function withContext(own, others) {
    var out = null;
    [own].concat(others).forEach(function (credit, k) {
      if (!credit) return;
      if (!out) out = credit.map(function () { return 0; });
      credit.forEach(function (v, j) { out[j] = Math.max(out[j], k ? v * TUNE.ctx : v); });
    });
    return out;
  }

  // The section's terms hold this word of the query (compared as the terms' words are: by stem)
  function termHolds(i, t) {
    var keys = [t.key].concat(t.also.map(wordKey));
    return sectionTerms[i].filter(asked).some(function (term) {
      return keys.some(function (k) { return term.zh ? term.zh.indexOf(k) >= 0 : term.keys.indexOf(k) >= 0; });
    });
  }

  // The English words of the glossary terms a section's heading says (zh, ru: 掩码 in a heading, "mask")
  var headingEnglish = (index && index.sections || []).map(function (s) {
    var keys = [];
    (s.g || []).forEach(function (term) { keys = keys.concat(termKeys(term)); });
    return keys;
  });

  // A heading's words (its number left out), to see how much of it a query says
  var headingWords = (index && index.sections || []).map(function (s) {
    var out = [];
    (s.h.replace(/^[\d.]+\s*/, "").toLowerCase().match(WORD) || []).forEach(function (w) {
      (HAN.test(w) ? cutChinese(w).filter(function (c) { return c.length > 1; }) : [w]).forEach(function (c) {
        if (!isStop(c)) out.push(c);
      });
    });
    return out;
  });

  function count(pattern, text) {
    if (!text) return 0;
    pattern.lastIndex = 0;
    var n = 0;
    while (pattern.exec(text) && n < 1000) n++;
    return n;
  }

  var KIND = {exercises: -30, solutions: -32};   // the lesson first, unless an exercise says clearly more
  var SUMMARY = -6;                                // a chapter's summary recalls what its sections teach

  // BM25F (Robertson and Zaragoza): a word's mentions in each field, weighted by field and divided by
  // the field's length relative to the average, saturate together (the 1st mention counts most); a
  // long section (§7's five seeds) holds many words but says each of them no louder than a short one.
  var TUNE = {k1: 1.2, bx: 0.75, bc: 0.75, wh: 4, wk: 4, wx: 1, wc: 0.4, rel: 100, def: 30, defk: 25, ctx: 0.7, part: 0.7, half: 0.25, why: 20, hp: 8};
  var introOf = [], unitOf = [];
  (function () {
    var at = {};
    (index && index.sections || []).forEach(function (s, i) { at[s.p + "#" + s.a] = i; });
    (index && index.sections || []).forEach(function (s, i) {
      var intro = at[s.p + "#"], unit = s.u !== undefined ? at[s.p + "#" + s.u] : undefined;
      introOf.push(intro === undefined ? i : intro);
      unitOf.push(unit === undefined ? i : unit);
    });
  })();
  var lengths = {x: 0, c: 0};
  (index && index.sections || []).forEach(function (s) { lengths.x += s.x.length; lengths.c += (s.c || "").length; });
  var sections = (index && index.sections || []).length || 1;
  function lengthNorm(length, field) {
    var b = field === "x" ? TUNE.bx : TUNE.bc;
    return 1 - b + b * length / (lengths[field] / sections || 1);
  }

  function search(query) {
    var ts = terms(query);
    if (!ts.length) return [];
    asksWhy = WHY.test(query);
    var credits = index.sections.map(function (s, i) { return termCredit(ts, query, i); });
    // whether the query says more than its chapter's subject (a query that is only the subject
    // finds the section that defines it)
    var more = credits.map(function (c) { return coverOf(c, ts, query) < 1; });
    // every term where it occurs, and how rare it is (IDF): "prefill" says more than "cache"
    var counts = index.sections.map(function (s, i) {
      return ts.map(function (t) {
        var h = count(t.pattern, s.h) || (headingEnglish[i].indexOf(t.key) >= 0 ? 1 : 0);
        // (a chapter's title, in the introduction that stands for the section defining its subject,
        // is prose there: it names the chapter's claim, not what that section says)
        var x = count(t.pattern, s.x);
        if (!s.a && s.u) { x += h; h = 0; }
        // (an identifier as written counts where the prose names it, not in every cell that calls it)
        // (a term of the section's chapter's introduction, the chapter's subject, is said by each of
        // its sections, a little less: a query that names it and more finds the section of the rest)
        var k = termHolds(i, t) ? 1 : more[introOf[i]] && termHolds(introOf[i], t) ? TUNE.ctx : 0;
        return {h: h, x: x, c: t.extra ? 0 : count(t.pattern, s.c), k: k};
      });
    });
    var idf = ts.map(function (t, j) {
      var df = counts.filter(function (cs) { var c = cs[j]; return c.h || c.x || c.c || c.k; }).length;
      if (!df) return 0;                           // no section holds it: it ranks nothing
      var w = Math.log(1 + (sections - df + 0.5) / (df + 0.5));
      return t.weak ? w / 2 : w;
    });
    // (an identifier as written adds to the sections that hold it; the query's share is that of its words)
    var total = idf.reduce(function (a, b, j) { return a + (ts[j].extra ? 0 : b); }, 0) || 1;
    var relTotal = idf.reduce(function (a, b) { return a + b; }, 0) || 1;
    var covers = credits.map(function (c) { return coverOf(c, ts, query, idf); });
    var scored = index.sections.map(function (s, i) {
      var found = 0, inHeading = 0, rel = 0, any = false;
      var cover = covers[i];
      // (the section that defines its chapter's subject, §8.1 for the poems, says what the chapter's
      // introduction names as its own terms do)
      var subject = introOf[i] !== i && unitOf[introOf[i]] === i && credits[introOf[i]];
      var ownCredit = subject ? withContext(credits[i], [credits[introOf[i]]].map(function (c) {
        return c.map(function (v) { return v / TUNE.ctx; });
      })) : credits[i];
      if (subject) cover = coverOf(ownCredit, ts, query, idf);
      // a section of the chapter whose terms the query says (kv cache 显存: §5.6 in §5) shares, a little
      // less, what the chapter's introduction and its own numbered section define
      // (and what its heading says of the rest: 8.2 Обучение с маской и без неё, for обучение на
      // стихах с маской и без, where the poems are the chapter's subject)
      var chapter = [subject ? null : credits[introOf[i]], credits[unitOf[i]]];
      var own = ownCredit;
      // (a heading names less than a term defines: its words count as the chapter's do, at TUNE.ctx)
      if (introOf[i] !== i && credits[introOf[i]] && more[introOf[i]]) own = withContext(own, [headingCredit(counts[i], ts, query)]);
      // (only where its own terms or heading say something: a section that says nothing of the rest
      // is no closer than the one that defines the subject: 因果掩码是怎么构造的 finds §1.4, not §1.9)
      var context = own ? coverOf(withContext(own, chapter), ts, query, idf) : 0;
      var nx = lengthNorm(s.x.length, "x"), nc = lengthNorm((s.c || "").length, "c");
      ts.forEach(function (t, j) {
        var c = counts[i][j];
        // (an identifier as written counts in rel only: its words already count in found)
        if (!t.extra) found += c.h || c.x || c.k ? idf[j] : c.c ? idf[j] / 2 : 0;
        if (c.h || c.x || c.c || c.k) any = true;
        if (c.h) inHeading += idf[j];
        var tf = TUNE.wh * Math.min(c.h, 2) + TUNE.wk * c.k + TUNE.wx * c.x / nx + TUNE.wc * c.c / nc;
        rel += idf[j] * tf / (TUNE.k1 + tf);
      });
      var heading = inHeading / total;
      // of two headings that say the query, the one that says little else (5.8 Сколько времени экономит
      // кэш before Работа и время, которые экономит кэш)
      var precise = 0;
      if (heading > 0 && headingWords[i].length) {
        precise = heading * headingWords[i].filter(function (w) {
          return ts.some(function (t) { t.pattern.lastIndex = 0; return t.pattern.test(w); });
        }).length / headingWords[i].length;
      }
      // one score, a sum: how often the section says each query word (BM25F: rare words weigh more,
      // code less than prose), plus, weighted more, how much of the query one of its terms or its
      // heading says (the section that defines it)
      var score = TUNE.rel * rel / relTotal + TUNE.def * Math.max(cover, heading, context);
      // the section that defines it, or its chapter does (a little of its own never counts for less)
      var defines = Math.max(cover, context);
      // (a term of its own that the query says whole counts whatever its heading says; part of a
      // term, or its chapter's, where they say more than its heading)
      var whole = ownCredit && ownCredit.some(function (v) { return v >= 1; });
      if (defines > 0 && (whole || defines >= heading)) score += TUNE.defk * defines;
      score += TUNE.hp * precise;
      if (!s.a && inHeading >= total) score += 0.5;               // the page's own title
      // a why question: the section that says why, of what the query names
      if (asksWhy && (WHY.test(s.h) || sectionTerms[i].some(function (t) { return t.why; })))
        score += TUNE.why * Math.max(cover, heading, context);
      score += KIND[s.p.split("/")[0]] || 0;
      if (s.s) score += SUMMARY;
      return {entry: s, score: score, any: any, order: i,
              why: [found / total, cover, heading, rel / relTotal].map(function (v) { return Math.round(v * 100) / 100; })};
    });
    // one result per numbered section: an unnumbered subsection counts for the section it is in,
    // and the result links to the part of the section that answers best
    var units = {}, byKey = {};
    index.sections.forEach(function (s) { byKey[s.p + "#" + s.a] = s; });
    scored.forEach(function (r) {
      if (!r.any) return;
      var s = r.entry;
      var key = s.p + "#" + (s.u !== undefined ? s.u : s.a);
      var unit = units[key];
      if (!unit) unit = units[key] = {entry: byKey[key] || s, title: index.titles[s.p] || "", score: -1e9, order: r.order};
      if (r.score > unit.score) { unit.score = r.score; unit.best = s; unit.why = r.why; }
      unit.order = Math.min(unit.order, r.order);
    });
    var hits = Object.keys(units).map(function (k) {
      var u = units[k];
      // (a chapter's introduction found for the section that defines its subject links to that section)
      if (u.best !== u.entry && u.best.a) u.sub = u.best;
      return u;
    });
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
    var texts = (index && index.texts) || {};
    heading.textContent = texts.heading || "";
    out.appendChild(heading);
    var status = document.createElement("p");
    status.className = "search-summary";
    status.setAttribute("role", "status");
    out.appendChild(status);
    var result = search(query);
    var hits = result.hits || [];
    if (!hits.length) {
      status.textContent = texts.none || "";
      return;
    }
    // (the results are sections, not pages: Sphinx's own sentences would say "page(s)" and speak of
    // categories this search does not have)
    status.textContent = (texts.found || "").replace("{n}", hits.length);
    var list = document.createElement("ul");
    list.className = "search";
    hits.slice(0, 60).forEach(function (hit) {
      var s = hit.entry, part = hit.sub || s;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = part.p + ".html" + (part.a ? "#" + part.a : "");
      a.textContent = [hit.title].concat(s.a ? [s.h] : [], hit.sub ? [part.h] : []).join(" › ");
      li.appendChild(a);
      // the prose where it holds a word of the query, else the code
      var inProse = result.terms.some(function (t) { return count(t.pattern, part.x) > 0; });
      li.appendChild(snippet(inProse || !part.c ? part.x : part.c, result.terms));
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
  window.courseSearch.pieces = termPieces;                             // (how a zh term is cut)
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
