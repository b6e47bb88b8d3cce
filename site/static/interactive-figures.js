// Interactive figures on the static site (written by figures/interactive.py).
//
// The table of every state of a figure's controls was computed by lib when the
// notebook ran and sits in the page as JSON; this script only enables the
// controls and, on every change, shows the strings stored for the new state.
// It computes nothing. The data holds the strings in every language, each
// number written as that language writes it (1,048,576 / 1 048 576); the
// script shows the page's own, the language the figure's CSS shows words in.
// Until it has run (or without JavaScript) the controls stay disabled and the
// table shows the initial state, as the note says.
(function () {
  "use strict";

  // The language whose words the figure's CSS shows: the page's, if the data has it; else the source.
  function pageLanguage(data) {
    var root = document.documentElement;
    var codes = Object.keys(data.strings).filter(function (code) {
      return code !== data.source && root.matches(":lang(" + code + ")");
    });
    return codes.length ? codes[0] : data.source;
  }

  function control(figure, labels, n) {
    var id = figure.id + "-" + n;
    var slider = document.getElementById(id);
    if (slider && slider.type === "range") {
      var output = figure.querySelector('output[for="' + id + '"]');
      return {
        size: labels.length, inputs: [slider],
        index: function () { return Number(slider.value); },
        show: function (i) {
          output.textContent = labels[i];
          slider.setAttribute("aria-valuetext", labels[i]);
        }
      };
    }
    var radios = Array.prototype.slice.call(figure.querySelectorAll('input[name="' + id + '"]'));
    if (radios.length !== labels.length) throw new Error(figure.id + ": control " + n + " is missing");
    return {
      size: labels.length, inputs: radios,
      index: function () {
        for (var i = 0; i < radios.length; i++) if (radios[i].checked) return Number(radios[i].value);
        throw new Error(figure.id + ": no option of control " + n + " is selected");
      },
      show: function () {}
    };
  }

  function setUp(figure) {
    var data = JSON.parse(figure.querySelector("script.cx-data").textContent);
    var lang = pageLanguage(data);
    var strings = data.strings[lang];
    var controls = data.labels[lang].map(function (labels, n) { return control(figure, labels, n); });
    var cells = Array.prototype.slice.call(figure.querySelectorAll("[data-cx-cell]"));
    var marked = {};
    data.marked.forEach(function (k) { marked[k] = true; });

    function update() {
      var state = 0;
      controls.forEach(function (c) {
        var i = c.index();
        c.show(i);
        state = state * c.size + i;        // the order of itertools.product in figures/interactive.py
      });
      var values = data.states[state].split("|").map(function (i) { return strings[Number(i)]; });
      var keys = cells.map(function (cell) { return Number(cell.getAttribute("data-cx-cell")); });
      keys.forEach(function (k) {            // check everything before changing anything
        if (values[k] === undefined) throw new Error(figure.id + ": state " + state + " has no cell " + k);
      });
      cells.forEach(function (cell, n) {
        var k = keys[n];
        cell.textContent = values[k];
        if (marked[k]) {
          cell.classList.toggle("cx-zero", values[k] === "0");
          cell.classList.toggle("cx-moved", values[k] !== "0");
        }
      });
    }

    update();        // a browser may restore the controls' positions on reload
    controls.forEach(function (c) {
      c.inputs.forEach(function (input) { input.addEventListener("input", update); });
    });
    figure.querySelector("fieldset.cx-controls").disabled = false;
    figure.classList.add("cx-live");
  }

  function setUpAll() {
    document.querySelectorAll("div.cx").forEach(function (figure) {
      try {
        setUp(figure);
      } catch (error) {          // leave this figure static (controls disabled) and say why
        console.error("interactive figure " + figure.id + ": " + error.message);
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
})();
