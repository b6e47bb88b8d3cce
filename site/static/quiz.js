// Questions that answer on the page (tools/quizzes.py writes the HTML).
// Without this script the page shows the questions with their answers folded
// in <details>. With it: choices become buttons, a number gets a field, steps
// get "move up / move down" buttons; feedback goes to an aria-live region and
// says right or wrong in words and a symbol, not by colour alone. Progress is
// kept in localStorage, one key per language; nothing is sent anywhere. The
// script has no words of its own: they come from the quiz's data-ui.
(function () {
  var lang = document.documentElement.lang || "en";
  var KEY = "course-quiz:" + lang.split("-")[0];

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function save(qid, right) {
    var state = load();
    if (state[qid] === 1 && !right) return;           // a right answer stays right
    state[qid] = right ? 1 : 0;
    try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* private mode */ }
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }
  // a text of data-ui with its {fields} filled in; a field's value may be a node
  function fill(template, fields) {
    var out = document.createDocumentFragment();
    template.split(/(\{\w+\})/).forEach(function (part) {
      var name = /^\{(\w+)\}$/.exec(part), value = name ? fields[name[1]] : part;
      if (value === undefined || value === "") return;
      out.appendChild(typeof value === "object" ? value : document.createTextNode(String(value)));
    });
    return out;
  }
  function format(template, fields) { return fill(template, fields).textContent; }
  // the verdict in bold, then the detail, with what the language writes between them (ui.feedback)
  function say(q, ui, ok, lead, detail) {
    var box = q.querySelector(".quiz-feedback");
    box.className = "quiz-feedback " + (ok ? "is-right" : "is-wrong");
    box.textContent = "";
    var verdict = el("strong", "", lead);
    box.appendChild(detail ? fill(ui.feedback, {verdict: verdict, detail: detail}) : verdict);
  }
  // decimal: the page language's decimal sign (data-ui); a comma is then either that sign (0,333)
  // or, on a page that writes a point, the thousands of 1,048,576
  function parseNumber(text, decimal) {
    var t = text.trim().replace(/\s|\u00a0|\u202f/g, "").replace("−", "-");
    if (decimal !== "," && /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, "");
    t = t.replace(",", ".");
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return NaN;
    return parseFloat(t);
  }

  function setupChoose(q, ui, done) {
    var items = q.querySelectorAll(".quiz-choices > li");
    var letters = "ABCDEFGH";
    Array.prototype.forEach.call(items, function (li, i) {
      var button = el("button", "quiz-choice");
      button.type = "button";
      button.setAttribute("aria-pressed", "false");
      var letter = el("span", "quiz-letter", letters[i]);
      letter.setAttribute("aria-hidden", "true");
      button.appendChild(letter);
      var text = el("span", "quiz-text");
      while (li.firstChild) text.appendChild(li.firstChild);
      button.appendChild(text);
      li.appendChild(button);
      button.addEventListener("click", function () {
        var right = li.getAttribute("data-right") === "1";
        Array.prototype.forEach.call(q.querySelectorAll(".quiz-choice"), function (b) {
          b.setAttribute("aria-pressed", String(b === button));
          b.parentNode.classList.remove("is-right", "is-wrong");
        });
        li.classList.add(right ? "is-right" : "is-wrong");
        say(q, ui, right, right ? ui.right : ui.wrong, li.getAttribute("data-why"));
        done(right);
      });
    });
  }

  function setupNumber(q, ui, done) {
    var box = q.querySelector(".quiz-number");
    var answer = parseFloat(box.getAttribute("data-answer"));
    var tolerance = parseFloat(box.getAttribute("data-tolerance")) || 0;
    var hints = {};
    Array.prototype.forEach.call(box.querySelectorAll(".quiz-hints > li"), function (li) {
      hints[li.getAttribute("data-value")] = li.textContent;
    });
    var form = el("form", "quiz-number-form");
    var id = q.getAttribute("data-qid") + "-in";
    var label = el("label", "", ui.your_answer);
    label.htmlFor = id;
    var input = el("input");
    input.id = id;
    input.type = "text";
    input.setAttribute("inputmode", "decimal");
    input.setAttribute("autocomplete", "off");
    var button = el("button", "quiz-check", ui.check);
    button.type = "submit";
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(button);
    box.appendChild(form);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var value = parseNumber(input.value, ui.decimal);
      if (isNaN(value)) { say(q, ui, false, ui.not_a_number, ""); return; }
      var right = Math.abs(value - answer) <= tolerance + 1e-12 * Math.abs(answer);
      var hint = "";
      for (var key in hints) if (Math.abs(parseFloat(key) - value) <= 1e-12 * Math.abs(value) + tolerance) hint = hints[key];
      var why = q.querySelector(".quiz-answer > p");
      say(q, ui, right, right ? ui.right : ui.wrong,
          right ? (why ? why.textContent : "") : (hint || ui.try_number));
      input.setAttribute("aria-invalid", String(!right));
      done(right);
    });
  }

  function setupOrder(q, ui, done) {
    var list = q.querySelector(".quiz-steps");
    function refresh() {
      var items = list.children;
      for (var i = 0; i < items.length; i++) {
        // the place, shown: a flex item loses the list's own numbers, and the feedback names places
        items[i].querySelector(".quiz-place").textContent = (i + 1) + ".";
        items[i].querySelector(".quiz-up").disabled = i === 0;
        items[i].querySelector(".quiz-down").disabled = i === items.length - 1;
      }
    }
    Array.prototype.forEach.call(list.children, function (li) {
      var text = el("span", "quiz-text");
      while (li.firstChild) text.appendChild(li.firstChild);
      var place = el("span", "quiz-place");
      place.setAttribute("aria-hidden", "true");        // a screen reader has the list's own numbers
      li.appendChild(place);
      li.appendChild(text);
      var tools = el("span", "quiz-move");
      [["quiz-up", "↑", ui.up], ["quiz-down", "↓", ui.down]].forEach(function (spec) {
        var b = el("button", spec[0], spec[1]);
        b.type = "button";
        b.setAttribute("aria-label", format(spec[2], {step: text.textContent}));
        b.addEventListener("click", function () {
          var up = spec[0] === "quiz-up";
          var other = up ? li.previousElementSibling : li.nextElementSibling;
          if (!other) return;
          list.insertBefore(li, up ? other : other.nextElementSibling);
          refresh();
          var again = li.querySelector("." + spec[0]);
          (again.disabled ? li.querySelector(up ? ".quiz-down" : ".quiz-up") : again).focus();
          q.querySelector(".quiz-feedback").textContent = "";
        });
        tools.appendChild(b);
      });
      li.appendChild(tools);
    });
    refresh();
    var check = el("button", "quiz-check", ui.check);
    check.type = "button";
    list.parentNode.insertBefore(check, list.nextSibling);
    check.addEventListener("click", function () {
      var wrong = [];
      Array.prototype.forEach.call(list.children, function (li, i) {
        var ok = String(i) === li.getAttribute("data-step");
        li.classList.toggle("is-wrong", !ok);
        li.classList.toggle("is-right", ok);
        if (!ok) wrong.push(i + 1);
      });
      var right = wrong.length === 0;
      say(q, ui, right, right ? ui.order_right : ui.wrong,
          right ? "" : format(ui.order_wrong, {steps: wrong.join(ui.list_sep)}));
      done(right);
    });
  }

  function setup(quiz) {
    var ui = JSON.parse(quiz.getAttribute("data-ui"));
    var questions = quiz.querySelectorAll(".quiz-q");
    var progress = quiz.querySelector(".quiz-progress");
    function showProgress() {
      var state = load(), n = 0;
      Array.prototype.forEach.call(questions, function (q) {
        var ok = state[q.getAttribute("data-qid")] === 1;
        q.classList.toggle("was-right", ok);
        if (ok) n++;
      });
      progress.textContent = format(ui.progress, {n: n, m: questions.length});
    }
    Array.prototype.forEach.call(questions, function (q) {
      var done = function (right) { save(q.getAttribute("data-qid"), right); showProgress(); };
      var kind = q.getAttribute("data-kind");
      if (kind === "choose") setupChoose(q, ui, done);
      else if (kind === "number") setupNumber(q, ui, done);
      else if (kind === "order") setupOrder(q, ui, done);
    });
    quiz.classList.add("is-live");
    showProgress();
  }

  function start() { Array.prototype.forEach.call(document.querySelectorAll("aside.quiz"), setup); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
