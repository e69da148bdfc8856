"""What several pages share: `common` (the rules this window reads, links to clauses, safe text,
the upload budget), `card_base` (the card base this window reads), `version_diff` (two rules
versions side by side, and the notices of the clause page, the desk and the journal)."""
