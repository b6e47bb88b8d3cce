// The site's formulas, typeset once at build time (tools/static_math.py runs this with Node).
//
//   node site/math-render.js MATHJAX_ES5_DIR FONT_URL < formulas.json > out.json
//
// formulas.json: [{"tex": "W_O", "display": false}, ...]
// out.json: {"html": ["<mjx-container ...>", ...], "css": "...", "errors": [[index, message], ...]}
//
// MathJax 3 (the npm package pinned in site/vendor.json, the same one the browser used to load)
// turns TeX into CommonHTML: each formula becomes HTML drawn with MathJax's web fonts, with the
// formula as MathML beside it for screen readers (assistive-mml). One stylesheet covers every
// character of every formula rendered here; FONT_URL is where it finds the fonts, relative to it.
// The reader's browser then runs no MathJax at all: no 1.2 MB script, and no formula is a tab stop.
"use strict";
const path = require("path");

const [es5, fontURL] = process.argv.slice(2);
if (!es5 || !fontURL) {
  process.stderr.write("usage: node math-render.js MATHJAX_ES5_DIR FONT_URL < formulas.json\n");
  process.exit(2);
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const formulas = JSON.parse(input);
  // MathJax reports through console.log; keep stdout for the answer
  console.log = console.info = console.warn = (...args) => process.stderr.write(args.join(" ") + "\n");
  require(path.resolve(es5, "node-main.js")).init({
    loader: {load: ["input/tex-full", "output/chtml", "a11y/assistive-mml"]},
    chtml: {fontURL: fontURL, adaptiveCSS: true},
    options: {},
  }).then((MathJax) => {
    const adaptor = MathJax.startup.adaptor;
    const html = [], errors = [];
    formulas.forEach((formula, index) => {
      const node = MathJax.tex2chtml(formula.tex, {display: !!formula.display});
      const error = adaptor.tags(node, "mjx-merror")[0];
      if (error) errors.push([index, adaptor.getAttribute(error, "data-mjx-error") || adaptor.textContent(error)]);
      html.push(adaptor.outerHTML(node));
    });
    const css = adaptor.textContent(MathJax.chtmlStylesheet());
    process.stdout.write(JSON.stringify({html: html, css: css, errors: errors}));
  }).catch((error) => {
    process.stderr.write(String(error && error.stack || error) + "\n");
    process.exit(1);
  });
});
