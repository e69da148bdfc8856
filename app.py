"""The judge's app: a thin router over the pages in app_pages/."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

CORPUS = Path(__file__).parent / "rules_index" / "data" / "corpus"

st.set_page_config(page_title="Берсерк: помощник судьи", layout="wide")
st.title("Правила игры «Берсерк»")
for path in sorted(CORPUS.glob("*.txt")):
    st.subheader(path.name)
    st.text(path.read_text(encoding="utf-8"))
