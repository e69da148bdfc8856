"""The judges' rulings journal: what was ruled at which table, kept safe, found again, printed.

- `rulings.model`: a ruling's fields and their validation (`RulingInput`), stored revisions, hits,
  the error types;
- `rulings.store`: the SQLite file (`Journal`): schema, record, amend, lock, list, get, integrity
  checks; every write checks the judge's sign-in inside its transaction; `require_judge` is the
  guard for writes elsewhere (rules versions);
- `rulings.accounts`: judges' accounts, Argon2id passwords, sign-in tokens, expiry, slowdown;
- `rulings.cli`: `python -m rulings users add|list|remove|passwd`;
- `rulings.search`: the one scoring of «how well does this text answer this query», used by the
  journal's search and by the search page's ready answers;
- `rulings.export`: Markdown for printing, with judge-typed text kept inert.

Depends only on `rules_index` (text analysis, the clause-id grammar) and `lexicon` (the product's
Russian words); it never imports the engine or Streamlit (tests/test_rulings_package.py checks).
"""
