"""The bare Streamlit page the browser benchmark measures our app against (bench_browser.py).

The least a Streamlit page can do for each thing a judge waits for: one text field and ten lines
of output (a search), one button and a line saying how often it was pressed (a desk action), and
a second page to switch to (the menu, as in our app). Served by the same Streamlit, on the same
machine, in the same run, with Streamlit's default settings: the framework's own pace.
"""

from __future__ import annotations

import streamlit as st

FIELD_LABEL = "Запрос"
BUTTON_LABEL = "Нажать"


def field() -> None:
    st.title("Поле")
    query = st.text_input(FIELD_LABEL, key="bare_query")
    for line in range(1, 11):
        st.write(f"{query} — строка {line}")


def button() -> None:
    st.title("Кнопка")
    if st.button(BUTTON_LABEL, key="bare_button"):
        st.session_state["bare_pressed"] = st.session_state.get("bare_pressed", 0) + 1
    st.write(f"Нажато: {st.session_state.get('bare_pressed', 0)}")


if __name__ == "__main__":  # Streamlit runs the page as __main__; the benchmark imports its labels
    st.navigation(
        [
            st.Page(field, title="Поле", url_path="field", default=True),
            st.Page(button, title="Кнопка", url_path="button"),
        ]
    ).run()
