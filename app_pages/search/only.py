"""The menu's «Поиск» (/search): the search box, never a clause (a ?p= left in the address is dropped)."""

from __future__ import annotations

from app_pages.search import page

if __name__ == "__main__":
    page.search_only()
