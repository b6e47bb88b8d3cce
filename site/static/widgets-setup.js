// Loaded (by myst-nb) only on pages with embedded widget state, before
// require.js and the widget manager. The widget modules find their fonts next
// to the URL require.js gives them, so map their names onto the site's copy
// of @jupyter-widgets/html-manager (no CDN, works at any page depth).
(function () {
  var here = document.currentScript && document.currentScript.src;
  if (!here) return;
  var dist = new URL("vendor/html-manager/", here).href;
  window.__jupyter_widgets_assets_path__ = dist;
  var paths = {"@jupyter-widgets/html-manager/dist": dist.slice(0, -1)};
  ["base", "base7", "controls", "controls7", "html-manager", "output"].forEach(function (name) {
    paths["@jupyter-widgets/" + name] = dist + name;
  });
  window.require = {paths: paths};   // read by require.js when it loads
})();
