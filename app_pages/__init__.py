"""Streamlit pages of the judge's app; they render, the packages decide.

`registry` declares every page (script, title, icon, address, who may open it) once; app.py
builds the menu from it and every link goes through it. A page is a module here (`clause`,
`graph`, `rules`, `cards`) or, when it has several parts, a package with its `page` module
(`search/`, `changes/`, `desk/`, `journal/`). `shared/` holds what several pages use.
"""
