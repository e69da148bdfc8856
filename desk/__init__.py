"""The judge's desk, without Streamlit (the search page's ready answers are casebook.answers).

app_pages/ renders; everything a page decides lives here and is tested without Streamlit.
"""
