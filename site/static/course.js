// Course site: remember the language a reader picks, so the landing page
// sends them back to it next time (see site/landing.html).
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest("a[data-course-lang]");
  if (!link) return;
  try { localStorage.setItem("course-lang", link.getAttribute("data-course-lang")); } catch (e) { /* private mode */ }
});
