"""«Поиск» (the app's root): `page` answers a search or shows a clause, `only` is the menu's
search, `answers` renders the ready answers (casebook.answers decides them)."""
