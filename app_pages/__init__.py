"""Streamlit pages of the judge's app; they render, the packages decide."""
