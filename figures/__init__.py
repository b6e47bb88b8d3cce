"""The course's figures: presentation, not teaching.

* :mod:`figures.plots` — the matplotlib figures of the section notebooks;
* :mod:`figures.interactive` — the figures with controls (§1.9, §2.6), live in
  Jupyter and on the static website.

The numbers they show come from :mod:`lib`; this package only lays them out.
"""
