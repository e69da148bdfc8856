"""The judges' rulings journal: what was ruled at which table, kept safe, found again, printed.

- `rulings.model`: a ruling's fields and their validation (`RulingInput`), stored revisions, hits,
  the error types;
- `rulings.store`: the journal (`Journal`): record, amend, lock, list, get, search; every write
  checks the judge's sign-in inside its transaction; `require_judge` is the guard for writes
  elsewhere (rules versions). Beneath it: `rulings.schema` (tables, versioned migrations),
  `rulings.sqlite_file` (transactions on the file, integrity check, errors in Russian),
  `rulings.records` (rulings as rows) and `rulings.signins` (accounts and sessions as methods);
- `rulings.accounts`: judges' accounts, Argon2id passwords, sign-in tokens, expiry, slowdown;
- `rulings.cli`: `python -m rulings users add|list|remove|passwd`;
- `rulings.search`: the one scoring of «how well does this text answer this query», used by the
  journal's search and by the search page's ready answers;
- `rulings.export`: Markdown for printing, with judge-typed text kept inert.

Depends only on `rules_index` (text analysis, the clause-id grammar) and `lexicon` (the product's
Russian words); it never imports the engine or Streamlit (tests/test_rulings_package.py checks).
"""
