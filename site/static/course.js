// Course site, on every page (small on purpose; see site/README.md).
(function () {
  // The page's words for this script, in its language: tools/build_site.py writes them as JSON
  // in this script tag's data-course-texts, from the catalogues of course_i18n (close,
  // scroll_hint, check_title); the script holds no text of its own.
  var me = document.currentScript;
  var TEXTS = {};
  try { TEXTS = JSON.parse((me && me.getAttribute("data-course-texts")) || "{}"); } catch (e) { /* none */ }
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
    // On the search page, the other language's search page runs the same query.
    if (link.closest(".course-lang-switcher, .course-lang-menu") && /\/search\.html$/.test(link.pathname)
        && /[?&]q=/.test(location.search)) {
      link.search = location.search;
      return;
    }
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

  // The sidebar buttons of the article header (☰: the chapter list; the list icon: the
  // page's contents). The theme opens each panel as a modal dialog on narrow screens
  // (pydata-sphinx-theme) and hides or shows the chapter list on wide ones
  // (sphinx-book-theme); its script binds them once site/templates/sections/header.html
  // has removed the hidden copies it bound instead. Here: a close button inside each
  // dialog (the header's button is behind the dialog, so it cannot close it; Escape and
  // a tap outside also close it), and aria-expanded on the buttons.
  var WIDE = window.matchMedia("(min-width: 992px)");
  function sidebarButtons() {
    ["primary", "secondary"].forEach(function (side) {
      var toggle = document.querySelector(".bd-header-article ." + side + "-toggle");
      var dialog = document.getElementById("pst-" + side + "-sidebar-modal");
      var sidebar = document.getElementById("pst-" + side + "-sidebar");
      if (!toggle || !dialog || !sidebar) return;
      function expanded() {
        var shown = dialog.open || (side === "primary" && WIDE.matches && !sidebar.classList.contains("pst-sidebar-hidden"));
        toggle.setAttribute("aria-expanded", shown ? "true" : "false");
      }
      toggle.setAttribute("aria-controls", "pst-" + side + "-sidebar");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "course-dialog-close btn";
      close.innerHTML = '<span class="fa-solid fa-xmark" aria-hidden="true"></span> ';
      close.appendChild(document.createTextNode(TEXTS.close || ""));
      close.addEventListener("click", function () { dialog.close(); });
      // The theme moves the panel's content into the dialog when it opens and back when
      // it closes; the button travels with it and course.css shows it only in an open dialog.
      dialog.insertBefore(close, dialog.firstChild);
      // (the theme's wide-screen handler stops the click from reaching other listeners;
      // watch what it changes instead)
      new MutationObserver(expanded).observe(sidebar, {attributes: true, attributeFilter: ["class"]});
      new MutationObserver(expanded).observe(dialog, {attributes: true, attributeFilter: ["open"]});
      // back to the button when the dialog closes (the theme would return the focus to where
      // it was when the button was pressed, but its own script has blurred the button by then)
      dialog.addEventListener("close", function () { toggle.focus(); });
      if (WIDE.addEventListener) WIDE.addEventListener("change", expanded);
      expanded();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sidebarButtons);
  else sidebarButtons();

  // On a touch screen a tap on a header button left the theme's Bootstrap tooltip open over the
  // header's other buttons; there the buttons keep their names (aria-label, title) but no tooltip.
  // (Before the theme's script turns the tooltips on: this runs first, at DOMContentLoaded.)
  function noTouchTooltips() {
    if (!window.matchMedia("(hover: none)").matches) return;
    Array.prototype.forEach.call(document.querySelectorAll(".bd-header-article [data-bs-toggle='tooltip']"),
                                 function (el) { el.removeAttribute("data-bs-toggle"); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", noTouchTooltips);
  else noTouchTooltips();

  // Figures drawn as images (figures/plots.py) are never shown below the size at which
  // their smallest text is 10 px: figures/plots.py records that text's size in the
  // notebook output (site/course_book.py writes it as data-smallest-px on the image);
  // without it, text of plots.TEXT (10 pt, 13.9 px as drawn) is assumed, i.e. 3/4 of
  // the drawn size. Diagrams (SVG) scale as vectors and are left alone.
  var PLOT_TEXT_PX = 10 * 100 / 72, MIN_TEXT_PX = 10;
  function keepReadable(img) {
    if (!img.naturalWidth) return;
    var smallest = parseFloat(img.getAttribute("data-smallest-px")) || PLOT_TEXT_PX;
    var scale = Math.min(1, Math.max(MIN_TEXT_PX / smallest, smallest === PLOT_TEXT_PX ? 0.75 : 0));
    img.style.minWidth = Math.round(img.naturalWidth * scale) + "px";
    markScrolling();
  }
  function readableFigures() {
    // (the panels of a figure, .course-panel, are laid out by the flex sizes site/course_book.py gives them)
    var images = document.querySelectorAll(".bd-article .cell_output img:not([src$='.svg']):not(.course-panel img)");
    Array.prototype.forEach.call(images, function (img) {
      if (img.complete) keepReadable(img);
      else img.addEventListener("load", function () { keepReadable(img); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", readableFigures);
  else readableFigures();

  // Whatever is wider than the column scrolls sideways in its own box, never the page,
  // and says so: a figure, a table, an output or a formula that does not fit gets a
  // line (TEXTS.scroll_hint: under a figure, above its caption; else above the box) and a
  // fade at the edge where more is hidden; code gets the fade only (code that scrolls is
  // expected). A box that scrolls can be focused, so a keyboard can scroll it.
  // tests/test_site_phone.py checks every figure, table, output and formula at 360 px.
  var SCROLLERS = ".bd-article .course-figure-box, .bd-article .pst-scrollable-table-container, " +
                  ".bd-article div.cell_output > div.output, .bd-article mjx-container[display='true'], " +
                  ".bd-article div.math-display, .bd-article .highlight > pre";
  function edges(box) {
    var more = box.scrollWidth - box.clientWidth;
    box.classList.toggle("course-more-right", box.scrollLeft < more - 1);
    box.classList.toggle("course-more-left", box.scrollLeft > 1);
  }
  function hintFor(box) {         // right after a figure's box (above its caption), else right before the box
    var next = box.nextElementSibling, previous = box.previousElementSibling;
    if (box.closest("figure")) return next && next.classList.contains("course-scroll-hint") ? next : null;
    return previous && previous.classList.contains("course-scroll-hint") ? previous : null;
  }
  function markScrolling() {
    Array.prototype.forEach.call(document.querySelectorAll(SCROLLERS), function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      var code = box.tagName === "PRE";
      var hint = hintFor(box);
      box.classList.toggle("course-scrolls", scrolls);
      if (scrolls) {
        // (the theme gives a scrolling box tabindex 0 too, and -1 to one that did not scroll at its last look)
        if (box.tabIndex < 0 || !box.hasAttribute("tabindex")) { box.setAttribute("tabindex", "0"); box.dataset.courseTab = "1"; }
        if (!box.dataset.courseEdges) {
          box.dataset.courseEdges = "1";
          box.addEventListener("scroll", function () { edges(box); }, {passive: true});
        }
        edges(box);
        if (!hint && !code) {
          hint = document.createElement("p");
          hint.className = "course-scroll-hint";
          hint.setAttribute("aria-hidden", "true");          // what the eye needs; the box itself is focusable
          hint.textContent = TEXTS.scroll_hint || "";
          box.parentNode.insertBefore(hint, box.closest("figure") ? box.nextSibling : box);
        }
      } else {
        box.classList.remove("course-more-right", "course-more-left");
        if (box.dataset.courseTab) { box.removeAttribute("tabindex"); delete box.dataset.courseTab; }
        if (hint) hint.parentNode.removeChild(hint);
      }
    });
  }
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(markScrolling, 150);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markScrolling);
  else markScrolling();
  window.addEventListener("load", markScrolling);          // after images and fonts
  window.courseMarkScrolling = markScrolling;              // for scripts that change the page (maths, widgets)

  // Printing: folded code (a cell tagged hide-input) is printed unfolded, then folded again.
  var unfolded = [];
  window.addEventListener("beforeprint", function () {
    unfolded = Array.prototype.filter.call(document.querySelectorAll(".bd-article details.above-input:not([open])"),
                                           function (d) { d.open = true; return true; });
  });
  window.addEventListener("afterprint", function () {
    unfolded.forEach(function (d) { d.open = false; });
    unfolded = [];
  });

  // Code that teaches, checks that guard the text: the lines of a code cell that
  // are an `assert` (with their continuation lines) get a bar in the margin, so
  // the prose, the code and the result stand out; the lines themselves are
  // unchanged (nbval runs them, the copy button copies them).
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
    var title = TEXTS.check_title || "";
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
