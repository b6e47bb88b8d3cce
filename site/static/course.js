// Course site, on every page (small on purpose; see site/README.md).
(function () {
  // The section the URL points at (#...), as the id of its <section>. Section
  // ids are language-neutral (site/course_site.py: #sec-2-3, #part-1), so the
  // same id names the same place on the page in every language.
  function currentSection() {
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    var section = target && (target.matches("section[id]") ? target : target.closest("section[id]"));
    // Scrolled since (or no anchor at all): the section whose heading was passed
    // last, i.e. the nearest heading at or above the top of the window.
    var scrolled = scrolledSection();
    if (scrolled && (!section || Math.abs(section.getBoundingClientRect().top) > window.innerHeight)) section = scrolled;
    return section ? section.id : "";
  }
  function scrolledSection() {
    var sections = document.querySelectorAll(".bd-article section[id]");
    var found = null;
    for (var i = 0; i < sections.length; i++) {
      var heading = sections[i].querySelector("h1, h2, h3, h4");
      if (!heading || heading.closest("section") !== sections[i]) continue;
      if (heading.getBoundingClientRect().top <= 90) found = sections[i];
      else if (found) break;
    }
    return found && window.scrollY > 0 ? found : null;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-course-lang]");
    if (!link) return;
    // Remember the choice: the landing page (site/landing.html) sends the reader back to it.
    try { localStorage.setItem("course-lang", link.getAttribute("data-course-lang")); } catch (e) { /* private mode */ }
    // Keep the reader's place on the same page in the other language.
    if (link.closest(".course-lang-switcher, .course-lang-menu") && !link.hasAttribute("data-course-fallback")) {
      var id = currentSection();
      if (id) link.href = link.href.split("#")[0] + "#" + encodeURIComponent(id);
    }
  });

  // The phone language menu (<details>) closes on a click elsewhere or Escape.
  function closeMenus(except) {
    var open = document.querySelectorAll("details.course-lang-menu[open]");
    for (var i = 0; i < open.length; i++) if (open[i] !== except) open[i].removeAttribute("open");
  }
  document.addEventListener("click", function (event) {
    closeMenus(event.target.closest ? event.target.closest("details.course-lang-menu") : null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") closeMenus(null);
  });

  // Figures drawn as images (figures/plots.py: text of at least 10 pt at 100 dpi,
  // 13.9 px at the drawn size) are never shown below 3/4 of that size, so their
  // text stays at least 10 px on a phone; a narrower column lets the figure
  // scroll sideways inside its own box (focusable, so a keyboard can scroll it),
  // never the page. Diagrams (SVG) scale as vectors and are left alone.
  var SMALLEST = 0.75;
  function keepReadable(img) {
    if (!img.naturalWidth) return;
    img.style.minWidth = Math.round(img.naturalWidth * SMALLEST) + "px";
    var box = img.closest("figure.course-figure") || img.closest("div.output");
    if (box && box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.classList.add("course-scrolls");
    }
  }
  function readableFigures() {
    // (the panels of a figure, .course-panel, are laid out by course.css at their drawn size)
    var images = document.querySelectorAll(".bd-article .cell_output img:not([src$='.svg']):not(.course-panel img)");
    Array.prototype.forEach.call(images, function (img) {
      if (img.complete) keepReadable(img);
      else img.addEventListener("load", function () { keepReadable(img); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", readableFigures);
  else readableFigures();

  // Code that teaches, checks that guard the text: the lines of a code cell that
  // are an `assert` (with their continuation lines) get a bar in the margin, so
  // the prose, the code and the result stand out; the lines themselves are
  // unchanged (nbval runs them, the copy button copies them).
  var CHECK_TITLE = {zh: "核对语句：保证正文里的数字成立，测试会运行它",
                     en: "A check that guards the text; the tests run it",
                     ru: "Проверка, которая охраняет текст; её выполняют тесты"};
  function markChecks(pre) {
    var lines = [[]], node, parts, i;
    var nodes = Array.prototype.slice.call(pre.childNodes);
    for (i = 0; i < nodes.length; i++) {
      node = nodes[i];
      parts = node.textContent.split("\n");
      if (parts.length === 1) { lines[lines.length - 1].push(node); continue; }
      // a node that holds line breaks: split it into one text node per line
      var parent = node.parentNode;
      parts.forEach(function (part, k) {
        if (part) {
          var text = document.createTextNode(part);
          parent.insertBefore(text, node);
          lines[lines.length - 1].push(text);
        }
        if (k < parts.length - 1) {          // the line break stays outside the line's box
          parent.insertBefore(document.createTextNode("\n"), node);
          lines.push([]);
        }
      });
      parent.removeChild(node);
    }
    var depth = 0, inCheck = false;
    var title = CHECK_TITLE[(document.documentElement.lang || "en").split("-")[0]] || CHECK_TITLE.en;
    lines.forEach(function (line) {
      var text = line.map(function (n) { return n.textContent; }).join("");
      if (!inCheck && /^\s*assert\b/.test(text)) inCheck = true;
      if (!inCheck || !line.length) return;
      depth += (text.match(/[([{]/g) || []).length - (text.match(/[)\]}]/g) || []).length;
      var span = document.createElement("span");
      span.className = "course-check-line";
      span.title = title;
      line[0].parentNode.insertBefore(span, line[0]);
      line.forEach(function (n) { span.appendChild(n); });
      if (depth <= 0 && !/\\\s*$/.test(text)) { inCheck = false; depth = 0; }
    });
  }
  function markAllChecks() {
    var pres = document.querySelectorAll(".bd-article div.cell_input pre");
    Array.prototype.forEach.call(pres, function (pre) {
      if (/(^|\n)\s*assert\b/.test(pre.textContent)) markChecks(pre);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markAllChecks);
  else markAllChecks();

  // The download menu's files are saved under their own names, never opened in a tab, whatever
  // type a host serves them as (some serve .ipynb as JSON): the notebook and the course's wheel,
  // whose file name pip needs as it is (site/course_site.py, add_wheel_download).
  function saveDownloads() {
    var links = document.querySelectorAll("a.btn-download-source-button, a.btn-download-wheel-button");
    Array.prototype.forEach.call(links, function (link) {
      link.setAttribute("download", decodeURIComponent(link.pathname.split("/").pop()));
      link.removeAttribute("target");
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", saveDownloads);
  else saveDownloads();
})();
