// Loaded (by myst-nb) only on pages that show Jupyter widgets, after
// widgets-setup.js. The widget runtime (require.js + the widget manager,
// about 0.9 MB compressed) is fetched only when a widget comes near the
// window, so a reader who never scrolls to it never pays for it.
// data-course-load: the scripts to load, in order, relative to this file;
// data-jupyter-widgets-cdn: passed on to the widget manager (site-local).
(function () {
  var me = document.currentScript;
  if (!me) return;
  var files = (me.getAttribute("data-course-load") || "").split(/\s+/).filter(Boolean);
  var cdn = me.getAttribute("data-jupyter-widgets-cdn");
  var started = false;

  function load(index) {
    if (index >= files.length) return;
    var script = document.createElement("script");
    script.src = new URL(files[index], me.src).href;
    if (index === files.length - 1 && cdn) script.setAttribute("data-jupyter-widgets-cdn", cdn);
    script.onload = function () { load(index + 1); };
    document.head.appendChild(script);
  }
  function start() {
    if (started) return;
    started = true;
    load(0);
  }
  function watch() {
    var views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
    if (!views.length) return;
    if (!("IntersectionObserver" in window)) { start(); return; }
    var observer = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { observer.disconnect(); start(); }
    }, {rootMargin: "600px 0px"});
    Array.prototype.forEach.call(views, function (view) { observer.observe(view.parentElement); });
  }
  // Sliders (noUiSlider handles, role=slider) carry no name of their own: give
  // each the text of its widget's description label ("X[2,0]", "H").
  function nameControls() {
    var widgets = document.querySelectorAll(".widget-slider, .widget-hslider, .widget-vslider");
    Array.prototype.forEach.call(widgets, function (widget) {
      var label = widget.querySelector(".widget-label");
      var text = label && label.textContent.trim();
      if (!text) return;
      var handles = widget.querySelectorAll('[role="slider"]:not([aria-label]):not([aria-labelledby])');
      Array.prototype.forEach.call(handles, function (handle) { handle.setAttribute("aria-label", text); });
    });
  }
  function init() {
    watch();
    new MutationObserver(nameControls).observe(document.body, {childList: true, subtree: true});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
