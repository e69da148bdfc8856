"""The judge's desk and the search page's ready answers, without Streamlit.

app_pages/ renders; everything a page decides lives here and is tested without Streamlit.
"""
