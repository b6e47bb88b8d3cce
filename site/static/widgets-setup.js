// Loaded (by myst-nb) only on pages with embedded widget state, after the
// MathJax configuration and before require.js and the widget manager.
(function () {
  // 1. The widget modules find their fonts next to the URL require.js gives
  //    them: map their names onto the site's copy of the widget manager
  //    (no CDN, works at any page depth).
  var here = document.currentScript && document.currentScript.src;
  if (here) {
    var dist = new URL("vendor/html-manager/", here).href;
    window.__jupyter_widgets_assets_path__ = dist;
    var paths = {"@jupyter-widgets/html-manager/dist": dist.slice(0, -1)};
    ["base", "base7", "controls", "controls7", "html-manager", "output"].forEach(function (name) {
      paths["@jupyter-widgets/" + name] = dist + name;
    });
    window.require = {paths: paths};   // read by require.js when it loads
  }

  // 2. Widgets typeset their labels with the MathJax 2 call
  //    MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]); the site runs
  //    MathJax 3, which has no Hub. Give every MathJax object a small Hub.
  var hub = {
    Queue: function () {
      for (var i = 0; i < arguments.length; i++) {
        var cmd = arguments[i];
        if (Array.isArray(cmd) && cmd[0] === "Typeset") typeset(cmd[2]);
      }
    }
  };
  function typeset(element) {
    var mj = current;
    if (!mj || !mj.startup || !mj.startup.promise) return;   // MathJax typesets the page when it starts
    mj.startup.promise
      .then(function () { return mj.typesetPromise(element ? [element] : undefined); })
      .catch(function () { /* a label that is not TeX */ });
  }
  var current = window.MathJax;
  if (current && typeof current === "object" && !current.Hub) current.Hub = hub;
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    enumerable: true,
    get: function () { return current; },
    set: function (value) {
      current = value;
      if (value && typeof value === "object" && !value.Hub) value.Hub = hub;
    }
  });
})();
