// Course site, on every page (small on purpose; see site/README.md).
(function () {
  // The section the URL points at (#...), as the id of its <section>. Section
  // ids are language-neutral (site/course_site.py: #sec-2-3, #part-1), so the
  // same id names the same place on the page in every language.
  function currentSection() {
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    var section = target && (target.matches("section[id]") ? target : target.closest("section[id]"));
    return section ? section.id : "";
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
})();
